"""Passkeys, devices and deletion as a person uses them and as an attacker tries them (the use
cases on each ladder store, with a software authenticator's real WebAuthn answers and the
fake clock)."""

from __future__ import annotations

import copy
import itertools
import json
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric import ec
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.ladder.errors import (
    AccountBusy,
    BadSignature,
    ChallengeExpired,
    ChallengeUnknown,
    CounterWentBack,
    InvalidHandle,
    LastWayIn,
    MalformedPasskeyResponse,
    PasskeyExists,
    PasskeyRefused,
    PasskeysUnavailable,
    UnknownAccount,
    UnknownHandle,
    UnknownPasskey,
    WrongOrigin,
)
from app.ladder.passkeys import CHALLENGE_SECONDS, Passkeys
from app.ladder.service import Ladder, secret_hash
from app.ladder.store import DELETED_HANDLE
from tests.ladder.test_ladder import seated
from tests.support.authenticator import UP, SoftAuthenticator, b64url, unb64url
from tests.support.clock import FakeClock

ORIGIN = "https://blef.test"
RP_ID = "blef.test"
TWO = "standard-2"


@pytest.fixture
def passkeys(ladder: Ladder) -> Passkeys:
    return Passkeys(ladder, ORIGIN)


def with_passkey(
    passkeys: Passkeys, handle: str, *, counting: bool = True
) -> tuple[dict[str, Any], SoftAuthenticator]:
    """A new account with a passkey added: what it was told, and its authenticator."""
    made = passkeys.ladder.create_account(handle)
    device = SoftAuthenticator(ORIGIN, RP_ID, counting=counting)
    passkeys.register(made["secret"], device.create(passkeys.register_options(made["secret"])))
    return made, device


# ------------------------------------------------------------------ as a person uses them


def test_a_person_adds_a_passkey_and_a_new_device_signs_in_with_a_secret_of_its_own(
    passkeys: Passkeys,
) -> None:
    made = passkeys.ladder.create_account("Ania")
    options = passkeys.register_options(made["secret"])
    assert options["rp"] == {"name": "Blef", "id": RP_ID}
    assert unb64url(options["user"]["id"]) == made["account_id"].encode()
    assert options["user"]["name"] == "Ania"
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert options["authenticatorSelection"]["userVerification"] == "preferred"
    assert options["attestation"] == "none"
    assert len(unb64url(options["challenge"])) == 64
    phone = SoftAuthenticator(ORIGIN, RP_ID)
    added = passkeys.register(made["secret"], phone.create(options))
    assert added == {"credential_id": b64url(phone.credential_id), "passkeys": 1}
    listed = passkeys.listed(made["secret"])["passkeys"]
    assert [p["credential_id"] for p in listed] == [added["credential_id"]]
    assert listed[0]["last_used_at"] is None

    login = passkeys.login_options()
    assert login["rpId"] == RP_ID and login["allowCredentials"] == []
    assert login["userVerification"] == "preferred"
    signed_in = passkeys.login(phone.get(login))
    assert signed_in["account_id"] == made["account_id"] and signed_in["handle"] == "Ania"
    assert signed_in["secret"] != made["secret"] and len(signed_in["secret"]) >= 40
    for secret in (made["secret"], signed_in["secret"]):
        assert passkeys.ladder.me(secret)["account_id"] == made["account_id"]
    stored = passkeys.store.passkey(added["credential_id"])
    assert stored.sign_count == 1 and stored.last_used_at == passkeys.ladder.now
    assert signed_in["secret"] not in repr(passkeys.store.account(made["account_id"]))
    assert passkeys.store.account_by_secret(secret_hash(signed_in["secret"])) is not None


def test_a_second_passkey_is_offered_the_first_to_exclude_and_the_same_one_is_refused(
    passkeys: Passkeys,
) -> None:
    made, phone = with_passkey(passkeys, "Ania")
    options = passkeys.register_options(made["secret"])
    assert [c["id"] for c in options["excludeCredentials"]] == [b64url(phone.credential_id)]
    with pytest.raises(PasskeyExists):
        passkeys.register(made["secret"], phone.create(options))
    laptop = SoftAuthenticator(ORIGIN, RP_ID)
    added = passkeys.register(
        made["secret"], laptop.create(passkeys.register_options(made["secret"]))
    )
    assert added["passkeys"] == 2


