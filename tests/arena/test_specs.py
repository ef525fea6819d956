"""What AGENT arguments mean: built-in names, exec:COMMAND, labels, entries."""

from __future__ import annotations

import doctest
import re
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


# ---------------------------------------------------------------------- --rules


def test_rules_are_parsed_from_key_value_pairs() -> None:
    from arena.specs import parse_rules, rules_text
    from engine.rules import RandomInitial, Rules

    rules = parse_rules("deck=32,jokers=1,blanks=0,common=2,max=5,initial=2")
    assert rules == Rules(deck_size=32, jokers=1, common_cards=2, max_cards=5, initial_cards=2)
    assert parse_rules("") == Rules()
    assert parse_rules(" Deck = 32 , common=growing ") == Rules(deck_size=32, common_cards=-1)
    assert parse_rules("common=slowly_growing").common_cards == -2
    assert parse_rules("initial=random").initial_cards is RandomInitial.RANDOM
    assert parse_rules("deck_size=32,common_cards=1,max_cards=4") == Rules(
        deck_size=32, common_cards=1, max_cards=4
    )
    for text in ("deck=32,jokers=1,common=2,max=5,initial=2", "", "jokers=3,initial=random"):
        assert parse_rules(rules_text(parse_rules(text))) == parse_rules(text)


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("deck=33", "deck_size must be 24 or 32"),
        ("jokers=13", "jokers must be between 0 and 12"),
        ("jokers=-1", "jokers must be between"),
        ("blanks=x", "blanks must be an integer, not 'x'"),
        ("common=13", "common_cards must be"),
        ("max=12", "max_cards must be"),
        ("initial=0", "initial_cards must be between"),
        ("initial=lots", "initial must be an integer"),
        ("colour=3", "unknown rule 'colour'"),
        ("deck", "expected key=value, got 'deck'"),
        ("deck=", "expected key=value"),
        ("deck=24,deck=32", "'deck' given twice"),
        ("jokers=1.5", "jokers must be an integer"),
    ],
)
def test_bad_rules_are_refused_with_a_clear_message(text: str, says: str) -> None:
    from arena.specs import RulesSpecError, parse_rules

    with pytest.raises(RulesSpecError, match=re.escape(says)):
        parse_rules(text)
