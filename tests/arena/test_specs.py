"""What AGENT arguments mean: built-in names, exec:COMMAND, labels, entries."""

from __future__ import annotations

import doctest
import sys

import pytest

from arena import specs
from arena.specs import AgentSpecError, entry_labels, parse_agent


def test_the_doctests_of_the_specs_module_pass() -> None:
    assert doctest.testmod(specs).failed == 0


def test_a_built_in_name_gives_that_agent() -> None:
    spec = parse_agent("random")
    assert (spec.builtin, spec.name, spec.external) == ("random", "random", False)


def test_an_exec_command_is_split_like_a_shell_without_one() -> None:
    spec = parse_agent(f"exec:{sys.executable} 'my bots/clever bot.py' --level 3")
    assert spec.argv == (sys.executable, "my bots/clever bot.py", "--level", "3")
    assert spec.name == "clever_bot"
    assert spec.external


def test_a_label_names_the_entry() -> None:
    assert parse_agent("me=random").name == "me"
    assert parse_agent(f"cleverest=exec:{sys.executable} bot.py").name == "cleverest"


def test_a_command_is_named_after_its_script_not_the_files_it_is_given() -> None:
    assert parse_agent(f"exec:{sys.executable} -u bot.py --log moves.jsonl").name == "bot"


def test_a_command_without_a_script_is_named_after_its_program() -> None:
    assert parse_agent("exec:node -e 'x = 1'").name == "node"


def test_an_unknown_agent_is_refused_with_the_known_names() -> None:
    with pytest.raises(AgentSpecError, match=r"known agents: .*random"):
        parse_agent("no_such_agent")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("exec:", "no command"),
        ("exec:   ", "no command"),
        ("exec:python 'unclosed", "cannot split"),
        ("exec:/no/such/program --flag", "not on the PATH"),
    ],
)
def test_an_unusable_command_is_refused_at_once(text: str, reason: str) -> None:
    with pytest.raises(AgentSpecError, match=reason):
        parse_agent(text)


def test_each_argument_is_its_own_entry_numbered_when_names_repeat() -> None:
    parsed = [parse_agent(t) for t in ("random", "me=random", "random")]
    assert entry_labels(parsed) == ["random#1", "me", "random#2"]
