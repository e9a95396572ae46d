"""Builds: the tables and release plan one run made for its publish step.

The tables step writes into its own folder, ``<work>/builds/<run id>/``::

    papers.arrow  paper_urls.arrow  paper_metrics.arrow  listing_lineage.arrow   the four tables
    release_changes.arrow                                                        the diff against the parent
    release_plan.json                                                            the plan, written last

A build is *complete* when its ``release_plan.json`` exists (written after every table, and only when every
blocking check of the tables passed); a build whose checks failed holds ``checks_failed.json`` instead (the
failed checks), so it is never published, not even by a later publish-only run (:func:`newer_failed`). The
publish step of the same run reads the same folder, so two runs that overlap never publish a mix of each
other's tables; a publish run without a tables step takes the latest complete build (:func:`latest_complete`)
unless a newer build failed its checks. After a publish, :func:`clean` removes the builds of runs that are
no longer active, except the one just published.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

BUILDS_DIR = "builds"
PLAN_FILE = "release_plan.json"
CHANGES_FILE = "release_changes.arrow"
FAILED_FILE = "checks_failed.json"
#: Files an earlier layout kept directly in the work folder (one shared build for every run); removed by
#: :func:`clean`.
LEGACY_FILES = (
    "papers.arrow",
    "paper_urls.arrow",
    "paper_metrics.arrow",
    "listing_lineage.arrow",
    CHANGES_FILE,
    PLAN_FILE,
)
#: A build folder name: a Dagster run id (or any id of letters, digits, ``-`` and ``_``).
_BUILD_ID = re.compile(r"^[A-Za-z0-9_-]+$")


def build_dir(work: Path, run_id: str) -> Path:
    """The build folder of run ``run_id``: ``<work>/builds/<run_id>`` (not created here).

    Raises ValueError when ``run_id`` is not a plain id (letters, digits, ``-``, ``_``)."""
    if not _BUILD_ID.match(run_id):
        raise ValueError(f"not a run id usable as a folder name: {run_id!r}")
    return Path(work) / BUILDS_DIR / run_id


def is_complete(build: Path) -> bool:
    """True when ``build`` holds its plan (written last, after every table)."""
    return (Path(build) / PLAN_FILE).is_file()


def latest_complete(work: Path) -> Path | None:
    """The complete build whose plan was written last (mtime in ns, then name), or None."""
    root = Path(work) / BUILDS_DIR
    if not root.is_dir():
        return None
    builds = sorted(((p / PLAN_FILE).stat().st_mtime_ns, p.name) for p in root.iterdir() if is_complete(p))
    return root / builds[-1][1] if builds else None


def newer_failed(work: Path, than: Path | None) -> Path | None:
    """The newest build whose blocking checks failed (its :data:`FAILED_FILE`), when it was written after the
    plan of ``than`` (a complete build, or None for "any"); else None."""
    root = Path(work) / BUILDS_DIR
    if not root.is_dir():
        return None
    failed = sorted(
        ((p / FAILED_FILE).stat().st_mtime_ns, p.name) for p in root.iterdir() if (p / FAILED_FILE).is_file()
    )
    if not failed:
        return None
    if than is not None and (Path(than) / PLAN_FILE).stat().st_mtime_ns > failed[-1][0]:
        return None
    return root / failed[-1][1]


def clean(work: Path, keep: Path | None, is_active: Callable[[str], bool]) -> list[Path]:
    """Remove every build folder but ``keep`` whose run is not active (``is_active(run_id)`` False: the
    run finished, failed, or is unknown), and the :data:`LEGACY_FILES`. Returns the removed paths."""
    removed = []
    for name in LEGACY_FILES:
        if (Path(work) / name).is_file():
            (Path(work) / name).unlink()
            removed.append(Path(work) / name)
    root = Path(work) / BUILDS_DIR
    if not root.is_dir():
        return removed
    for p in sorted(root.iterdir()):
        if keep is not None and p.resolve() == Path(keep).resolve():
            continue
        if p.is_dir() and not is_active(p.name):
            shutil.rmtree(p, ignore_errors=True)
            removed.append(p)
    return removed
