"""One external program: its pipes, a deadline on every answer, and a certain end.

The program's three pipes are each served by a small daemon thread, so nothing the program
does (or fails to do) can block the referee:

- a *writer* sends the referee's lines to its stdin (a program that never reads its input
  cannot make the referee hang on a full pipe);
- a *reader* splits its stdout into lines and queues them; the referee waits on that queue
  with a timeout, which is how the per-move time limit is enforced (the queue is bounded:
  a program that floods its output is simply not read further, and blocks);
- a *drain* reads its stderr and keeps only the last few kilobytes (for the forfeit detail),
  so a chatty program never fills the pipe and stalls.

On POSIX the program gets its own process group (a new session), and :meth:`stop` kills the
whole group, so helpers the program started go too; the program itself is always waited
for, so it never lingers as a zombie.
"""

from __future__ import annotations

import contextlib
import os
import queue
import signal
import subprocess
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import IO, Final

LINE_LIMIT: Final = 1 << 16
"""The longest line a program may write (an answer is a few dozen bytes)."""
STDERR_LIMIT: Final = 4096
"""How many bytes of a program's stderr are kept: the end of it."""
PENDING_LINES: Final = 16
"""How many lines a program may have written ahead of the referee's reading."""


@dataclass(frozen=True, slots=True)
class Line:
    """A line the program wrote (without its newline); ``too_long`` if it was cut short."""

    data: bytes
    too_long: bool = False


@dataclass(frozen=True, slots=True)
class Closed:
    """The program closed its stdout: it exited, or is about to."""


@dataclass(frozen=True, slots=True)
class TimedOut:
    """Nothing arrived before the deadline."""


Received = Line | Closed | TimedOut

_CLOSED: Final = Closed()
_TIMED_OUT: Final = TimedOut()
_POSIX: Final = os.name == "posix"


