"""A nickname hidden after reports appears nowhere any more (issue 28): not in any field of
the state (for every player and an observer), of any stored round's snapshot, of the record,
of the public list, nor of what watchers are pushed after the hiding; whatever the player
did before it (asked for the rematch, was named by the first-hands rule, reacted, said they
were ready, was the admin) and whenever the table hid it (in the lobby, in play, after the
end)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from hypothesis import given, note, settings
from hypothesis import strategies as st

from app.config.settings import Settings
from app.service import GameService
from app.service.responses import current_state, snapshot_body
from app.service.writes import Change
from app.watch.messages import public_game_body
from engine.dealing import seed_sequence
from tests.support.clock import FakeClock
from tests.support.memory_store import MemoryStore

VICTIM = "Zorblax"
"""The reported name: a word no other field of any view could hold by chance."""
OTHERS = ("Ann", "Bob", "Cid")


@dataclass(frozen=True)
class Scenario:
    others: tuple[str, ...]
    victim_is_admin: bool
    public: bool
    named_by_first_hands: bool
    reacted: bool
    ready: bool
    hidden_when: str  # "lobby", "play" or "end"
    rounds_before: int
    victim_asks_rematch: bool
    others_asking: tuple[str, ...]
    seed: int


@st.composite
def scenarios(draw: st.DrawFn) -> Scenario:
    others = OTHERS[: draw(st.integers(1, 3))]
    when = draw(st.sampled_from(["lobby", "play", "end"]))
    return Scenario(
        others=others,
        victim_is_admin=draw(st.booleans()),
        public=draw(st.booleans()),
        named_by_first_hands=draw(st.booleans()),
        reacted=draw(st.booleans()),
        ready=draw(st.booleans()),
        hidden_when=when,
        rounds_before=draw(st.integers(0, 3)),
        victim_asks_rematch=when == "end" and draw(st.booleans()),
        others_asking=tuple(o for o in others if when == "end" and draw(st.booleans())),
        seed=draw(st.integers(0, 2**16)),
    )


def strings(value: Any, path: str = "") -> list[tuple[str, str]]:
    """Every string in a JSON value, its keys included, with where it is."""
    if isinstance(value, str):
        return [(path, value)]
    if isinstance(value, dict):
        return [
            found
            for k, v in value.items()
            for found in [(f"{path}/{k} (a key)", k), *strings(v, f"{path}/{k}")]
        ]
    if isinstance(value, list | tuple):
        return [found for i, item in enumerate(value) for found in strings(item, f"{path}[{i}]")]
    return []


class Table:
    def __init__(self, scenario: Scenario) -> None:
        fake = FakeClock()
        self.service = GameService(
            MemoryStore(clock=fake),
            Settings(ai_think_seconds=1.0, run_clock=False),
            clock=fake,
            seed_source=seed_sequence(scenario.seed),
        )
        self.changes: list[Change] = []
        self.service.subscribe(self.changes.append)
        self.game = self.service.create_game()["game_uuid"]
        order = [VICTIM, *scenario.others]
        if not scenario.victim_is_admin:
            order = [*scenario.others, VICTIM]
        self.players = {name: self.service.join(self.game, name)["player_uuid"] for name in order}
        self.admin = self.players[order[0]]

    def state(self, player: str | None = None) -> dict[str, Any]:
        body: dict[str, Any] = self.service.state(self.game, player).body
        return body

    def play_round(self) -> bool:
        """The player to move bets, the next one checks; False once the game is over."""
        for _ in range(2):
            seen = self.state()
            if seen["status"] != "Running":
                return False
            mover = self.players_by_name()[seen["cp_nickname"]]
            self.service.play(self.game, mover, 88 if seen["history"] else 0)
        return self.state()["status"] == "Running"

    def players_by_name(self) -> dict[str, str]:
        """The secrets by the names the game shows now (a hidden player's is an alias)."""
        return {
            row["you"]: secret for secret in self.players.values() for row in [self.state(secret)]
        }


def act_before_the_hiding(table: Table, scenario: Scenario) -> None:
    service, game, victim = table.service, table.game, table.players[VICTIM]
    if scenario.public:
        service.set_public(game, table.admin, True)
    if scenario.named_by_first_hands:
        service.change_rules(game, table.admin, {"initial_cards": f"{VICTIM}:2"})
    if scenario.reacted:
        service.react(game, victim, "👍")
    if scenario.ready:
        service.set_readiness(game, victim, True)
    if scenario.hidden_when == "lobby":
        return
    service.start(game, table.admin)
    for _ in range(scenario.rounds_before):
        table.play_round()
    if scenario.hidden_when == "end":
        while table.play_round():
            pass
        askers = [VICTIM] if scenario.victim_asks_rematch else []
        for name in [*askers, *scenario.others_asking]:
            service.rematch(game, table.players[name])


def everything_shown(table: Table, pushed: list[Change]) -> list[Any]:
    service, game = table.service, table.game
    shown: list[Any] = [table.state(p) for p in [None, *table.players.values()]]
    current = table.state()
    finished = current["status"] == "Finished"
    last = current["round_number"] if finished else current["round_number"] - 1
    shown += [service.state(game, None, str(n)).body for n in range(1, last + 1)]
    if finished:
        shown.append(service.record(game))
    shown.append(service.list_public())
    for change in pushed:
        doc = change.doc
        shown += [current_state(doc, viewer) for viewer in [None, *doc.nicknames]]
        shown += [snapshot_body(doc, snapshot) for snapshot in change.snapshots]
        shown.append(public_game_body(doc))
    return shown


@settings(max_examples=40, deadline=None)
@given(scenarios())
def test_a_hidden_nickname_appears_in_no_field_of_any_view_list_snapshot_or_push(
    scenario: Scenario,
) -> None:
    note(repr(scenario))
    table = Table(scenario)
    act_before_the_hiding(table, scenario)
    before = len(table.changes)
    for name in scenario.others:
        table.service.report(table.game, table.players[name], VICTIM)
    assert table.state(table.players[VICTIM])["you"] != VICTIM  # hidden
    if scenario.hidden_when == "play":  # the game goes on after the hiding
        table.play_round()
    if scenario.hidden_when != "lobby":
        table.service.react(table.game, table.players[VICTIM], "😂")
    hidden_from = next(  # the change that hid the name, and every later one
        i for i, c in enumerate(table.changes) if i >= before and c.doc.social.get("hidden")
    )
    seen = everything_shown(table, table.changes[hidden_from:])
    leaks = [where for where, s in strings(seen) if VICTIM.casefold() in s.casefold()]
    assert leaks == []
