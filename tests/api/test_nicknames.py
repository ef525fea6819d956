"""Nicknames through the HTTP API, as a client meets them: the rule of engine/names.py (400
``invalid_nickname`` in the established wording, with the reason), one name however it is
composed (NFC), profanity refused with 422 ``{"reason": "profanity", "error": ...}`` also
when disguised, clean names holding a rude substring accepted, and hostile input answered
with a clear 4xx, never a 5xx."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.service import profanity
from engine import names
from tests.api.test_newer_service import finish
from tests.support.api import Blef

CLEAN = [
    "Scunthorpe",
    "Essex",
    "Sussex",
    "Middlesex",
    "Cassandra",
    "Dick_Grayson",
    "Dickens",
    "Assassin",
    "Bassist",
    "Therapist",
    "Shitake",
    "Cocktail",
    "Hitchcock",
    "Peacock",
    "Penistone",
    "Arsenal",
    "Grape",
    "Classic",
    "Passion",
    "Glasses",
    "Analyst",
    "Cumbria",
    "Matsushita",
    "Sextant",
    "Zdzisław",
    "Grzegorz",
    "Małgorzata",
    "Wojciech",
    "Przemysław",
    "Krzysztof",
    "Jędrzej",
    "Szczepan",
    "Ciotka",
    "Sukces",
    "Kutno",
    "Hubert",
    "Jajecznica",
    "Stefan_Kurowski",
    "Kocham_Blefa",
    "Łukasz",
    "Żaneta",
    "Björn",
    "Ёжик",
    "Player_123",
    "Brave_Fox_42",
    "Inconceivable_Ichabodcraniosaurus",
    "Cockburn",
    "Adrian",
    "Caputo",
    "Sukarno",
    "Dickson",
    "Jeb",
    "Spices",
    "Buttes",
    "Th3rapist",
    "Brave_450",  # a number, not leet for a rude word (the apps generate such names)
    "Dick3ns",
    "Pen1stone",
    "Scunth0rpe",
    "Cl4ssic",
    "Ass4ssin",
    "B4551st",
    "P15",
]
"""Clean names, several holding a rude word inside a longer one (the Scunthorpe problem)."""

PROFANE = [
    "fuck",
    "FuCk",
    "Fuck_You",
    "f_u_c_k",
    "F_U_C_K_E_R",
    "fvck",
    "Fuuuuck",
    "fück",
    "ＦＵＣＫ",  # full-width letters
    "fuсk",  # a Cyrillic с among Latin letters
    "shit",
    "sh1t",
    "sh_i_t",
    "Sh1t_Happens",
    "ShitHead",
    "sh1th3ad",
    "b1tch",
    "a55hole",
    "c_u_n_t",
    "motherfucker",
    "Big_Dick",
    "n1gger",
    "n1gg45",
    "N1gg4z",
    "f4gg0ts",
    "b1tch3s",
    "Sh1ts",
    "wh0r3",
    "w4nk3r",
    "r3t4rd",
    "kurwa",
    "kurw4",
    "K_U_R_W_A",
    "kurwa_mac",
    "KurwaMac",
    "kurwa123",
    "chuj",
    "Chuj_Ci",
    "jebać",
    "jebany_los",
    "skurwysyn",
    "pizda",
    "cazzo",
    "puta",
]
"""Rude names, in English, Polish and others, plain and disguised."""


def join(client: TestClient, game: str, nickname: str, *, form: str = "get") -> Any:
    if form == "get":
        return client.get(f"/games/{game}/join", params={"nickname": nickname})
    return client.post(f"/games/{game}/join", json={"nickname": nickname})


def assert_profanity_refusal(response: Any) -> None:
    assert response.status_code == 422, response.text
    body = response.json()
    assert body["reason"] == "profanity"
    assert isinstance(body["error"], str) and body["error"].endswith("Choose another one")
    assert body["code"] == "profane_nickname"


@pytest.mark.parametrize("nickname", CLEAN)
def test_a_clean_name_is_accepted_even_with_a_rude_word_inside_a_longer_one(
    blef: Blef, client: TestClient, nickname: str
) -> None:
    game = blef.create()
    assert join(client, game, nickname).status_code == 200
    assert [p["nickname"] for p in blef.state(game)["players"]] == [nickname]


@pytest.mark.parametrize("form", ["get", "post"])
@pytest.mark.parametrize("nickname", PROFANE)
def test_a_profane_name_is_refused_with_422_and_the_reason_profanity_even_disguised(
    blef: Blef, client: TestClient, nickname: str, form: str
) -> None:
    game = blef.create()
    assert_profanity_refusal(join(client, game, nickname, form=form))
    assert blef.state(game)["players"] == []


@pytest.mark.parametrize("nickname", ["n1gg45", "kurwa123", "wh0r3"])
def test_a_profane_name_disguised_with_digits_is_refused_on_create_and_on_the_rematch(
    blef: Blef, client: TestClient, nickname: str
) -> None:
    assert_profanity_refusal(client.get("/games/create", params={"nickname": nickname}))
    game = blef.create()
    seated = {name: blef.join(game, name) for name in ("Ann", "Bob")}
    blef.start(game, seated["Ann"])
    finish(client, game, seated)
    rematch = client.get(
        "/games/create",
        params={
            "previous_game_uuid": game,
            "previous_player_uuid": seated["Ann"],
            "nickname": nickname,
        },
    )
    assert_profanity_refusal(rematch)


LEET: dict[str, str] = {"a": "4", "e": "3", "i": "1", "o": "0", "s": "5", "t": "7", "b": "8"}
"""The digits written for letters."""

HIDING_A_RUDE_WORD = [
    name for name in CLEAN if name.isalpha() and any(c.lower() in LEET for c in name[1:-1])
] + ["Cockburn", "Penistone", "Dickens", "Essex", "Assassin", "Classic", "Therapist"]
"""Clean single-word names (a rude word, if any, only inside a longer one)."""


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(HIDING_A_RUDE_WORD), st.data())
def test_a_clean_name_with_digits_written_for_some_of_its_inner_letters_stays_clean(
    name: str, data: st.DataObject
) -> None:
    """Whatever letters between the first and the last are written as digits, the filter
    reads the name they disguise, which is clean: never a rude word cut out of it by the
    digits. (The first letter stays a letter, as the rule wants; digits at the end are read
    as a number too, ``Bitch1`` as ``Bitch 1``, so ``Sp1c35`` reads as ``Spic 35``.)"""
    places = [i for i, c in enumerate(name) if 0 < i < len(name) - 1 and c.lower() in LEET]
    chosen = data.draw(st.sets(st.sampled_from(places)), label="digits at")
    disguised = "".join(LEET[c.lower()] if i in chosen else c for i, c in enumerate(name))
    assert not profanity.is_profane(disguised), disguised


def test_digits_at_the_end_of_a_name_are_read_as_a_number_too() -> None:
    assert profanity.is_profane("Bitch1")
    assert profanity.is_profane("Sp1c35")
    assert not profanity.is_profane("Sp1ces")


@pytest.mark.parametrize(
    ("name", "plurals"),
    [
        ("bitch", ["bitchs", "bitchz", "bitches"]),
        ("spic", ["spics", "spicz"]),
        ("hoe", []),
        ("cumming", []),
    ],
)
def test_an_english_word_s_plurals_are_read_as_rude_es_only_after_a_hissing_end_and_not_all(
    name: str, plurals: list[str]
) -> None:
    """Short words and ``-ing`` forms have no plural added: theirs are surnames too."""
    assert profanity.english_plurals([name]) == plurals
    for clean in ("Spices", "Hoes", "Cummings"):
        assert not profanity.is_profane(clean)


def test_a_profane_name_is_not_echoed_back(blef: Blef, client: TestClient) -> None:
    reply = join(client, blef.create(), "Fuck_You")
    assert "uck" not in reply.text


def test_the_profanity_filter_is_built_once_per_process() -> None:
    assert profanity.is_profane("sh1t")
    assert profanity._filter() is profanity._filter()
    assert profanity._filter.cache_info().currsize == 1


# ------------------------------------------------------------------------ the rule


@pytest.mark.parametrize(
    ("nickname", "reason"),
    [
        ("a__b", "no doubled underscores"),
        ("name_", "no underscore at the end"),
        ("_name", "the first character is not a letter"),
        ("9lives", "the first character is not a letter"),
        ("zoë!", "'!' (U+0021 EXCLAMATION MARK) is not allowed"),
    ],
)
def test_a_name_breaking_the_rule_gets_the_established_400_with_the_reason(
    blef: Blef, client: TestClient, nickname: str, reason: str
) -> None:
    reply = join(client, blef.create(), nickname)
    assert reply.status_code == 400
    assert reply.json()["code"] == "invalid_nickname"
    assert reply.json()["error"] == (
        f"Bad input value in 'nickname': {nickname}\nNickname must start with a letter, then"
        " only letters, digits and single underscores between them (at most 64 characters):"
        f" {reason}"
    )


WORDS = ["Brave", "Fox", "Player", "Quiet", "Owl", "Inconceivable", "Ichabodcraniosaurus"]


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=3),
    st.none() | st.integers(0, 999),
)
def test_every_name_the_established_apps_generate_joins(
    blef: Blef, client: TestClient, words: list[str], number: int | None
) -> None:
    name = "_".join(words + ([] if number is None else [str(number)]))
    assert join(client, blef.create(), name).status_code == 200


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.text(min_size=1, max_size=70).filter(lambda t: "_" in t or not t.isalnum()))
def test_a_name_breaking_the_rule_is_refused_with_the_reason_or_is_a_valid_name(
    blef: Blef, client: TestClient, text: str
) -> None:
    reply = join(client, blef.create(), text, form="post")
    why = names.problem(names.canonical(text))
    if why is None:
        assert reply.status_code in (200, 422)
    else:
        assert reply.status_code == 400
        assert reply.json()["error"].endswith(f": {why}"[-80:]) or why in reply.json()["error"]


def test_a_name_and_its_decomposed_spelling_are_one_name_kept_composed(
    blef: Blef, client: TestClient
) -> None:
    game = blef.create()
    assert join(client, game, "Zoe\u0301").status_code == 200
    assert [p["nickname"] for p in blef.state(game)["players"]] == ["Zoé"]
    for same in ("Zoé", "ZOÉ", "zoe\u0301"):
        taken = join(client, game, same, form="post")
        assert taken.status_code == 400
        assert taken.json()["code"] == "nickname_taken"


# ------------------------------------------------------------------------ hostile input


@pytest.mark.parametrize(
    ("nickname", "status"),
    [
        ("a" * 10_000, 400),  # huge
        ("x" * 64 + "\u0301" * 5000, 400),  # a long tail of combining marks
        ("bob\x00", 400),  # control characters
        ("bob\r\nSet-Cookie: x=1", 400),
        ("\x1b[31mred", 400),
        ("bo\u200db", 400),  # zero-width joiner
        ("bo\u200bb", 400),  # zero-width space
        ("\u202eevil", 400),  # right-to-left override
        ("bob\u200f", 400),  # right-to-left mark
        ("\ufeffbob", 400),  # byte order mark
        ("bob\ue000", 400),  # private use
        ("bob🙂", 400),
        ("ab\u0301\u0301\u0301\u0301", 400),  # stacked combining marks
        ("Pаul", 200),  # mixed scripts (a Cyrillic а): letters, a name of its own
        ("Алиса_Bob", 200),  # mixed scripts
        ("ﬁsh", 200),  # a ligature letter, kept as sent (NFC does not unfold it)
        ("ＦＵＣＫ", 422),  # homoglyphs of a rude word
        ("ѕhіt", 422),  # Cyrillic look-alikes of a rude word
    ],
)
@pytest.mark.parametrize("form", ["get", "post"])
def test_hostile_names_get_a_clear_4xx_or_are_plain_names_never_a_5xx(
    blef: Blef, client: TestClient, nickname: str, status: int, form: str
) -> None:
    reply = join(client, blef.create(), nickname, form=form)
    assert reply.status_code == status, reply.text
    if status != 200:
        body = reply.json()
        assert isinstance(body["error"], str)
        assert len(reply.text) < 1000  # a huge value is not echoed whole
        assert body["code"] == ("invalid_nickname" if status == 400 else "profane_nickname")


def test_an_account_handle_disguised_with_digits_is_refused_and_a_clean_one_is_made(
    client: TestClient,
) -> None:
    assert_profanity_refusal(client.post("/ladder/accounts", json={"handle": "n1gg45"}))
    assert client.post("/ladder/accounts", json={"handle": "Pen1stone"}).status_code == 201
