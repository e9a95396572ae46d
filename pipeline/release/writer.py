"""Writing a release's table files into its staging folder: Hive partitions, row fingerprints, Parquet
files, files reused from the parent (hard links, checked first), fsync.

A partition whose rows have the same fingerprint as the parent's file is not rewritten: the parent's file
is hard-linked, after its sha256 is checked against the parent's manifest. A parent file that fails the
check is not reused: the partition is written anew from the rows in hand (same rows and writer settings,
so the same bytes the parent should have had), and a warning names the damaged file.

Each file is hashed once per publish: a parent file whose sha256 the plan already checked
(pipeline.release.plan, ``verified``) is linked without a second hash while its identity (device, inode,
size, mtime, ctime: pipeline.release.read.file_identity) is the one taken then; and the identity of every
file linked here is handed to the verification of the staged release, which then checks that identity
instead of hashing the same bytes again.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq

from pipeline.release.layout import IO_THREADS, SORT_KEYS, TABLES, fsync_path, partition_columns
from pipeline.release.manifest import FileEntry
from pipeline.release.read import FileIdentity, file_identity, sha256_file
from pipeline.runtime.progress import SILENT, Reporter, Step

#: The (venue, year) of an empty table's one file.
EMPTY_PARTITION = ("unknown", 0)


@dataclass(frozen=True)
class Partition:
    """One partition file of a table: ``rel`` (path relative to the release folder), ``rows`` (int),
    ``fingerprint`` (:func:`fingerprint` of its rows) and ``load`` (returns its rows without venue/year,
    sorted; called only when the file is written, not when the parent's file is reused)."""

    rel: str
    rows: int
    fingerprint: str
    load: Callable[[], pl.DataFrame]


@dataclass(frozen=True)
class TableParts:
    """One table as the publish takes it: ``schema`` (polars Schema, venue and year included, in column
    order), ``rows`` (int), ``partitions`` (:class:`Partition`, in path order) and ``scan`` (returns a
    LazyFrame of every row with venue/year, for the statistics of the card and the changelog, which read
    a few columns)."""

    schema: pl.Schema
    rows: int
    partitions: tuple[Partition, ...]
    scan: Callable[[], pl.LazyFrame]

    @classmethod
    def of_frame(cls, df: pl.DataFrame, table: str) -> TableParts:
        """A table held in memory (its partitions from :func:`partitions`)."""
        return cls(df.schema, df.height, tuple(partitions(df, table)), df.lazy)


def partition_path(table: str, venue: object, year: object) -> str:
    """``<table>/venue=<venue>/year=<year>/part-0.parquet`` (relative to the release folder); a global
    table's one file is ``<table>/part-0.parquet`` (venue and year ignored)."""
    if not partition_columns(table):
        return f"{table}/part-0.parquet"
    return (Path(table) / f"venue={venue}" / f"year={year}" / "part-0.parquet").as_posix()


def sort_partition(df: pl.DataFrame, table: str) -> pl.DataFrame:
    """``df`` (rows of one or more partitions) in file order: by venue, year, then the table's sort keys (a
    global table: its sort keys, nulls last)."""
    if not partition_columns(table):
        return df.sort(SORT_KEYS[table], nulls_last=True)
    return df.sort([*partition_columns(table), *SORT_KEYS[table]])


def fingerprint(rows: pl.DataFrame) -> str:
    """sha256 over the polars version, the schema and polars ``hash_rows`` of one partition's sorted rows
    (without venue/year; polars row hashes are stable within one polars version only, hence the version in
    it)."""
    h = hashlib.sha256(f"polars {pl.__version__}\0{rows.schema}\0{rows.height}\0".encode())
    if rows.height:
        h.update(rows.hash_rows(seed=0).to_numpy().tobytes())
    return h.hexdigest()


def _same(rows: pl.DataFrame) -> pl.DataFrame:
    return rows


def split(df: pl.DataFrame, table: str) -> list[tuple[object, object, pl.DataFrame]]:
    """``df``'s Hive partitions in path order: ``(venue, year, rows)``, each sorted by
    :func:`sort_partition`, venue and year kept. An empty ``df`` is one partition ``venue=unknown/year=0``;
    a global table is one partition (venue and year None)."""
    if not partition_columns(table):
        return [(None, None, sort_partition(df, table))]
    if not df.height:
        return [(*EMPTY_PARTITION, df)]
    groups = sort_partition(df, table).partition_by(
        list(partition_columns(table)), as_dict=True, maintain_order=True
    )
    return [(venue, year, part) for (venue, year), part in sorted(groups.items())]


def partitions(df: pl.DataFrame, table: str) -> list[Partition]:
    """``df`` split into its Hive partitions (:class:`Partition`, in path order; :func:`split`)."""
    out = []
    for venue, year, part in split(df, table):
        rows = part.drop(partition_columns(table))
        out.append(
            Partition(
                partition_path(table, venue, year), rows.height, fingerprint(rows), partial(_same, rows)
            )
        )
    return out


def content_fingerprint(parts: dict[str, list[Partition]]) -> str:
    """sha256 over every partition's path and fingerprint. Equal to the parent release's: the content is
    unchanged and nothing is written."""
    h = hashlib.sha256()
    for name in TABLES:
        for p in parts[name]:
            h.update(f"{p.rel}\0{p.fingerprint}\n".encode())
    return h.hexdigest()


def content_digest(written: dict[str, list[FileEntry]]) -> str:
    """sha256 over every table's files (path and sha256). Files are written deterministically (sorted rows,
    fixed writer settings), so equal content gives an equal digest, i.e. an equal ``release_id``."""
    h = hashlib.sha256()
    for name in TABLES:
        for f in written[name]:
            h.update(f"{f.path}\0{f.sha256}\n".encode())
    return h.hexdigest()


def write_partition(
    part: Partition,
    root: Path,
    parent: Path | None,
    parent_entry: FileEntry | None,
    trusted: FileIdentity | None = None,
    linked: dict[str, FileIdentity] | None = None,
) -> tuple[FileEntry, str | None]:
    """Write one partition file under ``root`` (its rows loaded only then), or hard-link the parent
    release's file when its fingerprint is the same and its bytes match the parent's manifest: its sha256
    is checked, unless ``trusted`` (the
    identity it had when its sha256 was checked earlier in this publish's plan) equals its identity now.

    ``linked``: when given, a hard-linked file's path → its identity after the link is recorded when its
    device, inode, size and mtime are those it had before the check (nothing wrote to it in between).
    Returns the file's manifest entry and a warning (the damaged parent file that was not reused) or None."""
    rel = part.rel
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    warning = None
    if (
        parent is not None
        and parent_entry is not None
        and parent_entry.fingerprint == part.fingerprint
        and (parent / rel).is_file()
    ):
        before = file_identity(parent / rel)
        if (trusted is not None and before == tuple(trusted)) or sha256_file(
            parent / rel
        ) == parent_entry.sha256:
            try:
                os.link(parent / rel, path)
            except OSError:  # a filesystem without hard links: copy (verified by hashing, as written)
                shutil.copyfile(parent / rel, path)
                return parent_entry, None
            after = file_identity(path)
            if linked is not None and after[:4] == before[:4]:
                linked[rel] = after
            return parent_entry, None
        warning = (
            f"{parent / rel} fails its sha256 check against its release's manifest (damaged); "
            "written anew instead of reused"
        )
    rows = part.load()
    pq.write_table(rows.to_arrow(), path, compression="zstd")
    del rows
    return FileEntry(rel, part.rows, path.stat().st_size, sha256_file(path), part.fingerprint), warning


def _counted(result: tuple[FileEntry, str | None], step: Step) -> tuple[FileEntry, str | None]:
    step.advance()
    return result


def write_tables(
    parts: dict[str, list[Partition]],
    stage: Path,
    parent: Path | None,
    parent_files: dict[str, FileEntry],
    trusted: dict[str, FileIdentity] | None = None,
    progress: Reporter = SILENT,
) -> tuple[dict[str, list[FileEntry]], list[str], dict[str, FileIdentity]]:
    """Write every table's partitions into ``stage`` (threads: pyarrow and hashlib release the GIL).

    ``trusted``: parent files checked by the plan (path → identity then; see :func:`write_partition`).
    Returns the file entries per table (in partition order), the warnings of :func:`write_partition`, and
    the hard-linked files (path → identity after the link) for the verification of the staged release.
    ``progress`` counts ``files written`` n/N (a file linked from the parent counts as written)."""
    trusted = trusted or {}
    linked: dict[str, FileIdentity] = {}
    with ThreadPoolExecutor(max_workers=IO_THREADS) as pool:
        jobs = {
            name: [
                pool.submit(
                    write_partition,
                    p,
                    stage,
                    parent,
                    parent_files.get(p.rel),
                    trusted.get(p.rel),
                    linked,
                )
                for p in parts[name]
            ]
            for name in TABLES
        }
        with progress.step("files written", sum(map(len, jobs.values())), "files") as step:
            done = {name: [_counted(job.result(), step) for job in jobs[name]] for name in TABLES}
    written = {name: [entry for entry, _ in done[name]] for name in TABLES}
    warnings = [w for name in TABLES for _, w in done[name] if w]
    return written, warnings, linked


def fsync_tree(root: Path) -> None:
    """fsync every folder under ``root`` and every file in it, except hard links to the parent release's
    files (``st_nlink`` > 1: their bytes were made durable when that release was published)."""
    for dirpath, _, filenames in os.walk(root):
        for name in filenames:
            path = os.path.join(dirpath, name)
            if os.stat(path).st_nlink == 1:
                fsync_path(path)
        fsync_path(dirpath)
