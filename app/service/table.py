"""The table's requests around the game: leave, remove, resign, readiness and auto start,
the maximum of cards, reactions and nickname reports.

Each is retried on a lost race (re-applying it to the fresher state is what was asked).
What the table says (reactions, reports, hidden names) lives in ``GameDoc.social``
(app/service/social.py).
"""

from __future__ import annotations

from app.service import parse, seats, social
from app.service.base import UseCases, nickname_of, require_admin
from app.service.errors import CannotReportAI, CannotReportSelf
from app.service.seats import seat_key
from app.service.writes import Body, Decide, Outcome, Retry, fingerprint, message, unchanged
from app.store.base import GameDoc
from engine import errors as rules
from engine.game import Game, Status


class Table(UseCases):
    def _request(self, game_uuid: str, decide: Decide, key: str | None, *request: str) -> Body:
        """A table request through the write path, retried on a lost race."""
        return self.writes.change(
            game_uuid, decide, key=key, fingerprint=fingerprint(*request), retry=Retry.ALWAYS
        )

    def leave(
        self, game_uuid: str, player_uuid: str | None, idempotency_key: str | None = None
    ) -> Body:
        """A player leaves the lobby: their seat, nickname and UUID are freed; an admin who
        leaves hands over to the human who joined next; the last human out empties the
        game (its AI players go too; it is private and expires)."""
        player = parse.player_uuid(player_uuid)

        def leave(doc: GameDoc, game: Game) -> Outcome:
            text = "You left the game" + _leave(doc, game, nickname_of(doc, player))
            return _after_lobby_change(doc, game, text)

        return self._request(game_uuid, leave, idempotency_key, "leave", player)

    def remove_player(
        self,
        game_uuid: str,
        admin_uuid: str | None,
        nickname: object,
        idempotency_key: str | None = None,
    ) -> Body:
        """The admin removes another player (human or AI) from the lobby; a removed human's
        UUID stops working. The nickname is matched ignoring case, as joining compares."""
        admin = parse.admin_uuid(admin_uuid)
        target = parse.player_name(nickname)

        def remove(doc: GameDoc, game: Game) -> Outcome:
            require_admin(doc, game, admin)
            removed = game.player_named(target)
            game.remove(removed)
            _drop_player(doc, removed)
            return _after_lobby_change(doc, game, f"{removed} was removed from the game")

        return self._request(game_uuid, remove, idempotency_key, "remove", admin, target)

    def resign(
        self, game_uuid: str, player_uuid: str | None, idempotency_key: str | None = None
    ) -> Body:
        """A player leaves a running game: out at once, as a forfeit; the round ends there
        (its snapshot is kept) and the game goes on, or ends if one player is left."""
        player = parse.player_uuid(player_uuid)

        def resign(doc: GameDoc, game: Game) -> Outcome:
            record = game.resign(nickname_of(doc, player))
            text = "You resigned - you are out of the game"
            if game.status is Status.FINISHED:
                text += f"; {game.winner} won"
            return Outcome(message(text), [record])

        return self._request(game_uuid, resign, idempotency_key, "resign", player)

    def set_ready(
        self,
        game_uuid: str,
        player_uuid: str | None,
        ready: object,
        idempotency_key: str | None = None,
    ) -> Body:
        """A human says they are ready (or not); the game starts here if the admin chose
        auto start and this makes every human ready with two or more seated."""
        player = parse.player_uuid(player_uuid)
        word = "ready" if parse.flag("ready", ready) else "not ready"

        def mark(doc: GameDoc, game: Game) -> Outcome:
            if not game.set_ready(nickname_of(doc, player), word == "ready"):
                return unchanged(f"Request redundant - already {word}")
            return _after_lobby_change(doc, game, word.capitalize())

        return self._request(game_uuid, mark, idempotency_key, "ready", player, word)

    def set_readiness(self, game_uuid: str, player_uuid: str | None, ready: object) -> Body:
        """The newer established service's readiness (``ready=True|False``): once every
        human is ready, with two or more sides seated, the game starts, whatever the admin
        chose for auto start."""
        player = parse.player_uuid(player_uuid)
        word = "ready" if parse.truth("ready", ready) else "not ready"

        def mark(doc: GameDoc, game: Game) -> Outcome:
            if not game.set_ready(nickname_of(doc, player), word == "ready", start=True):
                return unchanged(f"Request redundant - already {word}")
            return _after_lobby_change(doc, game, word.capitalize())

        return self._request(game_uuid, mark, None, "readiness", player, word)

    def remove_by(self, game_uuid: str, player_uuid: str | None, nickname: object) -> Body:
        """The newer established service's removal before the start: the admin removes
        anyone, any player themselves (as leaving); anyone else is refused (403)."""
        player = parse.player_uuid(player_uuid)
        target = parse.player_name(nickname)

        def remove(doc: GameDoc, game: Game) -> Outcome:
            requester = nickname_of(doc, player)
            removed = game.player_named(target)
            if removed == requester:
                _leave(doc, game, removed)
            elif requester == game.admin:
                game.remove(removed, by=requester)
                _drop_player(doc, removed)
            else:
                raise rules.NoPermission
            return _after_lobby_change(doc, game, f"{removed} removed successfully")

        return self._request(game_uuid, remove, None, "remove-by", player, target)

    def set_team(
        self,
        game_uuid: str,
        player_uuid: str | None,
        team: object,
        nickname: object = None,
        idempotency_key: str | None = None,
    ) -> Body:
        """Move a player to a team (1 to 8) or to their own (none) before the start: the admin
        moves anyone, a player only themselves (``nickname`` absent: themselves). A change
        makes every human unready."""
        player = parse.player_uuid(player_uuid)
        side = parse.team(team)
        target = None if nickname is None or nickname == "" else parse.player_name(nickname)

        def move(doc: GameDoc, game: Game) -> Outcome:
            requester = nickname_of(doc, player)
            moved = requester if target is None else game.player_named(target)
            if not game.set_team(moved, side, by=requester):
                return unchanged(f"Request redundant - {moved} is already there")
            where = "on their own" if side is None else f"in team {side}"
            return _after_lobby_change(doc, game, f"{moved} is {where}")

        request = ("team", player, str(side), str(target))
        return self._request(game_uuid, move, idempotency_key, *request)

    def set_auto_start(
        self,
        game_uuid: str,
        admin_uuid: str | None,
        auto_start: object,
        idempotency_key: str | None = None,
    ) -> Body:
        """The admin chooses whether the game starts by itself once every human is ready
        (turning it on starts the game at once if they already are)."""
        admin = parse.admin_uuid(admin_uuid)
        word = "on" if parse.flag("auto_start", auto_start) else "off"

        def switch(doc: GameDoc, game: Game) -> Outcome:
            require_admin(doc, game, admin)
            if not game.set_auto_start(word == "on"):
                return unchanged(f"Request redundant - auto start already {word}")
            return _after_lobby_change(doc, game, f"Auto start {word}")

        return self._request(game_uuid, switch, idempotency_key, "auto-start", admin, word)

    def set_max_cards(
        self,
        game_uuid: str,
        admin_uuid: str | None,
        max_cards: object,
        idempotency_key: str | None = None,
    ) -> Body:
        """The admin chooses the maximum of cards (1 to the rule's maximum for the players
        seated); the start caps it again by the rule's maximum for the players then."""
        admin = parse.admin_uuid(admin_uuid)
        limit = parse.whole_number("max_cards", max_cards)

        def choose(doc: GameDoc, game: Game) -> Outcome:
            require_admin(doc, game, admin)
            if not game.set_max_cards(limit):
                return unchanged(f"Request redundant - maximum already {limit}")
            return Outcome(message(f"Maximum of cards set to {limit}"))

        return self._request(game_uuid, choose, idempotency_key, "max-cards", admin, str(limit))

    def react(
        self,
        game_uuid: str,
        player_uuid: str | None,
        reaction: object,
        idempotency_key: str | None = None,
    ) -> Body:
        """A player sends one of the fixed reactions; every watcher gets it with the state
        (the last few are shown). Limited per player (``reaction_burst`` per
        ``reaction_window_seconds``), counted in the game itself."""
        player = parse.player_uuid(player_uuid)
        sent = social.reaction(reaction)
        settings = self.settings

        def react(doc: GameDoc, game: Game) -> Outcome:
            social.add_reaction(
                doc.social,
                nickname_of(doc, player),
                sent,
                self.now,
                burst=settings.reaction_burst,
                window=settings.reaction_window_seconds,
            )
            return Outcome(message("Reaction sent"))

        return self._request(game_uuid, react, idempotency_key, "react", player, sent)

    def report(
        self,
        game_uuid: str,
        player_uuid: str | None,
        nickname: object,
        idempotency_key: str | None = None,
    ) -> Body:
        """A player reports another human's nickname (matched ignoring case) as offensive.
        The report is kept for the operator (the store's report list) against the player's
        name, or, for a player already hidden, the name they were hidden for; once every
        other human at the table has reported a player, they are shown as ``Player_<seat>``
        from then on."""
        gid = parse.game_uuid(game_uuid)
        player = parse.player_uuid(player_uuid)
        target = parse.player_name(nickname)

        def report(doc: GameDoc, game: Game) -> Outcome:
            reporter = nickname_of(doc, player)
            named = game.player_named(target)
            if named == reporter:
                raise CannotReportSelf
            if game.ai_agents[game.seat_of(named)] is not None:
                raise CannotReportAI
            hidden = social.hidden_seats(doc.social, doc.player_uuids)
            original = hidden.get(seat_key(doc.player_uuids[named]))
            if original is not None:  # hidden already: filed under the name they had
                return self._filed(gid, reporter, original, unchanged(_HIDDEN))
            if not social.record_report(doc.social, reporter, named):
                return self._filed(gid, reporter, named, unchanged(_ALREADY))
            text = "Reported"
            for old, new in _hide_reported(doc, game):
                text += f" - {old} is shown as {new} from now on"
            return self._filed(gid, reporter, named, Outcome(message(text)))

        return self._request(gid, report, idempotency_key, "report", player, target)