def test_a_synced_passkey_whose_counter_stays_zero_signs_in_again_and_again(
    passkeys: Passkeys,
) -> None:
    made, synced = with_passkey(passkeys, "Ania", counting=False)
    for _ in range(3):
        assert passkeys.login(synced.get(passkeys.login_options()))["handle"] == "Ania"
    assert passkeys.store.secret_count(made["account_id"]) == 4


def test_a_device_signs_out_and_its_secret_opens_the_account_no_more(
    passkeys: Passkeys,
) -> None:
    made, phone = with_passkey(passkeys, "Ania")
    other = passkeys.login(phone.get(passkeys.login_options()))["secret"]
    passkeys.sign_out(other)
    with pytest.raises(UnknownAccount):
        passkeys.ladder.me(other)
    assert passkeys.ladder.me(made["secret"])["handle"] == "Ania"
    passkeys.sign_out(made["secret"])  # the passkey still opens the account
    again = passkeys.login(phone.get(passkeys.login_options()))
    assert again["account_id"] == made["account_id"]


def test_the_only_key_of_an_account_without_a_passkey_is_not_signed_out(
    passkeys: Passkeys,
) -> None:
    made = passkeys.ladder.create_account("Ania")
    with pytest.raises(LastWayIn):
        passkeys.sign_out(made["secret"])
    assert passkeys.ladder.me(made["secret"])["handle"] == "Ania"


def test_passkeys_are_refused_plainly_without_a_public_origin(ladder: Ladder) -> None:
    unset = Passkeys(ladder, None)
    made = ladder.create_account("Ania")
    with pytest.raises(PasskeysUnavailable):
        unset.login_options()
    with pytest.raises(PasskeysUnavailable):
        unset.register_options(made["secret"])


# ------------------------------------------------------------------ challenges


def test_a_replayed_sign_in_is_refused_and_gives_no_second_secret(passkeys: Passkeys) -> None:
    made, phone = with_passkey(passkeys, "Ania", counting=False)
    answer = phone.get(passkeys.login_options())
    passkeys.login(answer)
    with pytest.raises(ChallengeUnknown):
        passkeys.login(copy.deepcopy(answer))
    assert passkeys.store.secret_count(made["account_id"]) == 2


def test_a_replayed_registration_is_refused(passkeys: Passkeys) -> None:
    made = passkeys.ladder.create_account("Ania")
    phone = SoftAuthenticator(ORIGIN, RP_ID)
    answer = phone.create(passkeys.register_options(made["secret"]))
    passkeys.register(made["secret"], answer)
    with pytest.raises(ChallengeUnknown):
        passkeys.register(made["secret"], answer)


@pytest.mark.parametrize("ceremony", ["login", "register"])
def test_an_answer_after_the_challenge_expired_is_refused(
    passkeys: Passkeys, fake: FakeClock, ceremony: str
) -> None:
    made, phone = with_passkey(passkeys, "Ania")
    if ceremony == "login":
        answer = phone.get(passkeys.login_options())
        fake.advance(CHALLENGE_SECONDS + 1)
        with pytest.raises(ChallengeExpired):
            passkeys.login(answer)
    else:
        answer = SoftAuthenticator(ORIGIN, RP_ID).create(passkeys.register_options(made["secret"]))
        fake.advance(CHALLENGE_SECONDS + 1)
        with pytest.raises(ChallengeExpired):
            passkeys.register(made["secret"], answer)
    assert len(passkeys.store.passkeys(made["account_id"])) == 1
    assert passkeys.store.secret_count(made["account_id"]) == 1


def test_an_answer_just_within_the_challenges_time_is_taken(
    passkeys: Passkeys, fake: FakeClock
) -> None:
    _, phone = with_passkey(passkeys, "Ania")
    answer = phone.get(passkeys.login_options())
    fake.advance(CHALLENGE_SECONDS)
    assert passkeys.login(answer)["handle"] == "Ania"


