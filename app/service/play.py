"""Playing: a move (a bet or a check) by the player whose turn it is."""

from __future__ import annotations

from app.service import parse
from app.service.base import UseCases, nickname_of
from app.service.errors import StaleVersion
from app.service.writes import Body, Outcome, Retry, ended_round, fingerprint, state_of
from app.store.base import GameDoc
from engine.game import Game


class Play(UseCases):
    def play(
        self,
        game_uuid: str,
        player_uuid: str | None,
        action_id: object,
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
    ) -> Body:
        """Make a move for the player holding ``player_uuid``.

        Returns that player's view of the state right after the move; after a check, the
        snapshot of the round it ended, every hand shown, whose ``last_modified`` is older
        than the state that follows it. AI players whose turn follows move later, each as
        its own change (app/service/due.py). A move that loses a race is applied again only
        if the game is still as the mover saw it (a reaction may have won the race).
        """

        def move(doc: GameDoc, game: Game) -> Outcome:
            # The established order of checks: the game's status, the player, the action.
            game.check_running()
            nickname = nickname_of(doc, parse.player_uuid(player_uuid))
            action = parse.action_id(action_id, game.rules.check)
            if expected_version is not None and expected_version != doc.version:
                raise StaleVersion
            record = game.apply(action, by=nickname)
            if record is not None:
                return Outcome(ended_round, [record])
            return Outcome(state_of(game, nickname))

        return self.writes.change(
            game_uuid,
            move,
            key=idempotency_key,
            fingerprint=fingerprint(
                "play", str(player_uuid), repr(action_id), str(expected_version)
            ),
            retry=Retry.IF_GAME_UNCHANGED,
        )
