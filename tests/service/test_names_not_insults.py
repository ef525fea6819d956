"""People's names are not rude words: every first and last name Faker has for the profanity
filter's languages is accepted as a nickname, but for the few that are insults too; the
filter's safe words (app/service/names_not_insults.txt) are what their generator,
tests/support/names_not_insults.py, writes from the versions installed; and those safe words
protect the names only, never a rude word beside them or written in disguise."""

from __future__ import annotations

import pytest

from app.service import profanity
from tests.support import names_not_insults as generator


@pytest.fixture(scope="module")
def faker_names() -> list[str]:
    return generator.faker_names()


def test_the_names_come_from_every_faker_locale_of_the_filter_s_languages() -> None:
    locales = generator.locales()
    for language in ("en", "pl", "de", "cs", "ru", "fr", "es", "it", "pt", "nl"):
        assert any(locale.split("_")[0] == language for locale in locales), language
    assert {"en_US", "en_GB", "pl_PL", "ru_RU", "pt_BR", "es_MX"} <= set(locales)
    assert not {"fr_QC", "tr_TR", "uk_UA"} & set(locales)


@pytest.mark.slow
def test_every_faker_name_of_the_filter_s_languages_is_accepted_but_the_insults(
    faker_names: list[str],
) -> None:
    """The whole lists, first and last names of both sexes, every locale (over 23,000)."""
    assert len(faker_names) > 23_000
    assert {"Peter", "Regina", "Mona", "Субботин", "Nowak", "Grzegorz"} <= set(faker_names)
    refused = [name for name in faker_names if profanity.is_profane(name)]
    assert sorted(refused) == sorted(generator.INSULTS)


@pytest.mark.slow
def test_the_safe_words_are_what_their_generator_writes(faker_names: list[str]) -> None:
    safe = generator.safe_words(faker_names)
    written = generator.OUT.read_text(encoding="utf-8")
    assert written == generator.generate(safe), (
        f"{generator.OUT.name} is stale: regenerate it with {generator.COMMAND}"
    )
    assert profanity.names_not_insults() == safe


def test_each_insult_kept_out_of_the_safe_words_is_a_name_the_filter_refuses(
    faker_names: list[str],
) -> None:
    """No needless entry: each is a Faker name, and rude to the filter without safe words."""
    bare = profanity.build_filter()
    for name in generator.INSULTS:
        assert name in faker_names
        assert profanity.reads_as_rude(name, bare), name
        assert profanity.is_profane(name), name
        assert name not in profanity.names_not_insults()


@pytest.mark.parametrize(
    "name",
    [
        "Peter",
        "Johnny",
        "Anita",
        "Regina",
        "Mona",
        "Pippa",
        "Concha",
        "Pinto",
        "Cuéllar",
        "Субботин",
        "Суворов",
        "Peter_Pinto",
        "ReginaMona",
        "Johnny_42",
    ],
)
def test_names_the_library_s_lists_hold_as_rude_words_are_accepted(name: str) -> None:
    assert profanity.reads_as_rude(name, profanity.build_filter())  # rude without safe words
    assert not profanity.is_profane(name)


@pytest.mark.parametrize(
    "name", ["n1gg45", "kurwa123", "sh1t", "Bitch1", "Big_Dick", "Kike", "Peter_Fuck"]
)
def test_a_disguised_slur_is_still_refused(name: str) -> None:
    assert profanity.is_profane(name)


@pytest.mark.parametrize("rude", ["fuck", "kurwa", "sh1t", "b1tch", "cazzo", "pizda"])
def test_a_safe_name_beside_a_rude_word_does_not_protect_it(rude: str) -> None:
    """Refused as the same rude word beside a name that is no safe word (``Xavier``) is."""

    def beside(name: str) -> list[str]:
        return [f"{name}_{rude}", f"{rude}_{name}", f"{name}{rude.capitalize()}"]

    assert all(profanity.is_profane(nickname) for nickname in beside("Xavier"))
    for name in profanity.names_not_insults():
        for nickname in beside(name):
            assert profanity.is_profane(nickname), nickname


def test_the_safe_words_are_read_only_when_the_filter_is_first_built(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    reads: list[str] = []
    monkeypatch.setattr(profanity, "names_not_insults", lambda: reads.append("read") or [])
    profanity._filter.cache_clear()
    try:
        profanity.is_profane("Peter")
        profanity.is_profane("Regina")
        assert reads == ["read"]
    finally:
        monkeypatch.undo()
        profanity._filter.cache_clear()
