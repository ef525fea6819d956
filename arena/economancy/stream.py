"""A player program's pipes, read as a stream of JSON values (not lines).

The protocol's move is one JSON value, self-delimiting: a program may end it with a
newline or not. :class:`ProgramProcess` is :class:`arena.process.BotProcess` (its writer,
its stderr drain, its certain end) with a reader that queues whatever bytes arrive, and
:class:`ValueReader` cuts the first complete JSON value out of them:

- an array, object or string is complete at its closing bracket or quote;
- a bare number or word (``3``, ``true``) is complete at the first byte that cannot
  continue it (a space, a newline, a bracket), or once the program has closed its output;
  a bare number with nothing after it is taken after a short pause (``settle``) in which
  no more digits came.

>>> reader = ValueReader()
>>> reader.feed(b'[3]["Gho')
>>> reader.next_value()
([3], None)
>>> reader.next_value()
(None, None)
>>> reader.feed(b'st"]\\n')
>>> reader.next_value()
(['Ghost'], None)
>>> reader.feed(b'hello')
>>> reader.next_value()[1]
"not JSON: 'hello'"
>>> reader.feed(b'12')
>>> reader.next_value(), reader.next_value(closed=True)
((None, None), (12, None))
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import threading
import time
from collections.abc import Sequence
from typing import IO, Any, Final

from arena.process import BotProcess, Closed, Line, Received, TimedOut

VALUE_LIMIT: Final = 1 << 16
"""The most bytes a move may take (a move is a few bytes)."""
_WORD_END: Final = frozenset(b' \t\r\n[]{},"')
_WHITESPACE: Final = b" \t\r\n"
_SHOWN: Final = 60
_STARTS: Final = frozenset(b'[{"-0123456789tfn')
_POSIX: Final = os.name == "posix"
_PIDFD: Final = hasattr(os, "pidfd_open")
_NOTHING: Final = TimedOut()
"""A non-blocking read found nothing (the poll woke for a reason that left no bytes)."""


def shown(data: bytes) -> str:
    """A short, printable rendering of what a program wrote."""
    text = data.decode("utf-8", "replace")
    return repr(text[:_SHOWN] + ("..." if len(text) > _SHOWN else ""))


class ValueReader:
    """Cuts JSON values out of the bytes fed to it (see the module docstring)."""

    def __init__(self, limit: int = VALUE_LIMIT) -> None:
        self._buffer = bytearray()
        self._limit = limit

    def feed(self, data: bytes) -> None:
        self._buffer += data

    @property
    def pending(self) -> bytes:
        """What was fed and not yet taken, blanks included."""
        return bytes(self._buffer)

    def has_content(self) -> bool:
        """Whether anything other than blanks is waiting."""
        return bool(bytes(self._buffer).strip(_WHITESPACE))

    def next_value(self, closed: bool = False) -> tuple[Any, str | None]:
        """``(value, None)`` for a complete value (taken out of the buffer), ``(None,
        None)`` while it is incomplete, ``(None, reason)`` when what was written is not a
        JSON value. ``closed``: nothing more will come (a bare word or number ends here)."""
        buffer = self._buffer
        start = 0
        while start < len(buffer) and buffer[start] in _WHITESPACE:
            start += 1
        if start == len(buffer):
            del buffer[:start]
            return None, None
        if buffer[start] not in _STARTS:
            raw = bytes(buffer[start:])
            del buffer[:]
            return None, f"not JSON: {shown(raw)}"
        end = self._value_end(buffer, start, closed)
        if end is None:
            if len(buffer) - start > self._limit:
                return None, f"wrote more than {self._limit} bytes without completing a value"
            if closed:
                return None, f"closed its output in the middle of {shown(bytes(buffer[start:]))}"
            return None, None
        raw = bytes(buffer[start:end])
        try:
            value = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            del buffer[:end]
            return None, f"not JSON: {shown(raw)}"
        del buffer[:end]
        return value, None

    @staticmethod
    def _value_end(buffer: bytearray, start: int, closed: bool) -> int | None:
        first = buffer[start]
        if first in b"[{":
            depth, in_string, escaped = 0, False, False
            for i in range(start, len(buffer)):
                c = buffer[i]
                if in_string:
                    if escaped:
                        escaped = False
                    elif c == 0x5C:  # backslash
                        escaped = True
                    elif c == 0x22:
                        in_string = False
                elif c == 0x22:
                    in_string = True
                elif c in b"[{":
                    depth += 1
                elif c in b"]}":
                    depth -= 1
                    if depth == 0:
                        return i + 1
            return None
        if first == 0x22:
            escaped = False
            for i in range(start + 1, len(buffer)):
                c = buffer[i]
                if escaped:
                    escaped = False
                elif c == 0x5C:
                    escaped = True
                elif c == 0x22:
                    return i + 1
            return None
        for i in range(start, len(buffer)):
            if buffer[i] in _WORD_END:
                return max(i, start + 1)
        return len(buffer) if closed else None


class ProgramProcess(BotProcess):
    """A :class:`BotProcess` spoken to in raw bytes, for :class:`ValueReader`.

    On POSIX the referee's own thread writes to the program and reads from it (no reader
    or writer thread: each message costs no hand-over between threads). Both pipes are
    non-blocking; a move costs one write, one ``poll`` that waits for the answer with the
    deadline, and one read. What a full pipe does not take yet is kept and written as the
    program reads, so a program that never reads cannot block the referee. The program's
    end is awaited on a process file descriptor where Linux has one (no polling sleeps).
    Elsewhere the threads of :class:`BotProcess` carry the bytes.
    """

    def __init__(self, argv: Sequence[str], **kwargs: Any) -> None:
        super().__init__(argv, **kwargs)
        self._unsent = bytearray()
        self._direct = _POSIX
        self._out = -1
        self._in = -1
        self._poller: Any = None

    def start(self) -> None:
        if not self._direct:
            super().start()
            return
        self._proc = self._spawn()  # a session of its own: the direct mode is POSIX's only
        assert self._proc.stdin is not None
        assert self._proc.stdout is not None
        assert self._proc.stderr is not None
        self._in = self._proc.stdin.fileno()
        self._out = self._proc.stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        self._poller = select.poll()
        self._poller.register(self._out, select.POLLIN)
        drain = threading.Thread(target=self._drain_loop, args=(self._proc.stderr,), daemon=True)
        drain.start()
        self._threads.append(drain)

    def _read_loop(self, stream: IO[bytes]) -> None:  # the threaded fallback
        read = getattr(stream, "read1", stream.read)
        try:
            while chunk := read(4096):
                if not self._queue(Line(chunk)):
                    return
        except (OSError, ValueError):
            pass
        self._queue(Closed())

    def send(self, line: str) -> None:
        self.send_bytes(line.encode())

    def send_bytes(self, data: bytes) -> None:
        """Write ``data`` to the program's input (what the pipe does not take now is kept
        and written while the referee waits for an answer)."""
        if not self._direct:
            super().send(data.decode())
            return
        if not self._input_closed:
            self._unsent += data
            self._flush()

    def _flush(self) -> None:
        if not self._unsent or self._in < 0:
            return
        try:
            written = os.write(self._in, self._unsent)
        except BlockingIOError:
            return
        except (OSError, ValueError):  # the program is gone: its output will close
            self._unsent.clear()
            return
        del self._unsent[:written]

    def _read(self) -> Received:
        try:
            data = os.read(self._out, 65536)
        except BlockingIOError:
            return _NOTHING
        except OSError:
            data = b""
        return Line(data) if data else Closed()

    def receive(self, timeout: float) -> Received:
        if not self._direct:
            return super().receive(timeout)
        if self._closed or self._poller is None:  # stopped, or never started
            return Closed()
        deadline = time.monotonic() + max(0.0, timeout)
        while True:
            left = max(0.0, deadline - time.monotonic())
            if self._unsent and self._in >= 0:
                try:
                    readable, writable, _ = select.select([self._out], [self._in], [], left)
                except (OSError, ValueError):
                    return Closed()
                if writable:
                    self._flush()
            else:
                try:
                    readable = self._poller.poll(left * 1000.0)
                except (OSError, ValueError):
                    return Closed()
                writable = []
            if readable:
                got = self._read()
                if got is not _NOTHING:
                    return got
            elif not writable and time.monotonic() >= deadline:
                return TimedOut()

    def has_output(self) -> bool:
        if not self._direct:
            return super().has_output()
        if self._closed or self._poller is None:
            return False
        try:
            return bool(self._poller.poll(0))
        except (OSError, ValueError):
            return False

    def wait(self, timeout: float) -> int | None:
        proc = self._proc
        if not self._direct or proc is None or timeout <= 0 or not _PIDFD:
            return super().wait(timeout)
        status = proc.poll()
        if status is not None:
            return status
        try:
            handle = os.pidfd_open(proc.pid)
        except OSError:
            return super().wait(timeout)
        try:  # readable once the program has ended
            select.select([handle], [], [], timeout)
        finally:
            os.close(handle)
        return proc.poll()

    def close_input(self) -> None:
        if not self._direct:
            super().close_input()
            return
        if self._input_closed:
            return
        proc = self._proc
        if proc is not None and proc.stdin is not None:
            self._flush()
            with contextlib.suppress(OSError, ValueError):
                proc.stdin.close()
        self._input_closed = True
        self._in = -1  # the number may now be reused for another file
