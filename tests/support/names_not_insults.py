"""Writes app/service/names_not_insults.txt, the profanity filter's safe words: people's names
it would refuse though they are not insults (app/service/profanity.py says why).

    PYTHONPATH=$PWD .venv/bin/python -m tests.support.names_not_insults

The names are Faker's (a dev dependency, pinned in pyproject.toml): every first and last name,
of either sex, of each of its locales whose language is one of the filter's (:func:`locales`),
written as a nickname may be (the nickname rule of engine/names.py, in its composed form;
``Anne-Laure`` or ``del Río`` are not nicknames as written and are left out). Of those, the
ones the filter without safe words refuses are written sorted, one a line, under a header
naming the versions they come from, except :data:`INSULTS`.
"""

from __future__ import annotations

import importlib
import pkgutil
from importlib.metadata import version
from pathlib import Path
from typing import Final

import faker.providers.person
from faker import Generator

from app.service import profanity
from engine import names

CODES: Final = {
    "english": "en",
    "polish": "pl",
    "german": "de",
    "czech": "cs",
    "russian": "ru",
    "french": "fr",
    "spanish": "es",
    "italian": "it",
    "portuguese": "pt",
    "dutch": "nl",
}
"""The language code of each of the filter's languages."""

DEPRECATED: Final = frozenset({"fr_QC"})
"""Locales Faker keeps only as aliases (``fr_QC`` is ``fr_CA``, and warns when loaded)."""

INSULTS: Final = {
    "Con": "French for idiot (and vulgar for the female sex), the commonest French insult",
    "Dick": "English for an obnoxious man, the insult before the name (Dick_Grayson, a"
    " capitalised word after it, is a name to the library's own safe words)",
    "Kike": "an English slur for a Jew, far likelier meant than Spanish Kike for Enrique",
    "Kunda": "Czech for cunt, thrown at people as in English",
    "Marica": "Spanish slur for a gay man, also used to call anyone a coward",
}
"""Names that are insults too, and stay refused: words whose use in the filter's languages is
first of all to call a person names. A vulgar word that is not name-calling (``Verga``,
Spanish for a penis and an Italian writer's surname; ``Concha``; ``Cumming``) is a name."""

OUT: Final = Path(__file__).resolve().parents[2] / "app" / "service" / profanity.NAMES_FILE
COMMAND: Final = "PYTHONPATH=$PWD .venv/bin/python -m tests.support.names_not_insults"


def locales() -> list[str]:
    """Faker's locales with names of their own in one of the filter's languages."""
    wanted = {CODES[language] for language in profanity.LANGUAGES}
    return [
        module.name
        for module in pkgutil.iter_modules(faker.providers.person.__path__)
        if module.name.split("_")[0] in wanted and module.name not in DEPRECATED
    ]


def faker_names() -> list[str]:
    """Every first and last name of :func:`locales` that is a valid nickname, sorted."""
    found: set[str] = set()
    for locale in locales():
        provider_class = importlib.import_module(f"faker.providers.person.{locale}").Provider
        provider = provider_class(Generator())  # some locales compute their lists
        for attribute in dir(provider_class):
            if attribute.startswith(("first_names", "last_names")):
                found.update(names.canonical(name) for name in getattr(provider, attribute))
    return sorted(name for name in found if names.problem(name) is None)


def refused(candidates: list[str]) -> list[str]:
    """The ``candidates`` that the filter without safe words refuses."""
    bare = profanity.build_filter()
    return [name for name in candidates if profanity.reads_as_rude(name, bare)]


def safe_words(candidates: list[str]) -> list[str]:
    """The names of :data:`OUT` (from :func:`faker_names`): the ``candidates`` the filter
    without safe words refuses, but :data:`INSULTS`."""
    return [name for name in refused(candidates) if name not in INSULTS]


def generate(safe: list[str]) -> str:
    """The text of :data:`OUT` holding ``safe``."""
    header = [
        "# People's names the nickname filter would refuse though they are not insults:",
        "# its safe words (app/service/profanity.py). Generated, do not edit; regenerate with",
        f"#   {COMMAND}",
        f"# from Faker {version('Faker')}'s names for glin-profanity {version('glin-profanity')}.",
    ]
    return "\n".join([*header, *safe]) + "\n"


def main() -> None:
    safe = safe_words(faker_names())
    OUT.write_text(generate(safe), encoding="utf-8")
    print(f"{OUT}: {len(safe)} names")


if __name__ == "__main__":
    main()
