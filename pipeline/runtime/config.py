"""Where the pipeline reads and writes.

Every path is read from the environment at call time (not import time), so tests and users can point the
pipeline anywhere by setting a variable:

- ``PIPELINE_RAW_DIR``        listing files (default ``raw/``)
- ``PIPELINE_WAREHOUSE_DIR``  releases and per-listing work files (default ``warehouse/``)
- ``PIPELINE_WORKERS``        processes for per-abstract work, the main one included (default: the number of
  CPUs)
- ``PIPELINE_KEEP_RELEASES``  keep only the newest K releases (default: keep all)
- ``DAGSTER_HOME``            Dagster's instance (default ``.dagster_home/`` in the working directory)
- ``PIPELINE_MAX_CONCURRENT``       steps at once per Dagster run (multiprocess executor; default: CPUs)
- ``PIPELINE_MAX_CONCURRENT_RUNS``  runs at once from the instance's run queue (default 2)
- ``PIPELINE_SCHEDULE_CRON``, ``PIPELINE_SCHEDULE_TIMEZONE``  the daily schedule (default 03:00 UTC)
- ``PIPELINE_INSTANCE``, ``DAGSTER_PG_URL``  the instance's storage: SQLite (default) or Postgres
  (pipeline.runtime.scaleout)
- ``PIPELINE_PROGRESS``       progress of long steps: ``auto`` (default), ``bar``, ``plain`` or ``off``
  (pipeline.runtime.progress; ``python -m pipeline run --quiet`` sets ``off``)
- ``PIPELINE_DATASET_LICENSE`` the licence the dataset card declares (default ``other``)
- ``PIPELINE_MAX_LISTING_BYTES``  largest listing read, in bytes, as stored and decoded (default 64 MiB;
  :func:`max_listing_bytes`)
- ``PIPELINE_READ_BUDGET_SECONDS``  wall-clock budget for reading one listing (default 120;
  :func:`read_budget_seconds`)

Relative paths are resolved against the current working directory (the project root for ``make`` and
``dagster dev -w workspace.yaml``).
"""

from __future__ import annotations

import functools
import os
from pathlib import Path


@functools.lru_cache(maxsize=32)
def _resolved(value: str, cwd: str) -> Path:
    """``value`` resolved against ``cwd``, remembered: the work files' paths are asked for thousands of times
    in a run (once per listing and step), and each resolve walks the path's links. A folder linked elsewhere
    after its first use keeps its first target for the life of the process."""
    return Path(cwd, value).resolve()


def raw_dir() -> Path:
    """Folder holding the listing files (``PIPELINE_RAW_DIR``, default ``raw``)."""
    return _resolved(os.environ.get("PIPELINE_RAW_DIR", "raw"), os.getcwd())


def warehouse_dir() -> Path:
    """Folder holding releases (``PIPELINE_WAREHOUSE_DIR``, default ``warehouse``)."""
    return _resolved(os.environ.get("PIPELINE_WAREHOUSE_DIR", "warehouse"), os.getcwd())


def work_dir() -> Path:
    """Intermediate per-listing and global asset outputs: ``<warehouse>/_work``.

    Not part of any release; safe to delete (the next run recomputes it).
    """
    return warehouse_dir() / "_work"


def keep_releases() -> int | None:
    """Retention: ``PIPELINE_KEEP_RELEASES`` as a positive int, or ``None`` (keep every release)."""
    value = os.environ.get("PIPELINE_KEEP_RELEASES", "").strip()
    if not value:
        return None
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"PIPELINE_KEEP_RELEASES must be a positive integer, got {value!r}")
    return int(value)


#: First line of the dagster.yaml that :func:`ensure_dagster_home` writes; a file starting with it is ours to
#: rewrite when the settings below change, any other file is the user's and left alone.
DAGSTER_YAML_MARKER = (
    "# written by pipeline.runtime.config.ensure_dagster_home; remove this line to keep your edits"
)
#: Publishing (the ``release`` pool of the dataset tables and release assets) runs one at a time (a
#: concurrency limit of 1). ``granularity: run`` makes the run queue hold a whole run
#: while another run using the pool is in progress, instead of ops claiming slots mid-run.
PUBLISH_POOL_LIMIT = 1
#: What earlier versions of :func:`ensure_dagster_home` wrote (upgraded in place).
_LEGACY_DAGSTER_YAML = "telemetry:\n  enabled: false\n"