def test_expired_challenges_are_cleared_away_when_new_ones_are_issued(
    passkeys: Passkeys, fake: FakeClock
) -> None:
    old = passkeys.login_options()["challenge"]
    fake.advance(CHALLENGE_SECONDS + 1)
    passkeys.login_options()
    assert passkeys.store.take_challenge(old) is None


def test_a_challenge_is_bound_to_its_ceremony_and_its_account(passkeys: Passkeys) -> None:
    ania, phone = with_passkey(passkeys, "Ania", counting=False)
    bolek = passkeys.ladder.create_account("Bolek")
    # A registration's challenge does not sign anyone in ...
    register = passkeys.register_options(ania["secret"])
    with pytest.raises(ChallengeUnknown):
        passkeys.login(phone.get(register))
    # ... a sign-in's challenge adds no passkey ...
    with pytest.raises(ChallengeUnknown):
        passkeys.register(
            ania["secret"],
            SoftAuthenticator(ORIGIN, RP_ID).create(
                {
                    **passkeys.register_options(ania["secret"]),
                    "challenge": passkeys.login_options()["challenge"],
                }
            ),
        )
    # ... and Ania's registration challenge adds nothing to Bolek's account.
    stolen = SoftAuthenticator(ORIGIN, RP_ID).create(passkeys.register_options(ania["secret"]))
    with pytest.raises(ChallengeUnknown):
        passkeys.register(bolek["secret"], stolen)
    assert passkeys.store.passkeys(bolek["account_id"]) == []


def test_a_challenge_the_service_never_issued_is_refused(passkeys: Passkeys) -> None:
    _, phone = with_passkey(passkeys, "Ania")
    with pytest.raises(ChallengeUnknown):
        passkeys.login(phone.get({"challenge": b64url(b"\x00" * 64)}))


# ------------------------------------------------------------------ forged answers


def test_an_answer_made_for_another_origin_or_rp_id_is_refused(passkeys: Passkeys) -> None:
    made, phone = with_passkey(passkeys, "Ania")
    for bent in (
        {"origin": "https://blef.test.evil.example"},
        {"origin": "http://blef.test"},
        {"rp_id": "evil.example"},
    ):
        with pytest.raises(WrongOrigin):
            passkeys.login(phone.get(passkeys.login_options(), **bent))  # type: ignore[arg-type]
        with pytest.raises(WrongOrigin):
            passkeys.register(
                made["secret"],
                SoftAuthenticator(ORIGIN, RP_ID).create(
                    passkeys.register_options(made["secret"]), **bent
                ),  # type: ignore[arg-type]
            )
    assert passkeys.store.secret_count(made["account_id"]) == 1
    assert len(passkeys.store.passkeys(made["account_id"])) == 1


def test_a_passkey_nobody_added_opens_nothing(passkeys: Passkeys) -> None:
    with_passkey(passkeys, "Ania")
    stranger = SoftAuthenticator(ORIGIN, RP_ID)
    with pytest.raises(UnknownPasskey):
        passkeys.login(stranger.get(passkeys.login_options()))


def test_an_answer_naming_another_accounts_passkey_is_refused(passkeys: Passkeys) -> None:
    ania, ania_key = with_passkey(passkeys, "Ania", counting=False)
    bolek, bolek_key = with_passkey(passkeys, "Bolek", counting=False)
    # Bolek's credential and user, signed with Ania's key: the signature does not verify.
    with pytest.raises(BadSignature):
        passkeys.login(
            ania_key.get(
                passkeys.login_options(),
                credential_id=bolek_key.credential_id,
                user_handle=bolek["account_id"].encode(),
            )
        )
    # Ania's passkey claiming to be Bolek's user: refused before any check of the key.
    with pytest.raises(UnknownPasskey):
        passkeys.login(
            ania_key.get(passkeys.login_options(), user_handle=bolek["account_id"].encode())
        )
    # A signature by a key nobody registered, over Ania's credential id.
    with pytest.raises(BadSignature):
        passkeys.login(
            ania_key.get(passkeys.login_options(), signer=ec.generate_private_key(ec.SECP256R1()))
        )
    assert passkeys.store.secret_count(ania["account_id"]) == 1
    assert passkeys.store.secret_count(bolek["account_id"]) == 1


