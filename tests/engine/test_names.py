"""The nickname rule (engine/names.py): a Unicode letter first, then letters, digits and
single underscores, composed (NFC), at most 64 characters; and the engine's pattern, which
never refuses what the rule accepts."""

from __future__ import annotations

import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine import names
from engine.facts import MAX_NICKNAME_LENGTH, NICKNAME_PATTERN
from engine.game import Game

ASCII_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
WORD = st.text(ASCII_LETTERS, min_size=1, max_size=14)


@st.composite
def established_app_names(draw: st.DrawFn) -> str:
    """A name as the established apps make one: the Android app turns the spaces of what its
    user typed between words into ``_`` and checks ``^[a-zA-Z]\\w*$``; the generated ones
    are capitalised words joined by ``_``, perhaps a number last (``Brave_Fox_42``,
    ``Inconceivable_Ichabodcraniosaurus``, 33 characters)."""
    words = draw(st.lists(WORD, min_size=1, max_size=4))
    number = draw(st.none() | st.integers(0, 9999))
    parts = [w.capitalize() if draw(st.booleans()) else w for w in words]
    if number is not None:
        parts.append(str(number))
    return "_".join(parts)[:MAX_NICKNAME_LENGTH].rstrip("_")


@given(established_app_names())
def test_every_name_the_established_apps_generate_keeps_the_rule(name: str) -> None:
    assert names.problem(names.canonical(name)) is None
    assert NICKNAME_PATTERN.fullmatch(name)
    assert Game().join(name) == 0


@pytest.mark.parametrize(
    "name",
    ["Player_123", "Brave_Fox_42", "Inconceivable_Ichabodcraniosaurus", "A" + "b" * 63],
)
def test_the_established_apps_example_names_keep_the_rule(name: str) -> None:
    assert names.problem(name) is None


@given(st.text(max_size=80))
def test_the_engine_pattern_accepts_every_name_the_rule_accepts(text: str) -> None:
    name = names.canonical(text)
    if names.problem(name) is None:
        assert NICKNAME_PATTERN.fullmatch(name)


@given(st.text(min_size=1, max_size=80))
def test_a_name_is_refused_exactly_when_a_character_or_an_underscore_breaks_the_rule(
    text: str,
) -> None:
    name = names.canonical(text)
    letters_or_digits = all(
        c == "_" or unicodedata.category(c).startswith("L") or unicodedata.category(c) == "Nd"
        for c in name
    )
    keeps = (
        letters_or_digits
        and unicodedata.category(name[0]).startswith("L")
        and "__" not in name
        and not name.endswith("_")
        and len(name) <= MAX_NICKNAME_LENGTH
    )
    assert (names.problem(name) is None) == keeps


@given(WORD, WORD)
def test_a_doubled_or_trailing_underscore_is_refused_with_its_reason(a: str, b: str) -> None:
    assert names.problem(f"{a}__{b}") == "no doubled underscores"
    assert names.problem(f"{a}_") == "no underscore at the end"
    assert names.problem(f"_{a}") == "the first character is not a letter"


@given(st.integers(MAX_NICKNAME_LENGTH + 1, 5000))
def test_a_name_longer_than_64_characters_is_refused_with_its_length(length: int) -> None:
    assert names.problem("a" * length) == f"it has {length} characters"


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("", "it is empty"),
        ("9lives", "the first character is not a letter"),
        ("a b", "U+0020 SPACE is not allowed"),
        ("a-b", "'-' (U+002D HYPHEN-MINUS) is not allowed"),
        ("a\u200db", "U+200D ZERO WIDTH JOINER is not allowed"),
        ("a\u200fb", "U+200F RIGHT-TO-LEFT MARK is not allowed"),
        ("a\x00b", "U+0000 is not allowed"),
        ("a\u0301\u0301", "U+0301 COMBINING ACUTE ACCENT is not allowed"),
        ("a²", "'²' (U+00B2 SUPERSCRIPT TWO) is not allowed"),
        ("bob🙂", "'🙂' (U+1F642 SLIGHTLY SMILING FACE) is not allowed"),
    ],
)
def test_each_refusal_says_what_breaks_the_rule(name: str, reason: str) -> None:
    assert names.problem(names.canonical(name)) == reason


@pytest.mark.parametrize(
    ("decomposed", "composed"),
    [("Zoe\u0301", "Zoé"), ("Zdzisl\u0301aw", "Zdzisl\u0301aw"), ("L\u0323ukasz", "Ḷukasz")],
)
def test_a_name_is_checked_and_kept_composed(decomposed: str, composed: str) -> None:
    assert names.canonical(decomposed) == unicodedata.normalize("NFC", composed)


def test_a_composed_name_and_its_decomposed_spelling_are_one_name() -> None:
    assert names.canonical("Zoe\u0301") == names.canonical("Zoé") == "Zoé"
    assert names.problem(names.canonical("Zoe\u0301")) is None
    assert names.problem("Zoe\u0301") is not None  # uncomposed, the mark is no letter