class BotProcess:
    """An external program started from ``argv`` (no shell), spoken to in lines.

    >>> import sys
    >>> bot = BotProcess([sys.executable, "-c", "print(input().upper(), flush=True)"])
    >>> bot.start()
    >>> bot.send("hello\\n")
    >>> bot.receive(timeout=10.0)
    Line(data=b'HELLO', too_long=False)
    >>> bot.receive(timeout=10.0)
    Closed()
    >>> bot.stop()
    >>> bot.returncode
    0
    """

    def __init__(
        self,
        argv: Sequence[str],
        *,
        cwd: str | None = None,
        stderr_limit: int = STDERR_LIMIT,
        line_limit: int = LINE_LIMIT,
    ) -> None:
        self.argv = list(argv)
        self._cwd = cwd
        self._stderr_limit = stderr_limit
        self._line_limit = line_limit
        self._proc: subprocess.Popen[bytes] | None = None
        self._lines: queue.Queue[Line | Closed] = queue.Queue(maxsize=PENDING_LINES)
        self._outbox: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._stderr = bytearray()
        self._stderr_lock = threading.Lock()
        self._threads: list[threading.Thread] = []
        self._closed = False
        self._input_closed = False

    # ------------------------------------------------------------------ life cycle

    def _spawn(self) -> subprocess.Popen[bytes]:
        """The program's process, its three pipes open, in a session of its own on POSIX.
        Raises OSError if it cannot be started."""
        return subprocess.Popen(
            self.argv,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            cwd=self._cwd,
            close_fds=True,
            start_new_session=_POSIX,
        )

    def start(self) -> None:
        """Start the program. Raises OSError if it cannot be started."""
        self._proc = self._spawn()
        proc = self._proc
        assert proc.stdin is not None
        assert proc.stdout is not None
        assert proc.stderr is not None
        for target, stream in (
            (self._write_loop, proc.stdin),
            (self._read_loop, proc.stdout),
            (self._drain_loop, proc.stderr),
        ):
            thread = threading.Thread(target=target, args=(stream,), daemon=True)
            thread.start()
            self._threads.append(thread)

    @property
    def pid(self) -> int | None:
        return self._proc.pid if self._proc else None

    @property
    def returncode(self) -> int | None:
        """The exit status once the program has ended (negative: killed by that signal)."""
        return self._proc.poll() if self._proc else None

    def wait(self, timeout: float) -> int | None:
        """Wait up to ``timeout`` seconds for the program to exit; its status or None."""
        if self._proc is None:
            return None
        try:
            return self._proc.wait(timeout=max(0.0, timeout))
        except subprocess.TimeoutExpired:
            return None

    def close_input(self) -> None:
        """Close the program's stdin once everything queued is sent (it reads end of file)."""
        if not self._input_closed:
            self._input_closed = True
            self._outbox.put(None)

    def stop(self, grace: float = 0.0) -> None:
        """End the program: close its input, give it ``grace`` seconds to exit on its own,
        then kill it (and, on POSIX, its process group) and reap it. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        self.close_input()
        proc = self._proc
        if proc is None:
            return
        if grace > 0:
            self.wait(grace)
        self._kill_group(proc)
        with contextlib.suppress(OSError):
            proc.kill()
        proc.wait()
        for thread in self._threads:
            thread.join(timeout=1.0)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError, ValueError):
                    stream.close()

    @staticmethod
    def _kill_group(proc: subprocess.Popen[bytes]) -> None:
        # The program leads its own group (start_new_session): killing the group ends any
        # helper it started. Its pid cannot have been reused: it has not been reaped yet.
        if _POSIX:
            with contextlib.suppress(OSError):
                os.killpg(proc.pid, signal.SIGKILL)

    # ------------------------------------------------------------------ talking

    def send(self, line: str) -> None:
        """Queue ``line`` (which should end with a newline) for the program's stdin."""
        if not self._input_closed:
            self._outbox.put(line.encode())

    def receive(self, timeout: float) -> Received:
        """The next line the program wrote, waiting at most ``timeout`` seconds."""
        try:
            return self._lines.get(timeout=max(0.0, timeout))
        except queue.Empty:
            return _TIMED_OUT

    def has_output(self) -> bool:
        """Whether a line (or the end of output) is waiting that nobody asked for yet."""
        return not self._lines.empty()

    def stderr_tail(self, limit: int = 500, settle: float = 0.0) -> str:
        """The last ``limit`` characters the program wrote to stderr, as text.

        With ``settle``, and once the program has exited, first wait up to that many seconds
        for the stderr reader to reach the end of the stream, so that what a crashing
        program wrote last is not missed.
        """
        drain = self._threads[-1] if self._threads else None  # started last, in start()
        if settle and drain is not None and self.returncode is not None:
            drain.join(timeout=settle)
        with self._stderr_lock:
            data = bytes(self._stderr)
        return data.decode("utf-8", "replace")[-limit:]

    # ------------------------------------------------------------------ the threads

    def _write_loop(self, stream: IO[bytes]) -> None:
        try:
            while (data := self._outbox.get()) is not None:
                stream.write(data)
                stream.flush()
        except (OSError, ValueError):
            pass  # the program is gone; the reader will see its output close
        finally:
            with contextlib.suppress(OSError, ValueError):
                stream.close()

    def _queue(self, item: Line | Closed) -> bool:
        """Queue ``item``, waiting while the queue is full; False once the program is
        being stopped (nobody will read any more)."""
        while not self._closed:
            try:
                self._lines.put(item, timeout=0.05)
            except queue.Full:
                continue
            return True
        return False

    def _read_loop(self, stream: IO[bytes]) -> None:
        limit = self._line_limit
        try:
            while raw := stream.readline(limit):
                if raw.endswith(b"\n"):
                    line = Line(raw[:-1].rstrip(b"\r"))
                else:  # cut at the limit, or a last line without its newline
                    line = Line(raw, too_long=len(raw) >= limit)
                if not self._queue(line):
                    return
        except (OSError, ValueError):
            pass
        self._queue(_CLOSED)

    def _drain_loop(self, stream: IO[bytes]) -> None:
        limit = self._stderr_limit
        read = getattr(stream, "read1", stream.read)
        try:
            while chunk := read(4096):
                with self._stderr_lock:
                    self._stderr += chunk
                    if len(self._stderr) > limit:
                        del self._stderr[:-limit]
        except (OSError, ValueError):
            pass
