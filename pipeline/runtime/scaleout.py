"""Running the pipeline beyond one process: Dagster's instance on Postgres, steps on Celery workers.

Two switches, both read from the environment at call time (nothing changes while they are unset):

- ``PIPELINE_INSTANCE`` = ``sqlite`` (default: the embedded SQLite instance in ``DAGSTER_HOME``) or
  ``postgres``: the ``dagster.yaml`` that ``pipeline.runtime.config.ensure_dagster_home`` writes then puts
  the run, event-log and schedule storage on Postgres (``dagster-postgres``, optional extra ``scaleout``), so
  every process and machine that uses the same ``DAGSTER_HOME`` settings shares runs, partitions and the event
  log. The server is named by ``DAGSTER_PG_URL``
  (``postgresql+psycopg2://user[:password]@host:port/database``). The file
  refers to the variable (``postgres_url: {env: DAGSTER_PG_URL}``) instead of copying it, so a password
  never lands in ``dagster.yaml`` and every process reads the URL from its own environment.
- ``PIPELINE_EXECUTOR`` = ``multiprocess`` (default: one process per step, ``PIPELINE_MAX_CONCURRENT`` at
  once) or ``celery``: runs launched by ``dagster dev``, the daemon, ``dg launch`` or
  ``dagster asset materialize`` send each step to a Celery worker (``dagster-celery``) through the broker
  ``PIPELINE_CELERY_BROKER`` (e.g. ``redis://host:6379/0``); results go back through
  ``PIPELINE_CELERY_BACKEND`` (default: the broker). Workers are started with ``dagster-celery worker start
  -A dagster_celery.app -y <file>``, where the file is :func:`celery_worker_yaml`. Celery needs the shared
  instance (Postgres) and ``raw/`` and ``warehouse/`` at the same path for every worker.

``python -m pipeline run`` executes in its own process and ignores ``PIPELINE_EXECUTOR`` (it still uses the
instance ``PIPELINE_INSTANCE`` selects).
"""

from __future__ import annotations

import os
from urllib.parse import urlsplit

#: Values of ``PIPELINE_INSTANCE``.
INSTANCES = ("sqlite", "postgres")
#: Values of ``PIPELINE_EXECUTOR``.
EXECUTORS = ("multiprocess", "celery")
#: Celery settings every worker and every run use: a worker takes one step at a time and acknowledges it
#: when done (not when received), so a busy worker does not hold a second step while another worker is idle
#: (Celery's ``worker_prefetch_multiplier`` / ``task_acks_late``).
CELERY_SETTINGS = {"worker_prefetch_multiplier": 1, "task_acks_late": True}


def _choice(var: str, allowed: tuple[str, ...]) -> str:
    value = os.environ.get(var, "").strip().lower() or allowed[0]
    if value not in allowed:
        raise ValueError(f"{var} must be one of {', '.join(allowed)}; got {value!r}")
    return value


def instance_kind() -> str:
    """``PIPELINE_INSTANCE``: ``sqlite`` (default) or ``postgres``. Raises ValueError otherwise."""
    return _choice("PIPELINE_INSTANCE", INSTANCES)


#: URL scheme of ``DAGSTER_PG_URL``: SQLAlchemy with the psycopg2 driver, which dagster-postgres installs
#: and uses (SQLAlchemy 2.1 reads a bare ``postgresql://`` as psycopg 3, which is not installed).
PG_SCHEME = "postgresql+psycopg2"


def postgres_url() -> str:
    """``DAGSTER_PG_URL``, checked: ``postgresql+psycopg2://user[:password]@host[:port]/database``.

    Raises ValueError naming the variable when it is missing, uses another scheme (the message gives the
    URL to write instead, password masked) or lacks the host or the database name."""
    url = os.environ.get("DAGSTER_PG_URL", "").strip()
    if not url:
        raise ValueError(
            f"PIPELINE_INSTANCE=postgres needs DAGSTER_PG_URL "
            f"({PG_SCHEME}://user[:password]@host:port/database)"
        )
    parts = urlsplit(url)
    shown = (
        parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@"))
        if parts.password
        else parts
    )
    if parts.scheme in ("postgresql", "postgres"):
        raise ValueError(
            f"DAGSTER_PG_URL must start with {PG_SCHEME}:// (dagster-postgres uses psycopg2; "
            f"a bare {parts.scheme}:// selects psycopg 3): write "
            f"{shown._replace(scheme=PG_SCHEME).geturl()}"
        )
    if parts.scheme != PG_SCHEME or not parts.hostname or not parts.path.strip("/"):
        raise ValueError(
            f"DAGSTER_PG_URL must look like {PG_SCHEME}://user[:password]@host:port/database; "
            f"got {shown.geturl()!r}"
        )
    return url


def storage_yaml() -> str:
    """The ``storage:`` block of ``dagster.yaml`` for :func:`instance_kind`: empty for ``sqlite`` (Dagster's
    default, files under ``DAGSTER_HOME``); for ``postgres`` one ``storage: postgres:`` block, which Dagster
    uses for the run, event-log and schedule storage alike. Raises ValueError (see :func:`postgres_url`)."""
    if instance_kind() == "sqlite":
        return ""
    postgres_url()  # fail here, with the variable's name, rather than in the first Dagster process
    return "storage:\n  postgres:\n    postgres_url:\n      env: DAGSTER_PG_URL\n"


def executor_kind() -> str:
    """``PIPELINE_EXECUTOR``: ``multiprocess`` (default) or ``celery``. Raises ValueError otherwise."""
    return _choice("PIPELINE_EXECUTOR", EXECUTORS)


def celery_config() -> dict:
    """The ``celery_executor`` config (also the workers'): broker ``PIPELINE_CELERY_BROKER`` (required),
    backend ``PIPELINE_CELERY_BACKEND`` (default: the broker), :data:`CELERY_SETTINGS`. Raises ValueError
    when the broker is not set."""
    broker = os.environ.get("PIPELINE_CELERY_BROKER", "").strip()
    if not broker:
        raise ValueError(
            "PIPELINE_EXECUTOR=celery needs PIPELINE_CELERY_BROKER (e.g. redis://127.0.0.1:6379/0)"
        )
    backend = os.environ.get("PIPELINE_CELERY_BACKEND", "").strip() or broker
    return {"broker": broker, "backend": backend, "config_source": dict(CELERY_SETTINGS)}


def celery_worker_yaml() -> str:
    """The ``-y`` file for ``dagster-celery worker start``: the same broker, backend and settings as the
    runs' executor (:func:`celery_config`), under ``execution: config:``."""
    import yaml

    return yaml.safe_dump({"execution": {"config": celery_config()}}, sort_keys=True)


def executor(max_concurrent: int):
    """The executor of the code location: Dagster's multiprocess executor with ``max_concurrent`` steps at
    once, or, with ``PIPELINE_EXECUTOR=celery``, ``dagster_celery.celery_executor`` configured by
    :func:`celery_config` (raises ImportError naming the extra when dagster-celery is not installed)."""
    import dagster as dg

    if executor_kind() == "multiprocess":
        return dg.multiprocess_executor.configured({"max_concurrent": max_concurrent})
    try:
        from dagster_celery import celery_executor
    except ImportError as err:
        raise ImportError(
            "PIPELINE_EXECUTOR=celery needs dagster-celery: pip install -e '.[scaleout]'"
        ) from err
    return celery_executor.configured(celery_config())
