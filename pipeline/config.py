"""Where the pipeline reads and writes.

Every path is read from the environment at call time (not import time), so tests and users can point the
pipeline anywhere by setting a variable:

- ``PIPELINE_RAW_DIR``        listing files (default ``raw/``)
- ``PIPELINE_WAREHOUSE_DIR``  releases and per-listing work files (default ``warehouse/``)
- ``PIPELINE_WORKERS``        processes for per-abstract work (default: the number of CPUs)
- ``PIPELINE_KEEP_RELEASES``  keep only the newest K releases (default: keep all)
- ``DAGSTER_HOME``            Dagster's instance (default ``.dagster_home/`` in the working directory)

Relative paths are resolved against the current working directory (the project root for ``make`` and
``dagster dev -w workspace.yaml``).
"""

from __future__ import annotations

import os
from pathlib import Path


def raw_dir() -> Path:
    """Folder holding the listing files (``PIPELINE_RAW_DIR``, default ``raw``)."""
    return Path(os.environ.get("PIPELINE_RAW_DIR", "raw")).resolve()


def warehouse_dir() -> Path:
    """Folder holding releases (``PIPELINE_WAREHOUSE_DIR``, default ``warehouse``)."""
    return Path(os.environ.get("PIPELINE_WAREHOUSE_DIR", "warehouse")).resolve()


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


def ensure_dagster_home() -> Path:
    """Set ``DAGSTER_HOME`` to ``.dagster_home`` in the working directory unless it is set; create it with
    a ``dagster.yaml`` (telemetry off; its absence makes Dagster warn) when missing. Returns the folder."""
    home = Path(os.environ.setdefault("DAGSTER_HOME", str(Path(".dagster_home").resolve())))
    home.mkdir(parents=True, exist_ok=True)
    cfg = home / "dagster.yaml"
    if not cfg.exists():
        cfg.write_text("telemetry:\n  enabled: false\n")
    return home


def workers() -> int:
    """Worker processes for per-abstract work: ``PIPELINE_WORKERS``, default ``os.cpu_count()``."""
    value = os.environ.get("PIPELINE_WORKERS", "").strip()
    if not value:
        return os.cpu_count() or 1
    if not value.isdigit() or int(value) < 1:
        raise ValueError(f"PIPELINE_WORKERS must be a positive integer, got {value!r}")
    return int(value)