def _positive_int(var: str, default: int) -> int:
    value = os.environ.get(var, "").strip()
    if not value:
        return default
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"{var} must be a positive integer, got {value!r}")
    return int(value)


def max_concurrent_steps() -> int:
    """Steps the multiprocess executor runs at once in one Dagster run: ``PIPELINE_MAX_CONCURRENT``,
    default ``os.cpu_count()`` (Dagster's own default for ``max_concurrent``)."""
    return _positive_int("PIPELINE_MAX_CONCURRENT", os.cpu_count() or 1)


def max_concurrent_runs() -> int:
    """Runs the instance's run queue starts at once (``dagster dev``/daemon):
    ``PIPELINE_MAX_CONCURRENT_RUNS``,
    default 2 (each run is a process that forks a process per step; 2 keeps a 2-core machine busy without
    thrashing)."""
    return _positive_int("PIPELINE_MAX_CONCURRENT_RUNS", 2)


#: Daily at 03:00 (in :func:`schedule_timezone`) unless ``PIPELINE_SCHEDULE_CRON`` says otherwise.
DEFAULT_SCHEDULE_CRON = "0 3 * * *"


def schedule_cron() -> str:
    """The daily schedule's cron expression: ``PIPELINE_SCHEDULE_CRON``, default
    :data:`DEFAULT_SCHEDULE_CRON` (Dagster checks the expression when the schedule is defined)."""
    return os.environ.get("PIPELINE_SCHEDULE_CRON", DEFAULT_SCHEDULE_CRON)


def schedule_timezone() -> str:
    """The daily schedule's time zone (an IANA name): ``PIPELINE_SCHEDULE_TIMEZONE``, default ``UTC``."""
    return os.environ.get("PIPELINE_SCHEDULE_TIMEZONE", "UTC")


def dagster_yaml() -> str:
    """The instance settings :func:`ensure_dagster_home` writes: telemetry off, the UI's first-visit pop-up
    off (``nux``, a key of Dagster's instance config schema), the publish pool limit
    (:data:`PUBLISH_POOL_LIMIT`, run granularity), the run queue's :func:`max_concurrent_runs` and the
    storage (:func:`instance_storage_yaml`)."""
    return (
        f"{DAGSTER_YAML_MARKER}\n"
        "telemetry:\n  enabled: false\n"
        "nux:\n  enabled: false\n"
        "concurrency:\n"
        f"  pools:\n    granularity: run\n    default_limit: {PUBLISH_POOL_LIMIT}\n"
        f"  runs:\n    max_concurrent_runs: {max_concurrent_runs()}\n" + instance_storage_yaml()
    )


def instance_storage_yaml() -> str:
    """The ``storage:`` block of :func:`dagster_yaml`: empty (the embedded SQLite instance) unless
    ``PIPELINE_INSTANCE=postgres`` puts runs, event log and schedules on Postgres
    (pipeline.runtime.scaleout)."""
    from pipeline.runtime import scaleout

    return scaleout.storage_yaml()


#: Environment defaults for Dagster in the processes that create runs (:func:`ensure_dagster_home` sets
#: those unset; ``make dev`` passes them to ``dagster dev``).
#: ``DAGSTER_EMIT_PARTITION_SUBSET_IN_PLANNED_EVENTS`` (Dagster's opt-in, read in
#: ``dagster._core.storage.event_log.base``): a run of a listing range records one
#: "materialization planned" event per asset with the range, not one per listing; each event is a SQLite
#: write of about 12 ms, so a first build of 211 listings recorded 430 of them (about 5 s) before its first
#: step. The price, as Dagster states it: the listings of a run that fails are not marked failed in the UI
#: (the run is, and its listings stay as they were before it).
DAGSTER_ENV_DEFAULTS = {"DAGSTER_EMIT_PARTITION_SUBSET_IN_PLANNED_EVENTS": "true"}


#: Lock file (in DAGSTER_HOME) held while the instance's settings are written and its storage is first
#: created.
INSTANCE_LOCK = ".instance.lock"
#: Marker file (in DAGSTER_HOME) written once the instance's storage exists; later runs skip the creation.
INSTANCE_READY = ".instance.ready"


def dagster_env_defaults() -> str:
    """``VAR=value`` for each variable of :data:`DAGSTER_ENV_DEFAULTS`, the environment's value when set
    (for ``env`` in the Makefile's ``dev`` target, so ``dagster dev`` runs with the settings that
    ``python -m pipeline run`` sets for itself)."""
    return " ".join(f"{var}={os.environ.get(var, value)}" for var, value in DAGSTER_ENV_DEFAULTS.items())


