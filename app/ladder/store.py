"""The ladder's store protocol: accounts, the queue, tables, ratings and results.

An account is in one of three states, and every change of state is conditional on the state
it leaves, so that two racing requests (a leave and the matcher's claim, two claims, two
settlements) cannot both win:

- ``idle``: neither queued nor seated;
- ``queued`` (``pool``, ``ticket``): waiting in one pool's queue; the ticket is new at each
  join, so a claim made from an older read of the queue fails;
- ``seated`` (``table_id``): at a table the matcher formed, until its result is settled.

SQLite does each change in one transaction (app/ladder/sqlite/); DynamoDB does it in one
``TransactWriteItems`` with a condition on each account item (app/ladder/dynamo/,
docs/ladder-dynamodb.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol


class LadderConflict(Exception):
    """A conditional change lost: nothing was written."""


IDLE = "idle"
QUEUED = "queued"
SEATED = "seated"


@dataclass(frozen=True, slots=True)
class Account:
    account_id: str
    handle: str
    """As chosen (NFC); unique by its canonical form ``handle_key``."""
    handle_key: str
    secret_hash: str
    created_at: float
    state: str = IDLE
    pool: str | None = None
    ticket: str | None = None
    queued_at: float | None = None
    table_id: str | None = None
    # -- bots and computer levels (see "Bots, events and computer levels" below)
    bot: bool = False
    """A bot account (for good): marked ``bot: true`` wherever its handle is shown."""
    agent: str | None = None
    """A computer level's account: the built-in agent that plays its seats (None for every
    account made through the API). Never queued, never seated: its seats are tables'."""
    fill_at: float | None = None
    """While queued: when the account allows the matcher to fill its table with computer
    levels (None: never)."""
    look_key: str | None = None
    """What the handle looks like (app/ladder/handles.py): unique like ``handle_key``, so
    that no handle passes for another with look-alike letters (None: an account made
    before look keys, which no store then holds to it)."""


@dataclass(frozen=True, slots=True)
class Passkey:
    """A passkey (a WebAuthn public key credential) that opens an account."""

    credential_id: str
    """The credential's id, base64url without padding (as the browser sends it)."""
    account_id: str
    public_key: bytes
    """The credential's public key, COSE-encoded, as the authenticator gave it."""
    sign_count: int
    created_at: float
    last_used_at: float | None = None


@dataclass(frozen=True, slots=True)
class Challenge:
    """A WebAuthn challenge the service issued: single use, for one ceremony, until
    ``expires_at`` (the service's clock)."""

    challenge: str
    """The random challenge, base64url without padding: the key it is found by."""
    ceremony: str
    """``register`` (adding a passkey to ``account_id``) or ``login``."""
    account_id: str | None
    expires_at: float


DELETED_HANDLE = "(deleted)"
"""What a deleted account's results show instead of its handle (no handle can be this: the
nickname rules refuse brackets)."""


@dataclass(frozen=True, slots=True)
class Waiting:
    """An account in a pool's queue, with its rating there when it joined."""

    account_id: str
    handle: str
    ticket: str
    queued_at: float
    mu: float
    fill_at: float | None = None
    """When the account allows filling with computer levels (None: never)."""
    bot: bool = False
    seen_at: float | None = None
    """When the account last said it is still there (:meth:`QueueStore.renew`; None: at
    ``queued_at``, when it joined). The matcher drops a place not renewed in time."""

    @property
    def last_seen(self) -> float:
        return self.queued_at if self.seen_at is None else self.seen_at


@dataclass(frozen=True, slots=True)
class Seat:
    account_id: str
    handle: str
    player_uuid: str | None = None
    """The seat's secret in the game: told to its account only, never listed."""
    agent: str | None = None
    """A computer level's seat: the agent its AI player plays with (its place is found by
    it); such a seat has no player UUID. (A table stored before this field held the AI
    player's nickname here: only whether it is set counts.)"""
    awaited: bool = False
    """A person's seat not yet seen: its account has not been told its player UUID (by
    ``GET /ladder/queue`` or its events) since the table formed. A seat still awaited after
    the arrival grace calls the table off (app/ladder/queue.py). False for a computer
    level's seat, and for a table stored before arrivals were awaited."""


@dataclass(frozen=True, slots=True)
class Table:
    """A rated table: ``forming`` (claimed, the game being made), ``playing``, ``settled``."""

    table_id: str
    pool: str
    seats: tuple[Seat, ...]
    formed_at: float
    state: str = "forming"
    game_uuid: str | None = None


@dataclass(frozen=True, slots=True)
class Rating:
    account_id: str
    pool: str
    mu: float
    sigma: float
    games: int