def test_a_counter_that_does_not_move_forward_is_refused(passkeys: Passkeys) -> None:
    made, key = with_passkey(passkeys, "Ania")
    passkeys.login(key.get(passkeys.login_options(), sign_count=5))
    for count in (5, 4, 0):
        with pytest.raises(CounterWentBack):
            passkeys.login(key.get(passkeys.login_options(), sign_count=count))
    # An answer someone else signed learns nothing of the counter: it is refused as unsigned.
    forger = ec.generate_private_key(ec.SECP256R1())
    with pytest.raises(BadSignature):
        passkeys.login(key.get(passkeys.login_options(), sign_count=1, signer=forger))
    assert passkeys.login(key.get(passkeys.login_options(), sign_count=6))["handle"] == "Ania"
    assert passkeys.store.passkey(b64url(key.credential_id)).sign_count == 6
    assert passkeys.store.secret_count(made["account_id"]) == 3


def test_an_answer_without_the_users_presence_is_refused(passkeys: Passkeys) -> None:
    made, key = with_passkey(passkeys, "Ania")
    with pytest.raises(BadSignature):
        passkeys.login(key.get(passkeys.login_options(), flags=0))
    with pytest.raises(BadSignature):
        passkeys.register(
            made["secret"],
            SoftAuthenticator(ORIGIN, RP_ID).create(
                passkeys.register_options(made["secret"]), flags=0x40
            ),
        )
    assert passkeys.login(key.get(passkeys.login_options(), flags=UP))["handle"] == "Ania"


MALFORMED: list[object] = [
    None,
    [],
    "a string",
    42,
    {},
    {"id": "x"},
    {"id": "AA", "rawId": "AA", "type": "public-key", "response": {}},
    {
        "id": "AA",
        "rawId": "AA",
        "type": "public-key",
        "response": {"clientDataJSON": "%%%", "authenticatorData": "AA", "signature": "AA"},
    },
    {
        "id": "AA",
        "rawId": "AA",
        "type": "public-key",
        "response": {
            "clientDataJSON": b64url(b"not json"),
            "authenticatorData": "AA",
            "signature": "AA",
        },
    },
    {
        "id": "AA",
        "rawId": "AA",
        "type": "public-key",
        "response": {
            "clientDataJSON": b64url(b'{"type":1,"challenge":7,"origin":[]}'),
            "authenticatorData": "AA",
            "signature": "AA",
        },
    },
    {
        "id": "AA",
        "rawId": "AA",
        "type": "password",
        "response": {"clientDataJSON": "AA", "authenticatorData": "AA", "signature": "AA"},
    },
]


@pytest.mark.parametrize("body", MALFORMED)
def test_a_malformed_answer_is_refused_as_malformed(passkeys: Passkeys, body: object) -> None:
    made = passkeys.ladder.create_account("Ania")
    with pytest.raises(MalformedPasskeyResponse):
        passkeys.login(body)
    with pytest.raises(MalformedPasskeyResponse):
        passkeys.register(made["secret"], body)


def test_a_sign_in_answer_with_a_truncated_authenticator_data_is_malformed(
    passkeys: Passkeys,
) -> None:
    _, key = with_passkey(passkeys, "Ania")
    answer = key.get(passkeys.login_options())
    answer["response"]["authenticatorData"] = answer["response"]["authenticatorData"][:20]
    with pytest.raises(MalformedPasskeyResponse):
        passkeys.login(answer)


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=20),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)
EXAMPLES = itertools.count()
FIELDS = ["id", "rawId", "type", "clientDataJSON", "authenticatorData", "signature", "userHandle"]


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(body=JSON)
def test_any_json_at_all_is_refused_as_a_passkey_refusal_never_another_error(
    passkeys: Passkeys, body: object
) -> None:
    with pytest.raises(PasskeyRefused):
        passkeys.login(body)


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    field=st.sampled_from(FIELDS),
    value=JSON,
    flip=st.booleans(),
    at=st.integers(0, 10_000),
    bit=st.integers(0, 7),
)
def test_a_real_answer_with_any_one_part_changed_is_refused(
    passkeys: Passkeys, field: str, value: object, flip: bool, at: int, bit: int
) -> None:
    """A signed answer, one field replaced by anything (or one bit of it flipped): never a
    sign-in, always a passkey refusal."""
    _, key = with_passkey(passkeys, f"Ania{next(EXAMPLES)}", counting=False)
    answer = key.get(passkeys.login_options())
    where = answer if field in ("id", "rawId", "type") else answer["response"]
    if flip and isinstance(where.get(field), str) and where[field]:
        raw = bytearray(unb64url(where[field]))
        raw[at % len(raw)] ^= 1 << bit
        value = b64url(bytes(raw))
    if value == where.get(field):
        return
    where[field] = value
    with pytest.raises(PasskeyRefused):
        passkeys.login(answer)


