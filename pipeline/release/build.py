"""Builds: the tables and release plan one run made for its publish step.

The tables step writes into its own folder, ``<work>/builds/<run id>/``::

    papers/ paper_urls/ paper_metrics/ listing_lineage/    the four tables: venue=V/year=Y.arrow each
    tables.json                                            their partitions: rows, fingerprint
    release_changes.arrow                                  the diff against the parent
    release_plan.json                                      the plan, written last

Each table is written partition by partition (:class:`BuildWriter`): ``<table>/venue=V/year=Y.arrow``
holds the rows of one Hive partition of the release, venue and year included, in the release's file order
(pipeline.release.writer.sort_partition) and dtypes (pipeline.release.schema.conform against the parent),
and ``tables.json`` lists each table's partitions with their rows and fingerprints
(pipeline.release.writer.fingerprint), so the publish step reuses the parent's file of an unchanged
partition without reading it, and reads the others one at a time (:func:`read_tables`).

A build is *complete* when its ``release_plan.json`` exists (written after every table, and only when every
blocking check of the tables passed); a build whose checks failed holds ``checks_failed.json`` instead (the
failed checks), so it is never published, not even by a later publish-only run (:func:`newer_failed`). The
publish step of the same run reads the same folder, so two runs that overlap never publish a mix of each
other's tables; a publish run without a tables step takes the latest complete build (:func:`latest_complete`)
unless a newer build failed its checks. After a publish, :func:`clean` removes the builds of runs that are
no longer active, except the one just published.
"""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from functools import partial
from pathlib import Path

import polars as pl

from pipeline.release import writer
from pipeline.release.layout import PARTITION_COLUMNS, TABLES

BUILDS_DIR = "builds"
TABLES_FILE = "tables.json"
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


class BuildWriter:
    """Writes a build's tables one partition at a time (see the module docstring); :meth:`finish` writes
    ``tables.json``. A table given no partition is one empty file under venue=unknown/year=0, as in a
    release."""

    def __init__(self, build: Path):
        self.build = Path(build)
        self.index: dict[str, list[dict]] = {name: [] for name in TABLES}
        self.empty: dict[str, pl.DataFrame] = {}

    def add(self, table: str, df: pl.DataFrame) -> None:
        """Write ``df``: the rows of one partition of ``table`` (venue and year constant, dtypes final),
        sorted here into file order; an empty ``df`` only keeps its schema for an empty table."""
        if df.height == 0:
            self.empty.setdefault(table, df)
            return
        venue, year = df.row(0, named=True)["venue"], df.row(0, named=True)["year"]
        self._write(table, venue, year, writer.sort_partition(df, table))

    def _write(self, table: str, venue: object, year: object, df: pl.DataFrame) -> None:
        file = f"{table}/venue={venue}/year={year}.arrow"
        path = self.build / file
        path.parent.mkdir(parents=True, exist_ok=True)
        df.write_ipc(path)
        rel = writer.partition_path(table, venue, year)
        rows = df.drop(PARTITION_COLUMNS)
        self.index[table].append(
            {"path": rel, "file": file, "rows": rows.height, "fingerprint": writer.fingerprint(rows)}
        )

    def finish(self) -> dict[str, writer.TableParts]:
        """Write ``tables.json`` (every table's partitions in path order) and return :func:`read_tables`."""
        for table in TABLES:
            if not self.index[table]:
                self._write(table, *writer.EMPTY_PARTITION, self.empty[table].clear())
            self.index[table].sort(key=lambda e: e["path"])
        (self.build / TABLES_FILE).write_text(json.dumps(self.index, indent=1))
        return read_tables(self.build)


def _load(path: Path) -> pl.DataFrame:
    """One partition file of a build, without venue/year (as its release file holds it)."""
    return pl.read_ipc(path).drop(PARTITION_COLUMNS)


def _scan(files: list[Path]) -> pl.LazyFrame:
    """A build table's partition files as one lazy scan (file names carry ``venue=``: not Hive columns)."""
    return pl.scan_ipc(files, hive_partitioning=False)


def read_tables(build: Path) -> dict[str, writer.TableParts]:
    """The tables of a build (its ``tables.json``): one :class:`pipeline.release.writer.TableParts` each,
    whose partitions load their file when written and whose scan reads the partition files lazily.

    Raises FileNotFoundError when the build has no ``tables.json``."""
    build = Path(build)
    index = json.loads((build / TABLES_FILE).read_text())
    out = {}
    for table in TABLES:
        entries = index[table]
        files = [build / e["file"] for e in entries]
        out[table] = writer.TableParts(
            _scan(files[:1]).collect_schema(),
            sum(e["rows"] for e in entries),
            tuple(
                writer.Partition(e["path"], e["rows"], e["fingerprint"], partial(_load, f))
                for e, f in zip(entries, files)
            ),
            partial(_scan, files),
        )
    return out
