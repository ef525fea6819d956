"""A game as a plain JSON-ready dict and back, refusing any impossible state.

The dict holds everything, the current round's seed and hands included: it is what stores
persist and must never be shown to a viewer (see :mod:`engine.views` for that). Loading
checks the state against the rules, including that the hands are exactly what the round's
seed deals, so a corrupted or forged record is refused with a clear :class:`InvalidState`.
"""

from __future__ import annotations

from typing import Any, Final

from engine.dealing import SEED_BYTES, SeedSource, deal_hands
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
    max_cards,
)
from engine.game import Game, RoundRecord, Status
from engine.sets import exists

FORMAT: Final = 1


def _require(condition: bool, message: str) -> None:
    if not condition:
        raise InvalidState(f"Invalid game state: {message}")


def _is_int(value: Any) -> bool:
    return type(value) is int


def game_to_dict(game: Game) -> dict[str, Any]:
    seed = game._seed
    return {
        "format": FORMAT,
        "status": game.status.value,
        "admin": game.admin,
        "public": game.public,
        "max_cards": game.max_cards,
        "round_number": game.round_number,
        "players": [row.to_dict() for row in game.players],
        "hands": [list(hand) for hand in game._hands],
        "seed": None if seed is None else seed.hex(),
        "history": [[seat, action] for seat, action in game._history],
        "current": game._current,
        "ready": list(game.ready),
        "auto_start": game.auto_start,
        "chosen_max_cards": game.chosen_max_cards,
    }


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


def _next_active(cards: list[int], seat: int) -> int:
    n = len(cards)
    seat = (seat + 1) % n
    while not cards[seat]:
        seat = (seat + 1) % n
    return seat


def _check_bets(bets: list[tuple[int, int]], active: list[int]) -> None:
    """Bets strictly rise, and each is made by the next player in the round's seating."""
    previous = -1
    for i, (seat, action) in enumerate(bets):
        _require(action < N_BETS, "only bets may come before the check")
        _require(action > previous, "bets must strictly rise within a round")
        previous = action
        if i:
            _require(seat == _next_active(active, bets[i - 1][0]), "a player bet out of turn")
        else:
            _require(active[seat] > 0, "an eliminated player cannot bet")


def _lobby_choices(game: Game, data: dict[str, Any]) -> None:
    """Readiness, auto start and the chosen maximum (absent from games stored before them)."""
    ready, auto, chosen = (
        data.get("ready", []),
        data.get("auto_start", False),
        data.get("chosen_max_cards"),
    )
    _require(isinstance(ready, list), "ready must be a list")
    humans = game.humans
    _require(all(r in humans for r in ready), "only seated humans can be ready")
    _require(ready == [n for n in humans if n in ready], "ready lists humans once, in seat order")
    _require(isinstance(auto, bool), "auto_start must be true or false")
    top = max_cards(MIN_PLAYERS)
    _require(chosen is None or (_is_int(chosen) and 1 <= chosen <= top), "bad chosen_max_cards")
    game.ready, game.auto_start, game.chosen_max_cards = list(ready), auto, chosen


def game_from_dict(data: Any, seed_source: SeedSource | None = None) -> Game:
    """Rebuild a :class:`Game` from :func:`game_to_dict`; raise InvalidState if impossible."""
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

    game = Game(seed_source)
    game.status, game.admin, game.public = status, admin, public
    game.nicknames, game.ai_agents, game._cards = nicknames, agents, cards
    history = _history(data.get("history"), n)
    current = data.get("current")
    _lobby_choices(game, data)

    if status is Status.NOT_STARTED:
        _require(rnd == 0 and top == 0, "a game not started has no round and no maximum")
        _require(not any(cards), "nobody holds cards before the start")
        _require(data.get("hands") in ([], None) and data.get("seed") is None, "no deal yet")
        _require(not history and current is None, "no moves before the start")
        return game

    _require(n >= MIN_PLAYERS, "a started game has at least two players")
    _require(not game.ready, "nobody is marked ready once the game has started")
    chosen = game.chosen_max_cards or N_CARDS
    _require(top == min(max_cards(n), chosen), f"max_cards must be {max_cards(n)} or the choice")
    _require(rnd >= 1, "a started game is in round 1 or later")
    _require(not public, "a started game is private")
    _require(all(c <= top for c in cards), "nobody holds more than the maximum")
    seed = _seed(data.get("seed"))
    hands, mask = _hands(data.get("hands"), n, seed)
    active = sum(1 for c in cards if c)
    game.max_cards, game.round_number = top, rnd
    game._seed, game._hands, game._mask = seed, hands, mask
    game._history, game._n_active = history, active
    if active:  # with nobody left there is no next player (refused below)
        game._rebuild_next()

    if status is Status.RUNNING:
        _require(active >= 2, "a running game has at least two players left")
        _require([len(h) for h in hands] == cards, "each player holds as many cards as counted")
        _check_bets(history, cards)
        _require(_is_int(current) and 0 <= current < n and cards[current] > 0, "bad current")
        if history:
            expected = _next_active(cards, history[-1][0])
            _require(current == expected, "the current player must follow the last bettor")
        game._current = current
        game._min_bet = history[-1][1] + 1 if history else 0
        return game

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
    if len(history) >= 3 and history[-2][1] == CHECK:
        checker = history[-2][0]
        bets = history[:-2]
        _require(before[loser] == top, "the final loser went over the maximum")
        _check_bets(bets, before)
        _require(checker == _next_active(before, bets[-1][0]), "the check came out of turn")
        bettor, bet = bets[-1]
        _require(loser == (checker if exists(bet, mask) else bettor), "the wrong player lost")
    else:  # a forfeit: only rising bets before it
        _check_bets(history[:-1], before)
    return game


def round_record_from_dict(data: Any) -> RoundRecord:
    """Rebuild a :class:`RoundRecord` from its public dict, checking it against its seed."""
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
    # A round ends with its loser (89), after a check (88) or a forfeit (see Game.forfeit).
    _require(len(history) >= 1 and history[-1][1] == LOST_ROUND, "a finished round has a loser")
    loser = history[-1][0]
    _require(before[loser] > 0, "the loser was in the round")
    if len(history) >= 3 and history[-2][1] == CHECK:
        checker = history[-2][0]
        _check_bets(history[:-2], before)
        bettor, bet = history[-3]
        _require(checker == _next_active(before, bettor), "the check came out of turn")
        _require(loser == (checker if exists(bet, mask) else bettor), "the wrong player lost")
    else:  # a forfeit: only rising bets before it
        _check_bets(history[:-1], before)
    number, top = data.get("round_number"), data.get("max_cards")
    _require(_is_int(number) and number >= 1, "bad round number")
    _require(_is_int(top) and n >= MIN_PLAYERS and 1 <= top <= max_cards(n), "bad max_cards")
    return RoundRecord(
        number,
        tuple(nicknames),
        tuple(before),
        tuple(agents),
        hands,
        history,
        seed,
        loser,
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