@dataclass(frozen=True, slots=True)
class Change:
    """One account's rating change from one rated game."""

    account_id: str
    handle: str
    place: int
    before: Rating
    after: Rating


@dataclass(frozen=True, slots=True)
class Result:
    """A settled rated game: its places (1 the winner) and every rating change."""

    table_id: str
    game_uuid: str
    pool: str
    settled_at: float
    changes: tuple[Change, ...] = field(default_factory=tuple)


# ---------------------------------------------------------------------- the store, by section
# One protocol per section; each store (LadderSqlite in app/ladder/sqlite/, LadderDynamo in
# app/ladder/dynamo/, the in-memory fake of tests/support/ladder_memory.py) implements every
# section, held to the section's contract suite (tests/ladder/test_store_<section>.py).


class AccountStore(Protocol):
    """Accounts and keys: an account, its handle and its secrets (one per device), the
    allowances shared by every process, deletion."""

    def create_account(self, account: Account) -> None:
        """Store a new account; :class:`LadderConflict` if its handle key, or its look key,
        is taken."""

    def account_by_secret(self, secret_hash: str) -> Account | None: ...

    def account_by_handle(self, handle_key: str) -> Account | None: ...

    def account(self, account_id: str) -> Account | None: ...

    def add_secret(self, account_id: str, secret_hash: str, at: float) -> None:
        """One more secret (another device's) that opens the account; an account has the one
        made with it (``Account.secret_hash``, stored by :meth:`create_account`) and any number
        of these. :class:`LadderConflict` if the account does not exist (deleted) or the hash
        is taken. :meth:`account_by_secret` finds the account by any of its secrets."""

    def forget_secret(self, secret_hash: str) -> bool:
        """This secret opens its account no more (a device signs out), whether it was the one
        made with the account or a later one; False if it opened none."""

    def secret_count(self, account_id: str) -> int:
        """How many secrets open the account now."""

    def delete_account(self, account_id: str) -> None:
        """Delete an idle account, in one atomic change: the account (its handle free again),
        its secrets, passkeys, ratings (off every board) and its own history index; in the
        results it shared with others its handle becomes :data:`DELETED_HANDLE` (the places
        and rating changes stay). :class:`LadderConflict` if it is not idle (queued or
        seated) or does not exist: nothing is changed."""

    def take_allowance(
        self, key: str, window: int, limit: int, *, now: float, expires_at: float
    ) -> bool:
        """Count one more use of ``key`` in ``window`` (a number naming a span of time) and
        True, unless it has had ``limit`` uses there already: then False, nothing counted.
        Atomic: racing takers never count past ``limit``. The count may be forgotten after
        ``expires_at``; counts forgotten by ``now`` may go."""

    def close(self) -> None: ...


class PasskeyStore(Protocol):
    """Passkeys: the WebAuthn challenges the service issued, and the passkeys that open an
    account."""

    def put_challenge(self, challenge: Challenge) -> None:
        """Keep an issued challenge (its value is 64 random bytes: never reused)."""

    def take_challenge(self, challenge: str) -> Challenge | None:
        """The challenge, removed in the same step: a second take (a replay, or a racing
        request with the same challenge) gets None. Expiry is the caller's to check."""

    def purge_challenges(self, before: float) -> int:
        """Remove the challenges that expired before ``before``; how many."""

    def add_passkey(self, passkey: Passkey) -> None:
        """Store a new passkey; :class:`LadderConflict` if its credential id is stored
        already, or its account does not exist."""

    def passkey(self, credential_id: str) -> Passkey | None: ...

    def passkeys(self, account_id: str) -> list[Passkey]:
        """The account's passkeys, oldest first."""

    def use_passkey(
        self, credential_id: str, sign_count: int, new_sign_count: int, at: float
    ) -> None:
        """A sign-in with the passkey: its counter becomes ``new_sign_count`` and its last use
        ``at``, conditional on the counter still being ``sign_count`` (:class:`LadderConflict`
        if not, or if the passkey is gone): two racing sign-ins with one counter value cannot
        both pass."""


