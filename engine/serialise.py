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

from engine.dealing import SEED_BYTES, deal_round
from engine.errors import InvalidRules, InvalidState
from engine.facts import (
    AI_NICKNAME_PATTERN,
    MAX_PLAYERS,
    MIN_PLAYERS,
    NICKNAME_PATTERN,
    Status,
    next_in_play,
    sides_left,
)
from engine.rules import CLASSIC, MAX_HAND, CardKind, Rules

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
    rules: Rules
    teams: list[int | None]
    common: tuple[int, ...]


def dump_game(parts: GameParts) -> dict[str, Any]:
    """The stored form of a game, secrets included: for stores only."""
    stored: dict[str, Any] = {
        "format": FORMAT,
        "status": parts.status.value,
        "admin": parts.admin,
        "public": parts.public,
        "max_cards": parts.max_cards,
        "round_number": parts.round_number,
        "players": [
            _player_row(nick, n, agent, team)
            for nick, n, agent, team in zip(
                parts.nicknames, parts.cards, parts.ai_agents, parts.teams, strict=True
            )
        ],
        "hands": [list(hand) for hand in parts.hands],
        "seed": None if parts.seed is None else parts.seed.hex(),
        "history": [[seat, action] for seat, action in parts.history],
        "current": parts.current,
        "ready": list(parts.ready),
        "auto_start": parts.auto_start,
        "chosen_max_cards": parts.rules.max_cards or None,
    }
    if parts.rules.but(max_cards=0) != CLASSIC:  # a classic game is stored as it always was
        stored["rules"] = parts.rules.to_dict()
        stored["common"] = list(parts.common)
    return stored


def _player_row(
    nickname: str, n_cards: int, ai_agent: str | None, team: int | None
) -> dict[str, Any]:
    row: dict[str, Any] = {"nickname": nickname, "n_cards": n_cards}
    if ai_agent is not None:
        row["ai_agent"] = ai_agent
    if team is not None:
        row["team"] = team
    return row


def _rules(data: dict[str, Any]) -> Rules:
    """The game's rules (games stored before rules: the classic game, with the maximum of
    cards the admin chose, if any)."""
    raw = data.get("rules")
    try:
        if raw is None:
            chosen = data.get("chosen_max_cards")
            _require(chosen is None or _is_int(chosen), "bad chosen_max_cards")
            _require(chosen is None or 1 <= chosen <= MAX_HAND, "bad chosen_max_cards")
            return CLASSIC if chosen is None else Rules(max_cards=chosen)
        _require(isinstance(raw, dict), "rules must be an object")
        return Rules.from_dict(raw)
    except InvalidRules as error:
        raise InvalidState(f"Invalid game state: {error.message}") from None


def _teams(data: dict[str, Any]) -> list[int | None]:
    teams = [row.get("team") if isinstance(row, dict) else None for row in data["players"]]
    ok = all(t is None or (_is_int(t) and 1 <= t <= MAX_PLAYERS) for t in teams)
    _require(ok, "a team is a number between 1 and 8")
    return teams


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


def _pile(value: Any, total: int) -> tuple[int, ...]:
    _require(isinstance(value, list), "a hand must be a list")
    _require(all(_is_int(c) and 0 <= c < total for c in value), f"cards are 0..{total - 1}")
    return tuple(value)


def _hands(
    value: Any, n_players: int, seed: bytes, rules: Rules, common: Any = ()
) -> tuple[list[tuple[int, ...]], tuple[int, ...], int]:
    """The hands and common cards, checked against what the round's seed deals."""
    total = rules.total_cards
    _require(isinstance(value, list) and len(value) == n_players, "one hand per player")
    hands = [_pile(hand, total) for hand in value]
    shared = _pile(list(common) if isinstance(common, (list, tuple)) else common, total)
    sizes = [len(h) for h in hands]
    _require(sum(sizes) + len(shared) <= total, "more cards than the deck holds")
    _require(len(shared) == rules.common_count(sizes), "the wrong number of common cards")
    dealt, dealt_common, mask = deal_round(seed, sizes, len(shared), total, rules.deck_size)
    _require(dealt == hands and dealt_common == shared, "not what the round's seed deals")
    return hands, shared, mask


def _history(value: Any, n_players: int, rules: Rules) -> list[tuple[int, int]]:
    _require(isinstance(value, list), "history must be a list")
    history: list[tuple[int, int]] = []
    for entry in value:
        ok = isinstance(entry, list) and len(entry) == 2 and all(_is_int(x) for x in entry)
        _require(ok, "history entries are [seat, action_id]")
        seat, action = entry
        _require(0 <= seat < n_players, "history names a seat that does not exist")
        lost = rules.lost_round
        _require(0 <= action <= lost, f"history holds an action id outside 0..{lost}")
        history.append((seat, action))
    return history


