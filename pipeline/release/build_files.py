"""Builds: the tables and release plan one run made for its publish step.

The tables step writes into its own folder, ``<work>/builds/<run id>/``::

    papers/ paper_urls/ paper_metrics/ listing_lineage/    the four tables: batch-<k>.arrow each
    tables.json                                            their partitions: rows, fingerprint
    release_changes.arrow                                  the diff against the parent
    release_plan.json                                      the plan, written last

Each table is written one batch of whole partitions at a time (:class:`BuildWriter`):
``<table>/batch-<k>.arrow`` holds one Arrow record batch per Hive partition of the release, venue and year
included, in the release's file order (pipeline.release.writer.sort_partition) and dtypes
(pipeline.release.conform.conform against the parent), and ``tables.json`` lists each table's partitions
(file, record batch, rows, fingerprint)
(pipeline.release.writer.fingerprint), so the publish step reuses the parent's file of an unchanged
partition without reading it, and reads the others one at a time (:func:`read_tables`).

A build is *complete* when its ``release_plan.json`` exists (written after every table, and only when every
blocking check of the tables passed); a build whose checks failed holds ``checks_failed.json`` instead (the
failed checks), so it is never published, not even by a later publish-only run (:func:`newer_failed`). The
publish step of the same run reads the same folder, so two runs that overlap never publish a mix of each
other's tables; a publish run without a tables step takes the latest complete build (:func:`latest_complete`)
unless a newer build failed its checks. After a publish, :func:`clean` removes the builds of runs that are
no longer active, except the one just published; a tables step that fails removes its own build, and before
writing, every tables step removes the unfinished builds of runs no longer active
(:func:`clean_unfinished`), so failed runs leave no debris.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import uuid
from collections.abc import Callable
from functools import partial
from pathlib import Path

import polars as pl
import pyarrow as pa
import pyarrow.ipc  # noqa: F401  (pa.ipc)

from pipeline.release import reuse, writer
from pipeline.release.layout import TABLES, ReleaseError, partition_columns, write_atomic
from pipeline.release.manifest import FileEntry
from pipeline.release.plan import ReleasePlan
from pipeline.release.read import HIVE_DTYPES
from pipeline.release.retention import process_alive

BUILDS_DIR = "builds"
TABLES_FILE = "tables.json"
#: Key of ``tables.json`` holding, per table with a reused partition, its column order.
COLUMNS_KEY = "_columns"
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


def complete(build: Path, plan: ReleasePlan, failed_checks: list[str]) -> None:
    """Finish the tables step's build: the diff against the parent (:data:`CHANGES_FILE`, Arrow IPC), then
    either :data:`FAILED_FILE` (``{"failed_checks": [...]}``, the ``"<table>: <check>"`` of each failed
    blocking check: never publishable, not even by a later publish-only run) or the plan
    (:data:`PLAN_FILE`, last: the build is complete). Each file is replaced atomically."""
    assert plan.changes is not None  # the build computes the diff
    changes = Path(build) / CHANGES_FILE
    tmp = changes.with_name(f".{changes.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    plan.changes.write_ipc(tmp)
    tmp.replace(changes)
    if failed_checks:
        write_atomic(Path(build) / FAILED_FILE, json.dumps({"failed_checks": failed_checks}))
    else:
        write_atomic(Path(build) / PLAN_FILE, json.dumps(plan.to_json()))


def to_publish(work: Path, run_id: str) -> Path:
    """The build the publish step of run ``run_id`` publishes: the run's own build when complete, else the
    latest complete build (:func:`latest_complete`).

    Raises ReleaseError when the run has no complete build and the newest build failed its blocking checks
    (:func:`newer_failed`: nothing is published from an older build), or when there is no complete build."""
    own = build_dir(work, run_id)
    build = own if is_complete(own) else latest_complete(work)
    if build != own and (failed := newer_failed(work, build)) is not None:
        raise ReleaseError(
            f"the newest build of the dataset tables ({failed}) failed its blocking checks "
            f"({(failed / FAILED_FILE).read_text()}); nothing is published from an older "
            "build: fix the inputs or rules and materialise the dataset group again"
        )
    if build is None:
        raise ReleaseError(
            f"no complete build of the dataset tables in {Path(work) / BUILDS_DIR}: "
            "materialise the dataset group again (or run `python -m pipeline run`)"
        )
    return build


def read_plan(build: Path, warehouse: Path) -> ReleasePlan:
    """The release plan a complete build was made with (:data:`PLAN_FILE` and its diff
    :data:`CHANGES_FILE`), for ``warehouse`` (pipeline.release.plan.ReleasePlan.from_json)."""
    plan = json.loads((Path(build) / PLAN_FILE).read_text())
    return ReleasePlan.from_json(plan, pl.read_ipc(Path(build) / CHANGES_FILE), warehouse)


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


#: File in a build folder naming the process writing it (``{"pid": ..., "host": ...}``, :func:`claim`).
WRITER_FILE = "writer.json"


def claim(build: Path) -> None:
    """Create ``build`` and record in it (:data:`WRITER_FILE`) the process that writes it (this one), so that
    :func:`clean_unfinished` can tell the build of a killed process from one still being written."""
    build.mkdir(parents=True, exist_ok=True)
    (build / WRITER_FILE).write_text(json.dumps({"pid": os.getpid(), "host": socket.gethostname()}))


def _writer_gone(build: Path) -> bool:
    """True when the process that :func:`claim`-ed ``build`` ran on this host and is no longer running (a
    pid reused since makes it look alive: the build is then kept, the safe side)."""
    try:
        writer_of = json.loads((build / WRITER_FILE).read_text())
        pid, host = int(writer_of["pid"]), str(writer_of["host"])
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return host == socket.gethostname() and not process_alive(pid)


def clean_unfinished(work: Path, is_active: Callable[[str], bool]) -> list[Path]:
    """Remove the build folders that are neither complete (:func:`is_complete`) nor marked failed
    (:data:`FAILED_FILE`) and whose run is no longer active (``is_active(run_id)`` False) or whose writing
    process is gone (:func:`claim`; a run killed with ``kill -9`` stays "started" in Dagster's instance for
    ever): the debris of a tables step that died or failed while writing (a full disk, a kill). Called
    before a tables step writes, so retries do not use up the space each failed run left. Complete and
    failed-checks builds are kept (a publish-only run needs them: :func:`to_publish`). Returns the removed
    paths."""
    root = Path(work) / BUILDS_DIR
    if not root.is_dir():
        return []
    removed = []
    for p in sorted(root.iterdir()):
        if not p.is_dir() or is_complete(p) or (p / FAILED_FILE).is_file():
            continue
        if not is_active(p.name) or _writer_gone(p):
            shutil.rmtree(p, ignore_errors=True)
            removed.append(p)
    return removed


class BuildWriter:
    """Writes a build's tables one batch of whole partitions at a time (see the module docstring):
    ``<table>/batch-<k>.arrow`` per batch, one Arrow record batch per partition, so a partition is read
    back alone (:func:`read_tables`). :meth:`finish` writes ``tables.json``. A table given no row is one
    empty file under venue=unknown/year=0, as in a release."""

    def __init__(self, build: Path):
        self.build = Path(build)
        self.index: dict[str, list[dict]] = {name: [] for name in TABLES}
        self.empty: dict[str, pl.DataFrame] = {}
        self.files: dict[str, int] = {name: 0 for name in TABLES}
        self.columns: dict[str, list[str]] = {}

    def add_reused(self, table: str, file: Path, entry: FileEntry, columns: list[str]) -> None:
        """List the parent release's ``file`` (its manifest ``entry``) as one partition of ``table``, as it is
        (pipeline.release.reuse): nothing is written; ``columns`` is the table's column order, venue and
        year included (the parent's manifest)."""
        self.columns.setdefault(table, list(columns))
        self.index[table].append(
            {
                "path": entry.path,
                "file": str(file),
                "batch": None,
                "rows": entry.rows,
                "fingerprint": entry.fingerprint,
                "parquet": True,
            }
        )

    def add(self, table: str, df: pl.DataFrame) -> None:
        """Write ``df``: the rows of whole partitions of ``table`` (dtypes final), split and sorted here into
        file order (pipeline.release.writer.split); an empty ``df`` only keeps its schema for an empty
        table."""
        if df.height == 0:
            self.empty.setdefault(table, df)
            return
        file = f"{table}/batch-{self.files[table]:04d}.arrow"
        self.files[table] += 1
        path = self.build / file
        path.parent.mkdir(parents=True, exist_ok=True)
        with pa.OSFile(str(path), "wb") as sink:
            ipc = None
            for i, (venue, year, part) in enumerate(writer.split(df, table)):
                batch = part.to_arrow().combine_chunks().to_batches()
                assert len(batch) == 1  # a partition with rows is one record batch
                if ipc is None:
                    ipc = pa.ipc.new_file(sink, batch[0].schema)
                ipc.write_batch(batch[0])
                self._entry(table, venue, year, file, i, part)
            assert ipc is not None
            ipc.close()

    def _entry(
        self, table: str, venue: object, year: object, file: str, batch: int | None, part: pl.DataFrame
    ) -> None:
        rows = part.drop(partition_columns(table))
        self.index[table].append(
            {
                "path": writer.partition_path(table, venue, year),
                "file": file,
                "batch": batch,
                "rows": rows.height,
                "fingerprint": writer.fingerprint(rows),
            }
        )

    def finish(self) -> dict[str, writer.TableParts]:
        """Write ``tables.json`` (every table's partitions in path order) and return :func:`read_tables`."""
        for table in TABLES:
            if not self.index[table]:
                empty = self.empty[table].clear()
                file = f"{table}/empty.arrow"
                (self.build / table).mkdir(parents=True, exist_ok=True)
                empty.write_ipc(self.build / file)
                self._entry(table, *writer.EMPTY_PARTITION, file, None, empty)
            self.index[table].sort(key=lambda e: e["path"])
        index = {**self.index, COLUMNS_KEY: self.columns} if self.columns else self.index
        (self.build / TABLES_FILE).write_text(json.dumps(index, indent=1))
        return read_tables(self.build)


def _load_reused(path: Path) -> pl.DataFrame:
    """A reused partition's rows: the parent release's file ``path`` as it is (no Hive columns). The
    publish calls it only when that file no longer matches the manifest it was checked against when the
    tables were built (pipeline.release.reuse.verified): then it raises ReleaseError, since the build holds
    no other copy of those rows."""
    raise ReleaseError(
        f"{path} changed or was damaged since the tables were built from it; nothing was published. Run "
        "again: the tables step then rebuilds that partition (`python -m pipeline verify --all` shows the "
        "damage)"
    )


def _load(table: str, path: Path, batch: int | None) -> pl.DataFrame:
    """One partition of a build's ``table`` (record batch ``batch`` of ``path``; None: the whole file),
    without its Hive columns (as its release file holds it). Only that record batch is read."""
    if batch is None:
        return pl.read_ipc(path).drop(partition_columns(table))
    with pa.OSFile(str(path), "rb") as source:
        frame = pl.from_arrow(pa.ipc.open_file(source).get_batch(batch))
    assert isinstance(frame, pl.DataFrame)
    return frame.drop(partition_columns(table))


def _scan(files: list[Path]) -> pl.LazyFrame:
    """A build table's files as one lazy scan, rows in file order."""
    return pl.scan_ipc(files, hive_partitioning=False)


def _scan_mixed(sources: list[tuple[Path, dict | None]], schema: pl.Schema) -> pl.LazyFrame:
    """A build table's files in order, each a build file (``None``) or a reused parent file (its
    ``tables.json`` entry; consecutive ones read by one scan, pipeline.release.reuse.scan_partitions), as
    one lazy scan of ``schema``."""
    frames, run = [], []
    for path, entry in [*sources, (None, None)]:
        if entry is not None:
            run.append((str(path), entry["path"]))
            continue
        if run:
            frames.append(reuse.scan_partitions(run).select(list(schema)))
            run = []
        if path is not None:
            frames.append(pl.scan_ipc(path, hive_partitioning=False))
    return pl.concat(frames, how="vertical")


def _schema(table: str, sources: list[tuple[Path, dict | None]], columns: list[str] | None) -> pl.Schema:
    """The schema of a build table: its first build file's, else (every partition reused) the parent
    files' with the Hive columns (pipeline.release.read.HIVE_DTYPES) in ``columns`` order."""
    built = [path for path, entry in sources if entry is None]
    if built:
        return _scan(built[:1]).collect_schema()
    stored = pl.scan_parquet(sources[0][0], hive_partitioning=False).collect_schema()
    types: dict = {**stored, **{c: HIVE_DTYPES[c] for c in partition_columns(table)}}
    return pl.Schema({c: types[c] for c in (columns or list(types))})


def read_tables(build: Path) -> dict[str, writer.TableParts]:
    """The tables of a build (its ``tables.json``): one :class:`pipeline.release.writer.TableParts` each,
    whose partitions read their own record batch when written and whose scan reads the files lazily.

    Raises FileNotFoundError when the build has no ``tables.json``."""
    build = Path(build)
    index = json.loads((build / TABLES_FILE).read_text())
    columns = index.get(COLUMNS_KEY, {})
    out = {}
    for table in TABLES:
        entries = index[table]
        # each file once, in order of its first partition; a reused file is the parent's, named absolutely
        sources = list({build / e["file"]: (e if e.get("parquet") else None) for e in entries}.items())
        schema = _schema(table, sources, columns.get(table))
        mixed = any(entry is not None for _, entry in sources)
        out[table] = writer.TableParts(
            schema,
            sum(e["rows"] for e in entries),
            tuple(
                writer.Partition(
                    e["path"],
                    e["rows"],
                    e["fingerprint"],
                    partial(_load_reused, build / e["file"])
                    if e.get("parquet")
                    else partial(_load, table, build / e["file"], e["batch"]),
                )
                for e in entries
            ),
            partial(_scan_mixed, sources, schema) if mixed else partial(_scan, [p for p, _ in sources]),
        )
    return out