_HIDDEN = "Request redundant - that nickname is hidden"
_ALREADY = "Request redundant - already reported"


def _after_lobby_change(doc: GameDoc, game: Game, text: str) -> Outcome:
    """A lobby change's reply, saying so if it started the game (auto start); hides a
    nickname whose last non-reporter just left."""
    _hide_reported(doc, game)
    if game.status is Status.RUNNING:
        text += " - Game started"
    return Outcome(message(text))


def _leave(doc: GameDoc, game: Game, nickname: str) -> str:
    """``nickname`` leaves the lobby (an admin hands over to the human who joined next; the
    last human out empties the game); what to add to the reply about the new admin."""
    was_admin = game.admin == nickname
    game.leave(nickname)
    _drop_player(doc, nickname)
    if not game.n_players:
        doc.player_uuids.clear()
        kept = {"hidden": doc.social.get("hidden", {})}
        if seats.MOVED in doc.social:  # a retired UUID is still told its seat moved
            kept[seats.MOVED] = doc.social[seats.MOVED]
        doc.social = kept
    if was_admin and game.admin is not None:
        return f" - {game.admin} is the admin now"
    return ""


def _drop_player(doc: GameDoc, nickname: str) -> None:
    """Forget a player who left the lobby: their UUID (and any rematch seat bound to it),
    what the table noted. The idempotent replies stay as given: a replayed join answers the
    secret it first answered, which names nobody now, never anyone else's."""
    secret = doc.player_uuids.pop(nickname, None)
    if secret is not None:
        seats.free(doc.social, seat_key(secret))
    social.forget(doc.social, nickname)


def _hide_reported(doc: GameDoc, game: Game) -> list[tuple[str, str]]:
    """Rename every player whom every other human at the table has reported."""
    done = []
    for nickname in social.to_hide(doc.social, game, doc.player_uuids):
        new = social.alias(doc.social, game, nickname)
        game.rename(nickname, new)
        doc.player_uuids[new] = doc.player_uuids.pop(nickname)
        social.hide(doc.social, doc.player_uuids, nickname, new)
        done.append((nickname, new))
    return done