def _check_bets(bets: list[tuple[int, int]], active: list[int], rules: Rules) -> None:
    """Bets strictly rise, and each is made by the next player in the round's seating."""
    previous = -1
    for i, (seat, action) in enumerate(bets):
        _require(action < rules.n_bets, "only bets may come before the check")
        _require(action > previous, "bets must strictly rise within a round")
        previous = action
        if i:
            _require(seat == next_in_play(active, bets[i - 1][0]), "a player bet out of turn")
        else:
            _require(active[seat] > 0, "an eliminated player cannot bet")


def _lobby_choices(
    data: dict[str, Any], nicknames: list[str], agents: list[str | None]
) -> tuple[list[str], bool]:
    """Readiness and auto start (absent from games stored before them)."""
    ready, auto = data.get("ready", []), data.get("auto_start", False)
    _require(isinstance(ready, list), "ready must be a list")
    humans = [n for n, a in zip(nicknames, agents, strict=True) if a is None]
    _require(all(r in humans for r in ready), "only seated humans can be ready")
    _require(ready == [n for n in humans if n in ready], "ready lists humans once, in seat order")
    _require(isinstance(auto, bool), "auto_start must be true or false")
    return list(ready), auto


class _Deal(NamedTuple):
    """A round's cards as dealt: the hands, the common cards, the deck's cards among them."""

    hands: list[tuple[int, ...]]
    common: tuple[int, ...]
    mask: int


def _check_round_end(
    history: list[tuple[int, int]], before: list[int], deal: _Deal, rules: Rules
) -> bool:
    """A finished round's history: bets, then a check lost by whoever the cards say, or a
    forfeit (see Game.forfeit), then the loser's lost-round event. Returns whether a check
    ended it."""
    lost = rules.lost_round
    _require(len(history) >= 1 and history[-1][1] == lost, "a finished round has a loser")
    loser = history[-1][0]
    _require(before[loser] > 0, "the loser was in the round")
    if len(history) >= 3 and history[-2][1] == rules.check:
        checker = history[-2][0]
        bets = history[:-2]
        _check_bets(bets, before, rules)
        bettor, bet = bets[-1]
        _require(checker == next_in_play(before, bettor), "the check came out of turn")
        jokers = sum(
            1 for c in (*deal.hands[bettor], *deal.common) if rules.kind_of(c) is CardKind.JOKER
        )
        found = rules.table.exists_with(bet, deal.mask, jokers)
        _require(loser == (checker if found else bettor), "the wrong player lost")
        return True
    _check_bets(history[:-1], before, rules)  # a forfeit: only rising bets before it
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
    teams = _teams(data)
    rules = _rules(data)
    n = len(nicknames)
    admin, public = data.get("admin"), data.get("public")
    rnd, top = data.get("round_number"), data.get("max_cards")
    _require(isinstance(public, bool), "public must be true or false")
    _require(_is_int(rnd) and _is_int(top), "round_number and max_cards must be integers")
    _require((admin is None) == (n == 0), "a game with players has an admin, and only then")
    _require(admin is None or admin in nicknames, "the admin must be a player")
    history = _history(data.get("history"), n, rules)
    current = data.get("current")
    ready, auto_start = _lobby_choices(data, nicknames, agents)

    def parts(deal: _Deal, seed: bytes | None) -> GameParts:
        return GameParts(
            status, admin, public, top, rnd, nicknames, agents, cards, deal.hands, deal.mask,
            seed, history, current, ready, auto_start, rules, teams, deal.common,
        )  # fmt: skip

    if status is Status.NOT_STARTED:
        _require(rnd == 0 and top == 0, "a game not started has no round and no maximum")
        _require(not any(cards), "nobody holds cards before the start")
        _require(data.get("hands") in ([], None) and data.get("seed") is None, "no deal yet")
        _require(not data.get("common"), "no common cards before the start")
        _require(not history and current is None, "no moves before the start")
        return parts(_Deal([], (), 0), None)

    _require(n >= MIN_PLAYERS, "a started game has at least two players")
    _require(not ready, "nobody is marked ready once the game has started")
    expected_top = rules.max_cards_for(n)
    rule_top = rules.but(max_cards=0).max_cards_for(n)
    _require(top == expected_top, f"max_cards must be {rule_top} or the choice")
    _require(rnd >= 1, "a started game is in round 1 or later")
    _require(not public, "a started game is private")
    _require(all(c <= top for c in cards), "nobody holds more than the maximum")
    seed = _seed(data.get("seed"))
    deal = _Deal(*_hands(data.get("hands"), n, seed, rules, data.get("common") or ()))
    sides = sides_left(teams, cards)

    if status is Status.RUNNING:
        _require(sides >= 2, "a running game has at least two players left (two sides)")
        _require(
            [len(h) for h in deal.hands] == cards, "each player holds as many cards as counted"
        )
        _check_bets(history, cards, rules)
        _require(_is_int(current) and 0 <= current < n and cards[current] > 0, "bad current")
        if history:
            expected = next_in_play(cards, history[-1][0])
            _require(current == expected, "the current player must follow the last bettor")
        return parts(deal, seed)

    # Finished: the final round as it ended, by a check or by a forfeit.
    _require(sides == 1, "a finished game has exactly one player left (or one team)")
    _require(current is None, "nobody moves in a finished game")
    lost = rules.lost_round
    _require(len(history) >= 1 and history[-1][1] == lost, "the final round has a loser")
    loser = history[-1][0]
    before = [len(h) for h in deal.hands]
    _require(cards[loser] == 0 and before[loser] > 0, "the final loser left the game")
    for seat in range(n):
        if seat != loser:
            _require(cards[seat] == before[seat], "only the loser's count changes")
    if _check_round_end(history, before, deal, rules):
        _require(before[loser] == top, "the final loser went over the maximum")
    return parts(deal, seed)


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
    tuple[int, ...],
    Rules,
    tuple["int | None", ...],
]
"""A finished round's fields, in the order :class:`~engine.records.RoundRecord` takes them."""


