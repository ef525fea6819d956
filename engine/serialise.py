"""The engine's storage format: a game's (or a finished round's) parts as a plain JSON-ready
dict and back, refusing any impossible state.

The dict holds everything, the current round's seed and hands included: it is what stores
persist and must never be shown to a viewer (see :mod:`engine.views` for that). Loading
checks the state against the rules, including that the hands are exactly what the round's
seed deals, so a corrupted or forged record is refused with a clear :class:`InvalidState`.

This module knows the format and the rules' invariants, and nothing of the classes built
from it: :class:`~engine.game.Game` turns itself into :class:`GameParts` and back
(``Game.to_dict``, ``Game.from_dict``), and :class:`~engine.records.RoundRecord` is built
from :func:`parse_round`. It is the only module that reads or writes the dict's keys;
:func:`summary` is how code outside the engine reads a stored game without rebuilding it.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from engine.dealing import SEED_BYTES, deal_hands
from engine.errors import InvalidState
from engine.facts import (
    AI_NICKNAME_PATTERN,
    CHECK,
    LOST_ROUND,
    MAX_PLAYERS,
    MIN_PLAYERS,
    N_BETS,
    N_CARDS,
    NICKNAME_PATTERN,
    Status,
    max_cards,
    next_in_play,
)
from engine.sets import exists

FORMAT: Final = 1


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise InvalidState(f"Invalid game state: {message}")


def _is_int(value: Any) -> bool:
    return type(value) is int


class GameParts(NamedTuple):
    """Everything a game is, as plain values: what :func:`dump_game` writes and
    :func:`parse_game` reads back (``mask``: the current round's cards as a bit set)."""

    status: Status
    admin: str | None
    public: bool
    max_cards: int
    round_number: int
    nicknames: list[str]
    ai_agents: list[str | None]
    cards: list[int]
    hands: list[tuple[int, ...]]
    mask: int
    seed: bytes | None
    history: list[tuple[int, int]]
    current: int | None
    ready: list[str]
    auto_start: bool
    chosen_max_cards: int | None


def dump_game(parts: GameParts) -> dict[str, Any]:
    """The stored form of a game, secrets included: for stores only."""
    return {
        "format": FORMAT,
        "status": parts.status.value,
        "admin": parts.admin,
        "public": parts.public,
        "max_cards": parts.max_cards,
        "round_number": parts.round_number,
        "players": [
            _player_row(nick, n, agent)
            for nick, n, agent in zip(parts.nicknames, parts.cards, parts.ai_agents, strict=True)
        ],
        "hands": [list(hand) for hand in parts.hands],
        "seed": None if parts.seed is None else parts.seed.hex(),
        "history": [[seat, action] for seat, action in parts.history],
        "current": parts.current,
        "ready": list(parts.ready),
        "auto_start": parts.auto_start,
        "chosen_max_cards": parts.chosen_max_cards,
    }


def _player_row(nickname: str, n_cards: int, ai_agent: str | None) -> dict[str, Any]:
    row: dict[str, Any] = {"nickname": nickname, "n_cards": n_cards}
    if ai_agent is not None:
        row["ai_agent"] = ai_agent
    return row


def _players(data: dict[str, Any]) -> tuple[list[str], list[int], list[str | None]]:
    players = data.get("players")
    _require(isinstance(players, list), "players must be a list")
    assert isinstance(players, list)
    _require(len(players) <= MAX_PLAYERS, f"at most {MAX_PLAYERS} players")
    nicknames: list[str] = []
    cards: list[int] = []
    agents: list[str | None] = []
    for row in players:
        _require(isinstance(row, dict), "each player must be an object")
        nick, n, agent = row.get("nickname"), row.get("n_cards"), row.get("ai_agent")
        _require(agent is None or isinstance(agent, str), "ai_agent must be a string")
        pattern = NICKNAME_PATTERN if agent is None else AI_NICKNAME_PATTERN
        _require(isinstance(nick, str) and bool(pattern.fullmatch(nick)), f"bad nickname {nick!r}")
        _require(_is_int(n) and n >= 0, f"bad card count for {nick!r}")
        nicknames.append(nick)
        cards.append(n)
        agents.append(agent)
    folded = {n.casefold() for n in nicknames}
    _require(len(folded) == len(nicknames), "nicknames must be unique")
    return nicknames, cards, agents


def _seed(value: Any) -> bytes:
    _require(isinstance(value, str) and len(value) == 64, "seed must be 64 hex digits")
    try:
        seed = bytes.fromhex(value)
    except ValueError:
        seed = b""
    _require(len(seed) == SEED_BYTES, "seed must be 64 hex digits")
    return seed


def _hands(value: Any, n_players: int, seed: bytes) -> tuple[list[tuple[int, ...]], int]:
    _require(isinstance(value, list) and len(value) == n_players, "one hand per player")
    hands: list[tuple[int, ...]] = []
    for hand in value:
        _require(isinstance(hand, list), "a hand must be a list")
        _require(all(_is_int(c) and 0 <= c < N_CARDS for c in hand), "cards are 0..23")
        hands.append(tuple(hand))
    sizes = [len(h) for h in hands]
    _require(sum(sizes) <= N_CARDS, "more cards than the deck holds")
    dealt, mask = deal_hands(seed, sizes)
    _require(dealt == hands, "the hands are not what the round's seed deals")
    return hands, mask


def _history(value: Any, n_players: int) -> list[tuple[int, int]]:
    _require(isinstance(value, list), "history must be a list")
    history: list[tuple[int, int]] = []
    for entry in value:
        ok = isinstance(entry, list) and len(entry) == 2 and all(_is_int(x) for x in entry)
        _require(ok, "history entries are [seat, action_id]")
        seat, action = entry
        _require(0 <= seat < n_players, "history names a seat that does not exist")
        _require(0 <= action <= LOST_ROUND, "history holds an action id outside 0..89")
        history.append((seat, action))
    return history


def _check_bets(bets: list[tuple[int, int]], active: list[int]) -> None:
    """Bets strictly rise, and each is made by the next player in the round's seating."""
    previous = -1
    for i, (seat, action) in enumerate(bets):
        _require(action < N_BETS, "only bets may come before the check")
        _require(action > previous, "bets must strictly rise within a round")
        previous = action
        if i:
            _require(seat == next_in_play(active, bets[i - 1][0]), "a player bet out of turn")
        else:
            _require(active[seat] > 0, "an eliminated player cannot bet")


def _lobby_choices(
    data: dict[str, Any], nicknames: list[str], agents: list[str | None]
) -> tuple[list[str], bool, int | None]:
    """Readiness, auto start and the chosen maximum (absent from games stored before them)."""
    ready, auto, chosen = (
        data.get("ready", []),
        data.get("auto_start", False),
        data.get("chosen_max_cards"),
    )
    _require(isinstance(ready, list), "ready must be a list")
    humans = [n for n, a in zip(nicknames, agents, strict=True) if a is None]
    _require(all(r in humans for r in ready), "only seated humans can be ready")
    _require(ready == [n for n in humans if n in ready], "ready lists humans once, in seat order")
    _require(isinstance(auto, bool), "auto_start must be true or false")
    top = max_cards(MIN_PLAYERS)
    _require(chosen is None or (_is_int(chosen) and 1 <= chosen <= top), "bad chosen_max_cards")
    return list(ready), auto, chosen


def _check_round_end(history: list[tuple[int, int]], before: list[int], mask: int) -> bool:
    """A finished round's history: bets, then a check lost by whoever the cards say, or a
    forfeit (see Game.forfeit), then the loser's 89. Returns whether a check ended it."""
    _require(len(history) >= 1 and history[-1][1] == LOST_ROUND, "a finished round has a loser")
    loser = history[-1][0]
    _require(before[loser] > 0, "the loser was in the round")
    if len(history) >= 3 and history[-2][1] == CHECK:
        checker = history[-2][0]
        bets = history[:-2]
        _check_bets(bets, before)
        bettor, bet = bets[-1]
        _require(checker == next_in_play(before, bettor), "the check came out of turn")
        _require(loser == (checker if exists(bet, mask) else bettor), "the wrong player lost")
        return True
    _check_bets(history[:-1], before)  # a forfeit: only rising bets before it
    return False


def parse_game(data: Any) -> GameParts:
    """The parts of a game stored by :func:`dump_game`; InvalidState if impossible."""
    _require(isinstance(data, dict), "expected an object")
    fmt = data.get("format")
    _require(_is_int(fmt) and fmt == FORMAT, f"unknown format {fmt!r}")
    try:
        status = Status(data.get("status"))
    except ValueError:
        raise InvalidState(f"Invalid game state: unknown status {data.get('status')!r}") from None
    nicknames, cards, agents = _players(data)
    n = len(nicknames)
    admin, public = data.get("admin"), data.get("public")
    rnd, top = data.get("round_number"), data.get("max_cards")
    _require(isinstance(public, bool), "public must be true or false")
    _require(_is_int(rnd) and _is_int(top), "round_number and max_cards must be integers")
    _require((admin is None) == (n == 0), "a game with players has an admin, and only then")
    _require(admin is None or admin in nicknames, "the admin must be a player")
    history = _history(data.get("history"), n)
    current = data.get("current")
    ready, auto_start, chosen = _lobby_choices(data, nicknames, agents)

    def parts(hands: list[tuple[int, ...]], mask: int, seed: bytes | None) -> GameParts:
        return GameParts(
            status, admin, public, top, rnd, nicknames, agents, cards, hands, mask, seed,
            history, current, ready, auto_start, chosen,
        )  # fmt: skip

    if status is Status.NOT_STARTED:
        _require(rnd == 0 and top == 0, "a game not started has no round and no maximum")
        _require(not any(cards), "nobody holds cards before the start")
        _require(data.get("hands") in ([], None) and data.get("seed") is None, "no deal yet")
        _require(not history and current is None, "no moves before the start")
        return parts([], 0, None)

    _require(n >= MIN_PLAYERS, "a started game has at least two players")
    _require(not ready, "nobody is marked ready once the game has started")
    _require(
        top == min(max_cards(n), chosen or N_CARDS),
        f"max_cards must be {max_cards(n)} or the choice",
    )
    _require(rnd >= 1, "a started game is in round 1 or later")
    _require(not public, "a started game is private")
    _require(all(c <= top for c in cards), "nobody holds more than the maximum")
    seed = _seed(data.get("seed"))
    hands, mask = _hands(data.get("hands"), n, seed)
    active = sum(1 for c in cards if c)

    if status is Status.RUNNING:
        _require(active >= 2, "a running game has at least two players left")
        _require([len(h) for h in hands] == cards, "each player holds as many cards as counted")
        _check_bets(history, cards)
        _require(_is_int(current) and 0 <= current < n and cards[current] > 0, "bad current")
        if history:
            expected = next_in_play(cards, history[-1][0])
            _require(current == expected, "the current player must follow the last bettor")
        return parts(hands, mask, seed)

    # Finished: the final round as it ended, by a check or by a forfeit.
    _require(active == 1, "a finished game has exactly one player left")
    _require(current is None, "nobody moves in a finished game")
    _require(len(history) >= 1 and history[-1][1] == LOST_ROUND, "the final round has a loser")
    loser = history[-1][0]
    before = [len(h) for h in hands]
    _require(cards[loser] == 0 and before[loser] > 0, "the final loser left the game")
    for seat in range(n):
        if seat != loser:
            _require(cards[seat] == before[seat], "only the loser's count changes")
    if _check_round_end(history, before, mask):
        _require(before[loser] == top, "the final loser went over the maximum")
    return parts(hands, mask, seed)


RoundParts = tuple[
    int,
    tuple[str, ...],
    tuple[int, ...],
    tuple["str | None", ...],
    list[tuple[int, ...]],
    list[tuple[int, int]],
    bytes,
    int,
    int,
    bool,
]
"""A finished round's fields, in the order :class:`~engine.records.RoundRecord` takes them."""


def parse_round(data: Any) -> RoundParts:
    """A finished round's fields from its public dict, checked against its own seed."""
    _require(isinstance(data, dict), "expected an object")
    nicknames, before, agents = _players(data)
    n = len(nicknames)
    seed = _seed(data.get("seed"))
    hands, mask = _hands(
        [[c["value"] * 4 + c["colour"] for c in h] for h in _hand_lists(data, nicknames)], n, seed
    )
    _require([len(h) for h in hands] == before, "each player holds as many cards as counted")
    seat_of = {nick: i for i, nick in enumerate(nicknames)}
    raw_history = data.get("history")
    _require(isinstance(raw_history, list), "history must be a list")
    assert isinstance(raw_history, list)
    history: list[tuple[int, int]] = []
    for move in raw_history:
        ok = isinstance(move, dict) and isinstance(move.get("player"), str)
        _require(ok and move["player"] in seat_of, "bad history entry")
        action = move.get("action_id")
        _require(_is_int(action) and 0 <= action <= LOST_ROUND, "bad action id in history")
        history.append((seat_of[move["player"]], action))
    _check_round_end(history, before, mask)
    number, top = data.get("round_number"), data.get("max_cards")
    _require(_is_int(number) and number >= 1, "bad round number")
    _require(_is_int(top) and n >= MIN_PLAYERS and 1 <= top <= max_cards(n), "bad max_cards")
    return (
        number,
        tuple(nicknames),
        tuple(before),
        tuple(agents),
        hands,
        history,
        seed,
        history[-1][0],
        top,
        data.get("status") == Status.FINISHED.value,
    )


def _hand_lists(data: dict[str, Any], nicknames: list[str]) -> list[list[dict[str, int]]]:
    raw = data.get("hands")
    _require(isinstance(raw, list), "hands must be a list")
    assert isinstance(raw, list)
    by_nick: dict[str, list[dict[str, int]]] = {}
    for entry in raw:
        ok = isinstance(entry, dict) and entry.get("nickname") in nicknames
        _require(ok and isinstance(entry.get("hand"), list), "bad hand entry")
        cards = entry["hand"]
        for card in cards:
            good = (
                isinstance(card, dict)
                and _is_int(card.get("value"))
                and _is_int(card.get("colour"))
            )
            _require(good and 0 <= card["value"] < 6 and 0 <= card["colour"] < 4, "bad card")
        by_nick[entry["nickname"]] = cards
    return [by_nick.get(nick, []) for nick in nicknames]


class StoredGame(NamedTuple):
    """What code outside the engine may read of a stored game without rebuilding it (see
    :func:`summary`): the public facts, never a hand or a seed."""

    status: Status
    public: bool
    admin: str | None
    round_number: int
    max_cards: int
    nicknames: tuple[str, ...]
    n_cards: tuple[int, ...]
    ai_agents: tuple[str | None, ...]
    current: int | None
    """The seat whose turn it is (None: nobody's)."""

    @property
    def winner(self) -> str | None:
        """The last player left, once the game is finished."""
        if self.status is not Status.FINISHED:
            return None
        return next((n for n, c in zip(self.nicknames, self.n_cards, strict=True) if c), None)


def summary(data: dict[str, Any]) -> StoredGame:
    """The public facts of a game stored by :func:`dump_game`, read cheaply and without the
    checks of :func:`parse_game` (for a dict this engine wrote: lists, the store's indexes,
    replies). Games stored before the table's choices read the same.

    >>> from engine.facts import Status
    >>> stored = {"format": 1, "status": "Not started", "admin": "ann", "public": True,
    ...           "max_cards": 0, "round_number": 0, "history": [], "current": None,
    ...           "players": [{"nickname": "ann", "n_cards": 0}], "hands": [], "seed": None}
    >>> facts = summary(stored)
    >>> facts.status is Status.NOT_STARTED, facts.nicknames, facts.winner
    (True, ('ann',), None)
    """
    players = data.get("players") or ()
    return StoredGame(
        Status(data["status"]),
        bool(data.get("public")),
        data.get("admin"),
        int(data.get("round_number") or 0),
        int(data.get("max_cards") or 0),
        tuple(p["nickname"] for p in players),
        tuple(int(p["n_cards"]) for p in players),
        tuple(p.get("ai_agent") for p in players),
        data.get("current"),
    )
