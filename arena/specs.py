"""What an AGENT argument of ``blef referee`` / ``blef tournament`` means.

An AGENT is either

- the name of a built-in agent (``random``, or any other name in ``engine.agents.AGENTS``
  or its aliases), or
- ``exec:COMMAND``: an external program, started once per game from ``shlex.split(COMMAND)``
  without a shell, that speaks the protocol of api_docs/bots.md,

optionally preceded by ``LABEL=`` to choose the name it is shown (and nicknamed) under.

>>> parse_agent("random").builtin
'random'
>>> spec = parse_agent("exec:python3 examples/bots/lowest_bettor.py", check_command=False)
>>> spec.name, spec.argv
('lowest_bettor', ('python3', 'examples/bots/lowest_bettor.py'))
>>> parse_agent("low=exec:python3 bot.py", check_command=False).name
'low'
>>> entry_labels([parse_agent("random"), parse_agent("random")])
['random#1', 'random#2']
"""

from __future__ import annotations

import shlex
import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from arena.programs import EXEC_PREFIX, LABEL, PlayerSpec, clean_name, numbered, program_name
from engine.errors import InvalidRules
from engine.rules import RandomInitial, Rules


class AgentSpecError(ValueError):
    """An AGENT argument that names no built-in agent or gives no runnable command."""


@dataclass(frozen=True, slots=True)
class AgentSpec(PlayerSpec):
    """One AGENT argument of Blef's arena, parsed."""


def parse_agent(text: str, *, check_command: bool = True) -> AgentSpec:
    """Parse one AGENT argument (see the module docstring).

    ``check_command`` also checks that an external program can be found (on the PATH, or
    as an executable path), so a typo fails at once rather than as a forfeit in every game.
    Raises :class:`AgentSpecError` with the reason.
    """
    from engine.agents import resolve_agent_name  # noqa: PLC0415
    from engine.errors import UnknownAgent  # noqa: PLC0415

    label: str | None = None
    body = text.strip()
    labelled = LABEL.fullmatch(body)
    if labelled:
        label, body = labelled.group(1), labelled.group(2).strip()
    if body.startswith(EXEC_PREFIX):
        command = body[len(EXEC_PREFIX) :]
        try:
            argv = shlex.split(command)
        except ValueError as exc:
            raise AgentSpecError(f"cannot split the command of {text!r}: {exc}") from None
        if not argv:
            raise AgentSpecError(f"{text!r} gives no command after {EXEC_PREFIX!r}")
        if check_command and shutil.which(argv[0]) is None:
            raise AgentSpecError(
                f"the program {argv[0]!r} of {text!r} is not on the PATH or not executable"
            )
        name = label or clean_name(program_name(argv))
        return AgentSpec(text=text, name=name, argv=tuple(argv))
    try:
        builtin = resolve_agent_name(body)
    except UnknownAgent as exc:
        raise AgentSpecError(
            f"{exc.message}; or give an external program as exec:COMMAND"
        ) from None
    return AgentSpec(text=text, name=label or clean_name(builtin), builtin=builtin)


def entry_labels(specs: Sequence[AgentSpec]) -> list[str]:
    """One label per entry (:func:`arena.programs.numbered` of their names)."""
    return numbered(spec.name for spec in specs)


class RulesSpecError(ValueError):
    """A ``--rules`` argument that does not give valid rules."""


_RULE_KEYS: Final = {
    "deck": "deck_size",
    "deck_size": "deck_size",
    "jokers": "jokers",
    "blanks": "blanks",
    "common": "common_cards",
    "common_cards": "common_cards",
    "max": "max_cards",
    "max_cards": "max_cards",
    "initial": "initial_cards",
    "initial_cards": "initial_cards",
}
_COMMON_WORDS: Final = {"growing": -1, "slowly_growing": -2, "slowly-growing": -2}
_SHORT: Final = {
    "deck_size": "deck",
    "jokers": "jokers",
    "blanks": "blanks",
    "common_cards": "common",
    "max_cards": "max",
}


def parse_rules(text: str) -> Rules:
    """The rules a ``--rules`` argument gives: comma-separated ``key=value`` pairs, any
    left out taking the classic value. Keys: ``deck`` (24 or 32), ``jokers``, ``blanks``
    (0..12), ``common`` (0..12, or ``growing`` / ``slowly_growing``, -1 / -2), ``max``
    (0 for the rule's maximum, or 1..11), ``initial`` (1..11 or ``random``); the long names
    of :class:`engine.rules.Rules` work too. RulesSpecError says what is wrong.

    >>> parse_rules("deck=32,jokers=1,blanks=0,common=2,max=5,initial=2").to_dict()["common_cards"]
    2
    >>> parse_rules("") == Rules()
    True
    >>> try:
    ...     parse_rules("deck=33")
    ... except RulesSpecError as exc:
    ...     print(exc)
    bad --rules 'deck=33': deck_size must be 24 or 32
    """
    values: dict[str, object] = {}
    for raw in text.split(","):
        part = raw.strip()
        if not part:
            continue
        key, sep, value = part.partition("=")
        key, value = key.strip().lower(), value.strip()
        if not sep or not value:
            raise RulesSpecError(f"bad --rules {text!r}: expected key=value, got {part!r}")
        name = _RULE_KEYS.get(key)
        if name is None:
            known = "deck, jokers, blanks, common, max, initial"
            raise RulesSpecError(f"bad --rules {text!r}: unknown rule {key!r} (known: {known})")
        if name in values:
            raise RulesSpecError(f"bad --rules {text!r}: {key!r} given twice")
        if name == "initial_cards":
            if value.lower() == "random":
                values[name] = RandomInitial.RANDOM
                continue
        elif name == "common_cards" and value.lower() in _COMMON_WORDS:
            values[name] = _COMMON_WORDS[value.lower()]
            continue
        try:
            values[name] = int(value)
        except ValueError:
            raise RulesSpecError(
                f"bad --rules {text!r}: {key} must be an integer, not {value!r}"
            ) from None
    try:
        return Rules(**values)  # type: ignore[arg-type]
    except InvalidRules as exc:
        raise RulesSpecError(f"bad --rules {text!r}: {exc}") from None


def rules_text(rules: Rules) -> str:
    """The ``--rules`` argument that gives ``rules`` back (empty for the classic game).

    >>> rules_text(parse_rules("jokers=2,common=growing,initial=random"))
    'jokers=2,common=-1,initial=random'
    """
    defaults = Rules()
    parts = [
        f"{short}={getattr(rules, name)}"
        for name, short in _SHORT.items()
        if getattr(rules, name) != getattr(defaults, name)
    ]
    initial = rules.initial_cards
    if isinstance(initial, RandomInitial):
        parts.append("initial=random")
    elif isinstance(initial, int):
        parts.append(f"initial={initial}")
    return ",".join(parts)
