"""Worker processes kept for one ``python -m pipeline run``: per-abstract analysis and chart drawing.

The command line starts them first (:func:`started`; ``PIPELINE_WORKERS`` - 1 of them, as the main process
works too), before it imports Dagster. While the main process
spends ~1.4 s importing Dagster, SQLAlchemy and pandera and opening the instance, the workers import the
analysis modules, load langdetect's 55 language profiles and matplotlib on the other core(s). The steps then
hand them work through :func:`executor`:

- ``pipeline.records.analyse_texts`` shares any batch of abstracts between them and the main process (not
  only batches large enough to pay for starting processes), so adding one 500-abstract listing uses both
  cores;
- ``pipeline.release.publish`` has them draw the release's charts while it writes the table files.

Runs launched by ``dagster dev`` (and tests calling ``pipeline.cli.run`` directly) have no pool: the steps
then work as without it (records spawns its own pool for large batches; charts are drawn in-process). Which
process computes a row never changes it: the per-abstract work is a pure function of the raw text (seeded
langdetect), and the charts of the same tables are the same bytes (``tests/test_rerun_cli.py``).
"""

from __future__ import annotations

import contextlib
import multiprocessing
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor

_POOL: ProcessPoolExecutor | None = None
_WORKERS = 0


def _warm_up() -> None:
    """Worker initializer: import and load everything the tasks need, then freeze it for the collector.

    Loads pipeline.records (cleaning, language, extraction, dedup), langdetect's profiles and matplotlib's Agg
    backend and font list. ``gc.freeze`` keeps those long-lived objects out of every later collection and out
    of the worker's final one (see pipeline/__main__.py).
    """
    import gc

    from pipeline import language, records  # noqa: F401  (records imports every analysis module)
    from pipeline.card import charts

    language.load_profiles()
    charts.load_backend()
    gc.freeze()


def _ready() -> bool:
    return True


def start(workers: int) -> ProcessPoolExecutor | None:
    """Start ``workers - 1`` spawned helper processes and return the pool (``None`` when ``workers`` < 2):
    ``workers`` counts this process too, which takes its share of the per-abstract work.

    Returns at once: the processes start and warm up in the background. Calling it again returns the running
    pool. Raises ValueError when a pool of another size is already running.
    """
    global _POOL, _WORKERS
    if workers < 2:
        return None
    workers -= 1
    if _POOL is not None:
        if workers != _WORKERS:
            raise ValueError(f"a pool of {_WORKERS} helpers is already running (asked for {workers})")
        return _POOL
    _POOL = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                                initializer=_warm_up)
    _WORKERS = workers
    _POOL.submit(_ready)  # the first task launches every worker process
    return _POOL


def stop() -> None:
    """Shut the pool down (waits for running tasks; the idle workers then exit). No-op without a pool."""
    global _POOL, _WORKERS
    if _POOL is not None:
        _POOL.shutdown(wait=True, cancel_futures=True)
        _POOL, _WORKERS = None, 0


@contextlib.contextmanager
def started(workers: int) -> Iterator[ProcessPoolExecutor | None]:
    """``with started(n):`` a pool of ``n`` warm workers (see :func:`start`) for the block, stopped after it."""
    pool = start(workers)
    try:
        yield pool
    finally:
        if pool is not None:
            stop()


def executor() -> tuple[ProcessPoolExecutor, int] | None:
    """The running pool and its number of helper processes, or ``None`` when no pool was started here."""
    return (_POOL, _WORKERS) if _POOL is not None else None