def parse_round(data: Any) -> RoundParts:
    """A finished round's fields from its public dict, checked against its own seed."""
    _require(isinstance(data, dict), "expected an object")
    nicknames, before, agents = _players(data)
    teams = _teams(data)
    rules = _rules(data)
    n = len(nicknames)
    seed = _seed(data.get("seed"))
    lists = _hand_lists(data, nicknames)
    common_raw = data.get("common_hand") or []
    _require(isinstance(common_raw, list), "common_hand must be a list")
    deal = _shown_deal(seed, lists, common_raw, rules)
    _require([len(h) for h in deal.hands] == before, "each player holds as many cards as counted")
    seat_of = {nick: i for i, nick in enumerate(nicknames)}
    raw_history = data.get("history")
    _require(isinstance(raw_history, list), "history must be a list")
    assert isinstance(raw_history, list)
    history: list[tuple[int, int]] = []
    for move in raw_history:
        ok = isinstance(move, dict) and isinstance(move.get("player"), str)
        _require(ok and move["player"] in seat_of, "bad history entry")
        action = move.get("action_id")
        lost = rules.lost_round
        _require(_is_int(action) and 0 <= action <= lost, "bad action id in history")
        history.append((seat_of[move["player"]], action))
    _check_round_end(history, before, deal, rules)
    number, top = data.get("round_number"), data.get("max_cards")
    _require(_is_int(number) and number >= 1, "bad round number")
    _require(n >= MIN_PLAYERS, "a round has at least two players")
    _require(_is_int(top) and 1 <= top <= rules.max_cards_for(n), "bad max_cards")
    return (
        number,
        tuple(nicknames),
        tuple(before),
        tuple(agents),
        deal.hands,
        history,
        seed,
        history[-1][0],
        top,
        data.get("status") == Status.FINISHED.value,
        deal.common,
        rules,
        tuple(teams),
    )


def _shown_deal(seed: bytes, hands: list[list[Any]], common: list[Any], rules: Rules) -> _Deal:
    """The deal a round's public record shows, checked card by card against what its seed
    deals (jokers look alike, so the record is compared as shown, not as deck indices)."""
    sizes = [len(h) for h in hands]
    total = rules.total_cards
    _require(sum(sizes) + len(common) <= total, "more cards than the deck holds")
    _require(len(common) == rules.common_count(sizes), "the wrong number of common cards")
    dealt, dealt_common, mask = deal_round(seed, sizes, len(common), total, rules.deck_size)
    card = rules.card_dict
    shown = [[card(i) for i in pile] for pile in [*dealt, dealt_common]]
    _require(shown == [*hands, common], "the hands are not what the round's seed deals")
    return _Deal(dealt, dealt_common, mask)


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
            _require(good, "bad card")
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