class QueueStore(Protocol):
    """The queue and placing: each pool's queue, the tables the matcher claims, seats and
    releases, and the lease on the matcher's next look."""

    def enqueue(self, account_id: str, pool: str, ticket: str, at: float, mu: float) -> None:
        """idle -> queued; :class:`LadderConflict` if the account is not idle."""

    def enqueue_filled(
        self, account_id: str, pool: str, ticket: str, at: float, mu: float, fill_at: float
    ) -> None:
        """:meth:`enqueue`, allowing computer levels to fill the table from ``fill_at``
        (``Account.fill_at``, ``Waiting.fill_at``). :class:`LadderConflict` if not idle."""

    def dequeue(self, account_id: str) -> bool:
        """queued -> idle; False if the account was not queued."""

    def waiting(self, pool: str) -> list[Waiting]:
        """The pool's queue, longest waiting first."""

    def renew(self, account_id: str, pool: str, ticket: str, at: float, every: float) -> bool:
        """The account queued in ``pool`` (with ``ticket``) is still there at ``at``: its place's
        ``seen_at`` becomes ``at``, unless it was renewed less than ``every`` seconds before
        (then nothing is written: a flood of renewals writes once per ``every``). False if
        nothing was written (renewed lately, or not queued with that ticket). Never moves
        the place in the queue."""

    def drop_absent(self, account_id: str, pool: str, ticket: str, seen_before: float) -> bool:
        """queued -> idle for a place in ``pool`` last seen before ``seen_before`` (an
        absent person), conditional on the ticket and on that still being so: a renewal or
        a claim that came first wins. True if dropped."""

    def claim(self, table: Table, tickets: dict[str, str]) -> None:
        """Every account of ``tickets`` queued with that ticket -> seated at ``table`` (stored
        ``forming``), all or nothing; :class:`LadderConflict` if any has left or moved."""

    def release(self, table: Table) -> None:
        """A table whose game could not be made: its accounts go back to the queue as they
        were (same ticket, same time; last seen when they joined: any renewal is
        forgotten), the table goes."""

    def seat(self, table: Table) -> None:
        """forming -> playing, with the game and the seats' player UUIDs."""

    def mark_seen(self, table_id: str, account_id: str) -> None:
        """The account's seat at the table is seen (its account was told its player UUID):
        no longer ``awaited``. No change if it was not, or the table or the seat is not
        there."""

    def table(self, table_id: str) -> Table | None: ...

    def table_of_game(self, game_uuid: str) -> Table | None:
        """The table whose game is ``game_uuid`` (None: not a rated game). How a clock that
        hears of a finished game (the AWS clock: from the games table's stream) finds what
        to settle."""

    def open_tables(self) -> list[Table]:
        """Tables not settled (forming or playing)."""

    def reserve_look(self, now: float, at: float) -> bool:
        """Claim the matcher's next look at ``at``, unless one is pending (due after
        ``now``): True if the caller should ask for it (the AWS clock's delayed message),
        False if a look is pending already. Atomic: of racing callers, one gets True."""


class RatingStore(Protocol):
    """Ratings and boards: a settlement, the results and each account's history, the
    ratings, the boards and ranks."""

    def settle(self, result: Result) -> None:
        """playing -> settled, the ratings written (each conditional on the games count it
        was computed from), the result and the history kept, the accounts idle again: one
        atomic change. :class:`LadderConflict` if the table was settled already (nothing
        written)."""

    def result(self, table_id: str) -> Result | None: ...

    def results(self, pool: str) -> list[Result]:
        """Every settled result of the pool, in the order they were settled."""

    def history(self, account_id: str, limit: int) -> list[Result]:
        """The account's recent settled games, newest first."""

    def rating(self, account_id: str, pool: str) -> Rating | None: ...

    def ratings(self, account_id: str) -> list[Rating]: ...

    def leaderboard(self, pool: str, limit: int) -> list[tuple[Account, Rating]]:
        """The pool's top ``limit`` by ordinal (mu - 3 sigma), best first (ties: handle)."""

    def leaderboard_page(self, pool: str, offset: int, limit: int) -> list[tuple[Account, Rating]]:
        """The pool's board from row ``offset`` (0 the best), ``limit`` rows, in the order of
        :meth:`leaderboard` (ordinal descending, then handle key): a stable order, so that
        consecutive pages neither repeat nor skip a row while the board does not change."""

    def rank(self, account_id: str, pool: str) -> int | None:
        """1 + how many rate strictly higher in the pool; None without a rating."""


class BotStore(Protocol):
    """Bots and events: an account turned bot for good, and how often two accounts sat
    together (the repeated-pairing rule). ``history`` (:class:`RatingStore`) holds every
    settled game an account sat at, rated for it or not: what the events read."""

    def make_bot(self, account_id: str) -> None:
        """An idle account that has never sat at a settled table -> a bot, for good (one
        conditional change). :class:`LadderConflict` if it is not idle or has played."""

    def games_together(self, first: str, second: str, since: float) -> int:
        """How many settled tables both accounts sat at, settled at ``since`` or later."""


class LadderStore(AccountStore, PasskeyStore, QueueStore, RatingStore, BotStore, Protocol):
    """Where the ladder lives (see the module docstring): every section."""
