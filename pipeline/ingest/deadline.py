"""A time budget for reading one listing: ``with deadline(seconds):`` interrupts the code inside it once
``seconds`` (wall clock) have passed, by raising :class:`BudgetExceeded` in it.

The readers are linear in their input (docs/inputs.md), so a listing at the size limit is read in seconds;
the budget is the guard for what a review cannot rule out (a pattern or parser that is slow on an input
nobody foresaw): one listing that takes too long is quarantined with the reason instead of stalling the run
(pipeline.ingest.listings.read_listing).

How the code is interrupted (the reading code is pure: its half-built state is dropped with the exception):

- On the main thread (``python -m pipeline run`` and Dagster's step processes read listings there), a
  ``SIGALRM`` interval timer whose handler raises :class:`BudgetExceeded`. Python runs signal handlers between
  bytecodes and inside a long regular-expression match (the ``re`` engine checks for signals as it goes), so a
  backtracking pattern is interrupted too. An interval timer already running (someone else's) is left alone:
  the thread mechanism below is used instead.
- Elsewhere (a step run on a worker thread), a timer thread raises it asynchronously in the reading thread
  (``PyThreadState_SetAsyncExc``). Python raises it at the next bytecode boundary, so a single long call into
  C (one regular-expression match, one ``json.loads``) ends before the exception is seen.

Neither mechanism can fire after the block has ended: both are disarmed under the block's ``finally``.
"""

from __future__ import annotations

import contextlib
import ctypes
import signal
import threading
from collections.abc import Iterator


class BudgetExceeded(BaseException):  # noqa: N818  (named for what happened, like KeyboardInterrupt)
    """Raised inside a :func:`deadline` block when its budget is spent; ``seconds`` is the budget.

    A ``BaseException`` (like ``KeyboardInterrupt``), so that a reader's ``except Exception`` or the
    per-listing catch-all (pipeline.ingest.records.listing_records) does not take it for a reader's failure.
    """

    def __init__(self, seconds: float = 0.0) -> None:  # raised asynchronously, it is made without one
        super().__init__(f"over the budget of {seconds:g} s")
        self.seconds = seconds


@contextlib.contextmanager
def deadline(seconds: float | None) -> Iterator[None]:
    """Run the block with a budget of ``seconds`` (wall clock, > 0; ``None``: no budget): once they have
    passed, :class:`BudgetExceeded` is raised inside the block (see the module docstring for how, and what it
    cannot interrupt). Raises ValueError for a budget that is not positive."""
    if seconds is None:
        yield
        return
    if not seconds > 0:
        raise ValueError(f"a deadline needs a positive number of seconds, got {seconds!r}")
    on_main = threading.current_thread() is threading.main_thread()
    if on_main and hasattr(signal, "setitimer") and signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0):
        with _alarm(seconds):
            yield
    else:
        with _async_raise(seconds):
            yield


@contextlib.contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    armed = [True]

    def on_alarm(signum: int, frame: object) -> None:
        if armed[0]:
            armed[0] = False
            raise BudgetExceeded(seconds)

    previous = signal.signal(signal.SIGALRM, on_alarm)
    try:
        signal.setitimer(signal.ITIMER_REAL, seconds)
        try:
            yield
        finally:
            armed[0] = False  # from here the handler never raises
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@contextlib.contextmanager
def _async_raise(seconds: float) -> Iterator[None]:
    target = ctypes.c_ulong(threading.get_ident())
    lock = threading.Lock()
    state = {"armed": True, "fired": False}

    def fire() -> None:
        with lock:
            if state["armed"]:
                state["fired"] = True
                ctypes.pythonapi.PyThreadState_SetAsyncExc(target, ctypes.py_object(BudgetExceeded))

    timer = threading.Timer(seconds, fire)
    timer.daemon = True
    timer.start()
    try:
        try:
            yield
        except BudgetExceeded:
            raise BudgetExceeded(seconds) from None  # the asynchronous one carries no budget
        finally:
            with lock:
                state["armed"] = False
    finally:
        timer.cancel()
        if state["fired"]:  # fired but not raised yet (the block ended first): take it back
            ctypes.pythonapi.PyThreadState_SetAsyncExc(target, None)
