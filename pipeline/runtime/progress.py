"""Progress of long steps: what a step is doing, with counts and a rate.

A :class:`Reporter` is handed to the stage functions (``progress=`` arguments); each long loop opens one
:class:`Step` (``listings``, ``abstracts``, ``partitions``, ``files written``) with its total and advances it.
Where the lines go depends on ``PIPELINE_PROGRESS`` (pipeline.runtime.config.progress_mode), read when the
reporter is made:

- ``bar`` (``auto`` on a terminal): a tqdm bar per step on stderr (count, total, rate, time left).
- ``plain`` (``auto`` elsewhere: CI, the Dagster UI's captured output): one line ``<step>: n/N (p %),
  r <unit>/s`` on stderr when the step starts, at most every :data:`PLAIN_SECONDS`, and when it ends.
- ``off`` (``python -m pipeline run --quiet``): nothing.

Besides the stream, ``log`` (the Dagster step's ``context.log.info``) receives the plain lines at the same
pace, so the UI shows the counts in the step's log. Domain-free: the stage functions say what they count.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import IO, Any

from pipeline.runtime import config

#: Seconds between two plain lines of one step (the first and last lines are always written). A few
#: seconds: a 30-minute step writes a few hundred lines, a 2-second step its first and last only.
PLAIN_SECONDS = 5.0


def _line(what: str, n: int, total: int | None, unit: str, seconds: float, done: bool) -> str:
    count = f"{n}/{total}" if total is not None else str(n)
    share = f" ({100 * n / total:.0f} %)" if total and not done else ""
    rate = f", {n / seconds:.1f} {unit}/s" if seconds > 0 and n else ""
    took = f" in {seconds:.1f} s" if done else ""
    return f"{what}: {count}{share}{took}{rate}"


class Step:
    """One counted loop of a step: :meth:`advance` after each unit of work, :meth:`close` (or leave the
    ``with`` block) at the end. ``total`` None: counted without a total."""

    def __init__(
        self,
        what: str,
        total: int | None,
        unit: str,
        mode: str,
        stream: IO[str],
        log: Callable[[str], Any] | None,
    ) -> None:
        self.what, self.total, self.unit, self.mode = what, total, unit, mode
        self.stream, self.log = stream, log
        self.n = 0
        self.started = time.monotonic()
        self.last = self.started
        self.closed = False
        self.bar: Any = None
        if mode == "bar":
            from tqdm import tqdm

            self.bar = tqdm(total=total, desc=what, unit=f" {unit}", file=stream, dynamic_ncols=True)
        self._emit(done=False)

    def __enter__(self) -> Step:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _emit(self, done: bool) -> None:
        if self.mode == "off":
            return
        text = _line(self.what, self.n, self.total, self.unit, time.monotonic() - self.started, done)
        if self.mode == "plain":
            print(text, file=self.stream, flush=True)
        if self.log is not None:
            self.log(text)

    def advance(self, n: int = 1) -> None:
        """Count ``n`` more units done; writes a plain line when :data:`PLAIN_SECONDS` have passed since the
        last one."""
        self.n += n
        if self.bar is not None:
            self.bar.update(n)
        now = time.monotonic()
        if now - self.last >= PLAIN_SECONDS:
            self.last = now
            self._emit(done=False)

    def close(self) -> None:
        """Write the step's last line (count, seconds, rate) once."""
        if self.closed:
            return
        self.closed = True
        if self.bar is not None:
            self.bar.close()
        self._emit(done=True)


class Reporter:
    """Makes the :class:`Step` of each counted loop.

    Args:
        log: receives every plain line as well (a Dagster step's ``context.log.info``), or None.
        mode: ``bar``, ``plain``, ``off``, or ``auto``/None for ``PIPELINE_PROGRESS`` (a bar when ``stream``
            is a terminal, else plain lines).
        stream: where bars and lines go (default: stderr at the time of the call).

    Raises ValueError (from pipeline.runtime.config.progress_mode) for a bad ``PIPELINE_PROGRESS``.
    """

    def __init__(
        self, log: Callable[[str], Any] | None = None, mode: str | None = None, stream: IO[str] | None = None
    ) -> None:
        self.stream = stream if stream is not None else sys.stderr
        mode = mode or config.progress_mode()
        if mode == "auto":
            mode = "bar" if self.stream.isatty() else "plain"
        self.mode = mode
        self.log = log if mode != "off" else None

    def step(self, what: str, total: int | None, unit: str) -> Step:
        """Start counting ``what`` (e.g. ``abstracts``) up to ``total`` ``unit`` (a plural noun)."""
        return Step(what, total, unit, self.mode, self.stream, self.log)


#: The reporter of a stage function called without one: writes nothing.
SILENT = Reporter(mode="off")