def ensure_dagster_home(create_instance: bool = True) -> Path:
    """Set ``DAGSTER_HOME`` to ``.dagster_home`` in the working directory unless it is set (and the
    variables of :data:`DAGSTER_ENV_DEFAULTS` that are unset); create it and
    write its ``dagster.yaml`` (:func:`dagster_yaml`) when missing or when it is ours (starts with
    :data:`DAGSTER_YAML_MARKER`) and out of date; with ``create_instance``, create the instance's storage
    (run, event-log and schedule databases and their schema migrations) the first time. Returns the folder.

    All of it happens under a file lock (:data:`INSTANCE_LOCK`, ``filelock``), so processes starting at once
    on a fresh folder (two ``python -m pipeline run``, or a run and ``dagster dev``) wait for the first one
    instead of creating the databases together: two at once could stamp two schema versions ("more than one
    head") and leave the instance unusable. Once :data:`INSTANCE_READY` exists only the lock is taken.

    Raises OSError when the folder cannot be created or written (the message names it).
    """
    from filelock import FileLock

    for var, value in DAGSTER_ENV_DEFAULTS.items():
        os.environ.setdefault(var, value)
    home = Path(os.environ.setdefault("DAGSTER_HOME", str(Path(".dagster_home").resolve())))
    home.mkdir(parents=True, exist_ok=True)
    with FileLock(home / INSTANCE_LOCK):
        cfg = home / "dagster.yaml"
        text = dagster_yaml()
        current = cfg.read_text() if cfg.exists() else None
        ours = current is None or current.startswith(DAGSTER_YAML_MARKER) or current == _LEGACY_DAGSTER_YAML
        if ours and current != text:
            tmp = cfg.with_name(f".dagster.yaml.{os.getpid()}.tmp")
            tmp.write_text(text)
            tmp.replace(cfg)
        embedded = _embedded_instance()
        ready = home / (INSTANCE_READY if embedded else f"{INSTANCE_READY}.{_postgres_tag()}")
        if create_instance and not ready.exists():
            if embedded:
                _create_instance_storage()
            else:
                _create_postgres_storage()
            ready.write_text("the instance's storage was created; see pipeline.runtime.config\n")
    return home


#: Key of the Postgres advisory lock held while a first run creates the instance's tables.
PG_CREATE_LOCK_KEY = 0x5049504C  # "PIPL"


def _postgres_tag() -> str:
    """A short digest of ``DAGSTER_PG_URL``: the ready marker of one Postgres database."""
    import hashlib

    from pipeline.runtime import scaleout

    return hashlib.sha256(scaleout.postgres_url().encode()).hexdigest()[:12]


def _create_postgres_storage() -> None:
    """Create a Postgres instance's tables under a Postgres advisory lock (:data:`PG_CREATE_LOCK_KEY`), so
    first runs on several machines at once wait for one another: dagster-postgres creating them twice at once
    fails ("DuplicateObject: type snapshots already exists", seen in the two-first-runs test)."""
    import sqlalchemy as sa

    from pipeline.runtime import scaleout

    engine = sa.create_engine(scaleout.postgres_url(), poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            conn.execute(sa.text("SELECT pg_advisory_lock(:k)"), {"k": PG_CREATE_LOCK_KEY})
            try:
                _create_instance_storage()
            finally:
                conn.execute(sa.text("SELECT pg_advisory_unlock(:k)"), {"k": PG_CREATE_LOCK_KEY})
    finally:
        engine.dispose()


def dagster_home_hint() -> str:
    """``DAGSTER_HOME`` as set (for messages), or the default it would get."""
    return os.environ.get("DAGSTER_HOME") or str(Path(".dagster_home").resolve())


def _embedded_instance() -> bool:
    """True for the embedded SQLite instance (the default), whose databases live in ``DAGSTER_HOME``; a
    Postgres instance (pipeline.runtime.scaleout) is created in its database under an advisory lock."""
    from pipeline.runtime import scaleout

    return scaleout.instance_kind() == "sqlite"


def _create_instance_storage() -> None:
    """Open the instance in DAGSTER_HOME once and touch each storage, which creates its database."""
    import dagster as dg

    with dg.DagsterInstance.get() as instance:
        instance.get_runs(limit=1)  # run storage
        instance.get_dynamic_partitions("listings")  # event-log storage (dynamic partitions live there)
        instance.all_instigator_state()  # schedule storage (sensors, schedules)


def workers() -> int:
    """Processes for per-abstract work, the main one included: ``PIPELINE_WORKERS``, default
    ``os.cpu_count()``. Raises ValueError when it is not a positive integer."""
    value = os.environ.get("PIPELINE_WORKERS", "").strip()
    if not value:
        return os.cpu_count() or 1
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"PIPELINE_WORKERS must be a positive integer, got {value!r}")
    return int(value)


