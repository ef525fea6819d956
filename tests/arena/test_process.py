"""An external program's pipes: lines in and out, deadlines, bounded stderr, a sure end."""

from __future__ import annotations

import doctest
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from arena import process
from arena.process import BotProcess, Closed, Line, TimedOut
from tests.arena.helpers import TEST_BOT

PY = sys.executable


def _python(code: str, **kwargs: int) -> BotProcess:
    bot = BotProcess([PY, "-c", code], **kwargs)
    bot.start()
    return bot


def _gone(pid: int) -> bool:
    """Whether ``pid`` has ended (a zombie waiting for a parent that is not us counts)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except FileNotFoundError:
        return True


def _wait_until(condition: Callable[[], bool], seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return False


def test_the_doctests_of_the_process_module_pass() -> None:
    assert doctest.testmod(process).failed == 0


def test_lines_come_back_in_order_and_the_end_of_output_is_seen() -> None:
    bot = _python("import sys\nfor line in sys.stdin: print(line.strip()[::-1], flush=True)")
    try:
        for word in ("one", "two", "three"):
            bot.send(word + "\n")
        assert [bot.receive(10.0) for _ in range(3)] == [Line(b"eno"), Line(b"owt"), Line(b"eerht")]
        bot.close_input()
        assert bot.receive(10.0) == Closed()
    finally:
        bot.stop()
    assert bot.returncode == 0


def test_a_program_that_says_nothing_times_out() -> None:
    bot = _python("import time; time.sleep(60)")
    try:
        assert bot.receive(0.05) == TimedOut()
        assert not bot.has_output()
    finally:
        bot.stop()
    assert bot.returncode is not None


def test_a_program_that_never_reads_its_input_cannot_block_the_sender() -> None:
    bot = _python("import time; time.sleep(60)")
    try:
        for _ in range(64):
            bot.send("x" * 65_536 + "\n")  # far more than a pipe holds
        assert bot.receive(0.05) == TimedOut()
    finally:
        bot.stop()
    assert bot.returncode is not None


def test_a_chatty_stderr_never_stalls_the_program_and_only_its_end_is_kept() -> None:
    code = (
        "import sys\n"
        "sys.stderr.write('e' * 1_000_000 + 'THE END')\n"
        "sys.stderr.flush()\n"
        "print('done', flush=True)\n"
    )
    bot = _python(code, stderr_limit=1000)
    try:
        assert bot.receive(30.0) == Line(b"done")
        assert bot.receive(30.0) == Closed()
        bot.wait(10.0)
    finally:
        bot.stop()
    tail = bot.stderr_tail(limit=5000)
    assert tail.endswith("THE END")
    assert len(tail) <= 1000


def test_a_program_flooding_its_output_is_not_read_beyond_a_few_lines() -> None:
    bot = _python("while True: print('spam', flush=True)")
    try:
        assert bot.receive(10.0) == Line(b"spam")
        assert _wait_until(bot._lines.full)
        assert bot.returncode is None  # blocked on its full pipe, not dead
    finally:
        bot.stop()
    assert bot.returncode is not None


def test_a_line_longer_than_the_limit_is_flagged() -> None:
    bot = _python("print('y' * 500, flush=True)", line_limit=100)
    try:
        first = bot.receive(10.0)
    finally:
        bot.stop()
    assert isinstance(first, Line)
    assert first.too_long
    assert len(first.data) == 100


def test_a_program_that_cannot_be_started_raises_os_error() -> None:
    with pytest.raises(FileNotFoundError):
        BotProcess(["/no/such/program"]).start()


def test_stopping_twice_is_harmless() -> None:
    bot = _python("pass")
    bot.stop(grace=5.0)
    bot.stop()
    assert bot.returncode == 0


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="reads /proc (Linux)")
def test_stopping_a_program_ends_the_helpers_it_started_and_leaves_no_zombie(
    tmp_path: Path,
) -> None:
    pids = tmp_path / "pids"
    bot = BotProcess([PY, str(TEST_BOT), "spawn", str(pids)])
    bot.start()
    try:
        bot.send('{"event": "your_turn", "legal_actions": [0]}\n')
        assert _wait_until(lambda: pids.exists() and pids.read_text().endswith("\n"))
    finally:
        bot.stop()
    helper, program = (int(word) for word in pids.read_text().split())
    assert bot.returncode is not None  # reaped by stop(): no zombie of ours
    assert _gone(program)
    assert _wait_until(lambda: _gone(helper))
