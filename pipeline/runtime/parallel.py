"""A pool of warm helper processes for one ``python -m pipeline run``; knows nothing of what they compute.

The command line starts the pool first (:func:`started`; ``PIPELINE_WORKERS`` - 1 helpers, as the main
process works too), before it imports Dagster, with the *warm-up callables* of the modules that will use it:
while the main process spends its first second or so importing Dagster, SQLAlchemy and pandera and opening the
instance, each helper runs them on the other core(s) (``pipeline.analyse.abstracts.warm_up`` loads the
analysis modules and langdetect's profiles, ``pipeline.card.charts.load_backend`` matplotlib). The steps then
hand work to :func:`executor` (``pipeline.analyse.abstracts.analyse_texts`` shares any batch of abstracts with
it; ``pipeline.card.start_charts`` draws the charts there while the publisher writes the tables).

A warm-up given as :func:`by_name` (``"module:function"``) is imported in the helper only, so the main process
does not pay for importing it before the helpers start.

No helper outlives the process that started it, however that process ends (``kill -9`` included): each helper
runs a watchdog thread that ends it within :data:`WATCHDOG_SECONDS` once its parent is gone (its parent
process id changes when the parent dies). multiprocessing's resource tracker then sees its last user go and
exits too.

Runs launched by ``dagster dev`` (and tests calling ``pipeline.cli.run`` directly) have no warm pool; the
steps then work without it (records spawns its own pool with :func:`spawn_pool` for large batches; charts are
drawn in-process). Which process computes a result must never change it: the callers' tasks are pure
functions."""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor

#: How often (seconds) a helper checks that the process that started it is still alive.
WATCHDOG_SECONDS = 0.5

_POOL: ProcessPoolExecutor | None = None
_WORKERS = 0


class by_name:  # noqa: N801  (used like a function: ``by_name("pkg.module:function")``)
    """A warm-up callable named ``"module:function"``, imported and called in the helper process only.

    Picklable (only the name crosses the process boundary). Raises ValueError on a name without ``:``.
    """

    def __init__(self, name: str) -> None:
        if ":" not in name:
            raise ValueError(f"expected 'module:function', got {name!r}")
        self.name = name

    def __call__(self) -> None:
        module, _, function = self.name.partition(":")
        getattr(importlib.import_module(module), function)()

    def __repr__(self) -> str:
        return f"by_name({self.name!r})"


def _watch_parent(parent: int) -> None:
    """End this process at once when its parent (process id ``parent``) is gone."""
    while os.getppid() == parent:
        time.sleep(WATCHDOG_SECONDS)
    os._exit(1)


def _initializer(parent: int, warm_ups: Sequence[Callable[[], object]]) -> None:
    """Helper start-up: the parent watchdog first, then every warm-up, then ``gc.freeze`` so what they loaded
    stays out of every later collection and out of the helper's final one (see pipeline/__main__.py)."""
    import gc

    threading.Thread(target=_watch_parent, args=(parent,), name="parent-watchdog", daemon=True).start()
    for warm_up in warm_ups:
        warm_up()
    gc.freeze()


def _ready() -> bool:
    return True


def spawn_pool(helpers: int, warm_ups: Sequence[Callable[[], object]] = ()) -> ProcessPoolExecutor:
    """A process pool of ``helpers`` spawned processes that each run ``warm_ups`` first and end with this
    process (see the module docstring). The caller owns it (``with spawn_pool(n) as pool:``)."""
    return ProcessPoolExecutor(
        max_workers=helpers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=_initializer,
        initargs=(os.getpid(), tuple(warm_ups)),
    )


def start(workers: int, warm_ups: Sequence[Callable[[], object]] = ()) -> ProcessPoolExecutor | None:
    """Start ``workers - 1`` helper processes that run ``warm_ups`` (picklable callables: module-level
    functions or :func:`by_name`) and return the pool (``None`` when ``workers`` < 2): ``workers`` counts this
    process too, which takes its share of the work.

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
    _POOL = spawn_pool(workers, warm_ups)
    _WORKERS = workers
    _POOL.submit(_ready)  # the first task launches the worker processes
    return _POOL


def stop() -> None:
    """Shut the pool down (waits for running tasks; the idle workers then exit). No-op without a pool."""
    global _POOL, _WORKERS
    if _POOL is not None:
        _POOL.shutdown(wait=True, cancel_futures=True)
        _POOL, _WORKERS = None, 0


@contextlib.contextmanager
def started(
    workers: int, warm_ups: Sequence[Callable[[], object]] = ()
) -> Iterator[ProcessPoolExecutor | None]:
    """``with started(n, warm_ups):`` a pool of ``n`` warm workers (see :func:`start`) for the block, stopped
    after it."""
    pool = start(workers, warm_ups)
    try:
        yield pool
    finally:
        if pool is not None:
            stop()


def executor() -> tuple[ProcessPoolExecutor, int] | None:
    """The running pool and its number of helper processes, or ``None`` when no pool was started here."""
    return (_POOL, _WORKERS) if _POOL is not None else None