# ------------------------------------------------------------------ deletion


def test_a_deleted_account_is_gone_every_way_in_and_its_handle_is_free(
    passkeys: Passkeys, fake: FakeClock
) -> None:
    ladder = passkeys.ladder
    made, phone = with_passkey(passkeys, "Ania", counting=False)
    bolek = ladder.create_account("Bolek")
    other_device = passkeys.login(phone.get(passkeys.login_options()))["secret"]
    game, players = seated(ladder, {"Ania": made["secret"], "Bolek": bolek["secret"]}, TWO)
    ladder.games.resign(game, players["Bolek"])
    ladder.tick()
    assert [p["handle"] for p in ladder.leaderboard(TWO, None, None)["players"]] == [
        "Ania",
        "Bolek",
    ]

    ladder.delete_account(made["secret"])

    for secret in (made["secret"], other_device):
        with pytest.raises(UnknownAccount):
            ladder.me(secret)
    with pytest.raises(UnknownPasskey):
        passkeys.login(phone.get(passkeys.login_options()))
    with pytest.raises(UnknownHandle):
        ladder.profile("Ania")
    board = ladder.leaderboard(TWO, None, bolek["secret"])
    assert [p["handle"] for p in board["players"]] == ["Bolek"] and board["you"]["rank"] == 1
    (kept,) = ladder.profile("Bolek")["games"]
    assert kept["game_uuid"] == game and kept["players"] == [DELETED_HANDLE, "Bolek"]
    assert kept["place"] == 2
    assert "Ania" not in json.dumps(ladder.profile("Bolek"))
    again = ladder.create_account("ania")
    assert again["account_id"] != made["account_id"] and ladder.profile("ania")["games"] == []


def test_an_account_is_not_deleted_while_queued_or_seated(
    passkeys: Passkeys, fake: FakeClock
) -> None:
    ladder = passkeys.ladder
    secrets = {h: ladder.create_account(h)["secret"] for h in ("Ania", "Bolek")}
    ladder.join_queue(secrets["Ania"], TWO)
    with pytest.raises(AccountBusy, match="leave the queue"):
        ladder.delete_account(secrets["Ania"])
    ladder.leave_queue(secrets["Ania"])
    game, players = seated(ladder, secrets, TWO)
    with pytest.raises(AccountBusy, match="finish it"):
        ladder.delete_account(secrets["Ania"])
    assert ladder.me(secrets["Ania"])["handle"] == "Ania"
    ladder.games.resign(game, players["Ania"])  # over, not yet settled: deleting settles it
    ladder.delete_account(secrets["Ania"])
    assert [g["players"] for g in ladder.profile("Bolek")["games"]] == [["Bolek", DELETED_HANDLE]]


def test_deleting_twice_finds_no_account_the_second_time(passkeys: Passkeys) -> None:
    made = passkeys.ladder.create_account("Ania")
    passkeys.ladder.delete_account(made["secret"])
    with pytest.raises(UnknownAccount):
        passkeys.ladder.delete_account(made["secret"])


def test_the_deleted_placeholder_can_never_be_a_handle(ladder: Ladder) -> None:
    with pytest.raises(InvalidHandle):
        ladder.create_account(DELETED_HANDLE)