#: Values of ``PIPELINE_PROGRESS`` (pipeline.runtime.progress): ``auto`` is a bar on a terminal, else
#: plain lines.
PROGRESS_MODES = ("auto", "bar", "plain", "off")


def progress_mode() -> str:
    """``PIPELINE_PROGRESS`` (default ``auto``), one of :data:`PROGRESS_MODES`. Raises ValueError naming the
    variable for any other value."""
    value = os.environ.get("PIPELINE_PROGRESS", "").strip().lower() or "auto"
    if value not in PROGRESS_MODES:
        raise ValueError(f"PIPELINE_PROGRESS must be one of {', '.join(PROGRESS_MODES)}, got {value!r}")
    return value


def dataset_license() -> str:
    """The licence identifier the dataset card's metadata declares (``PIPELINE_DATASET_LICENSE``, default
    ``other``: the project grants no licence of its own; see pipeline.card.readme.LICENSE_TEXT). Any Hugging
    Face licence identifier (``cc-by-4.0``, ``mit``, ...); raises ValueError for a value with spaces or
    control characters, which would break the card's YAML."""
    value = os.environ.get("PIPELINE_DATASET_LICENSE", "").strip() or "other"
    if not value.isprintable() or any(c.isspace() for c in value) or value[0] in "-#&*!|>'\"%@`{[":
        raise ValueError(
            f"PIPELINE_DATASET_LICENSE must be one licence identifier such as cc-by-4.0, got {value!r}"
        )
    return value


#: Default of :func:`max_listing_bytes`: 64 MiB. Derived from measurements (``python -m bench.reliability
#: --only memory``, docs/inputs.md): a whole ``python -m pipeline run`` peaks at 456 MB with a listing that
#: is refused and at 1,135 MB over a 62.2 MiB listing (the 58,671 abstracts of the dev corpus), about
#: 10.4 MB per MB of listing above that floor; the 1.5 GB bound is reached near 99 MiB, and 64 MiB keeps
#: about 400 MB of it free for what the measurement did not hold (a large parent release, a busier step).
DEFAULT_MAX_LISTING_BYTES = 64 << 20


def max_listing_bytes() -> int:
    """Largest listing file read, in bytes (``PIPELINE_MAX_LISTING_BYTES``, default
    :data:`DEFAULT_MAX_LISTING_BYTES`): a larger file, or a gzip listing decompressing to more, is refused
    ``too_large`` (pipeline.ingest.rawfiles). Raises ValueError naming the variable for a value that is not a
    positive integer."""
    return _positive_int("PIPELINE_MAX_LISTING_BYTES", DEFAULT_MAX_LISTING_BYTES)


#: Default of :func:`read_budget_seconds`: 120 s, 24x the 5.0 s a listing at the size limit takes to read
#: on the 2-core machine (docs/inputs.md), so only a pathological file reaches it, even on a busy machine.
DEFAULT_READ_BUDGET_SECONDS = 120.0


def read_budget_seconds() -> float:
    """Wall-clock seconds reading one listing may take (``PIPELINE_READ_BUDGET_SECONDS``, a positive number,
    default :data:`DEFAULT_READ_BUDGET_SECONDS`); a listing whose reading takes longer is quarantined
    ``too_slow`` (pipeline.ingest.listings.read_listing). Raises ValueError naming the variable for a value
    that is not a positive number."""
    value = os.environ.get("PIPELINE_READ_BUDGET_SECONDS", "").strip()
    if not value:
        return DEFAULT_READ_BUDGET_SECONDS
    try:
        seconds = float(value)
    except ValueError:
        seconds = 0.0
    if not 0 < seconds < float("inf"):
        raise ValueError(f"PIPELINE_READ_BUDGET_SECONDS must be a positive number of seconds, got {value!r}")
    return seconds
