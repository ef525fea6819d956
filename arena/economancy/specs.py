"""What a PROGRAM argument of ``blef referee economancy`` / ``blef tournament economancy``
means.

A PROGRAM is, optionally after ``LABEL=`` (the name it is shown under):

- the name of a built-in agent (``random``, ``greedy_points``, ``greedy_attack``,
  ``planner`` or its alias ``ours``), played in the referee's process;
- ``exec:COMMAND``, or any other text: a command line, split like a shell would (no shell
  runs it), whose first word is a program on the PATH or a path to a file. The program
  is started with no further arguments and speaks the protocol on stdin/stdout.

>>> parse_program("ours").builtin
'planner'
>>> spec = parse_program("node examples/economancy/greedy_points.js", check=False)
>>> spec.name, spec.argv
('greedy_points', ('node', 'examples/economancy/greedy_points.js'))
>>> parse_program("me=exec:./my_player", check=False).name
'me'
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Sequence
from dataclasses import dataclass

from arena.programs import EXEC_PREFIX, LABEL, PlayerSpec, clean_name, numbered, program_name
from engine.economancy.agents import AGENTS, ALIASES


class ProgramSpecError(ValueError):
    """A PROGRAM argument that names no built-in agent and no program that can be run."""


@dataclass(frozen=True, slots=True)
class ProgramSpec(PlayerSpec):
    """One PROGRAM argument of Economancy's arena, parsed."""


def parse_program(text: str, *, check: bool = True) -> ProgramSpec:
    """Parse one PROGRAM argument (see the module docstring); ``check`` also makes sure the
    program can be found. Raises :class:`ProgramSpecError` with the reason."""
    body = text.strip()
    label = None
    labelled = LABEL.fullmatch(body)
    if labelled and not os.path.exists(body):
        label, body = labelled.group(1), labelled.group(2).strip()
    canonical = ALIASES.get(body, body)
    if canonical in AGENTS:
        return ProgramSpec(text, label or canonical, builtin=canonical)
    command = body[len(EXEC_PREFIX) :] if body.startswith(EXEC_PREFIX) else body
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise ProgramSpecError(f"cannot split the command {text!r}: {exc}") from None
    if not argv:
        raise ProgramSpecError(f"{text!r} gives no program to run")
    if check and shutil.which(argv[0]) is None and not os.path.isfile(argv[0]):
        known = ", ".join(sorted([*AGENTS, *ALIASES]))
        raise ProgramSpecError(
            f"{argv[0]!r} is not a built-in agent ({known}), a program on the PATH, or a file"
        )
    return ProgramSpec(text, label or clean_name(program_name(argv), prefix="p"), argv=tuple(argv))


def entry_labels(specs: Sequence[ProgramSpec]) -> list[str]:
    """One label per entry (:func:`arena.programs.numbered` of their names)."""
    return numbered(spec.name for spec in specs)
