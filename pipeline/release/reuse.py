"""Partitions of the parent release taken as they are: the tables step builds only what changed.

A (venue, year) partition's rows in the four per-paper tables are a function of (pipeline.release.dataset):
the abstracts work files that hold its rows, its rows' duplicate clusters, notices and filled fields
(computed globally, each row's own), the parent's schema the tables are conformed to, and the code and
library versions. :func:`input_digests` folds these into one digest per partition.

After every build the work folder keeps a *memory* (``partition_inputs.json``): for each partition's input
digest, the output fingerprint of each of its tables' files (pipeline.release.writer.fingerprint, ``null``
for a table the partition has no row in). The next build takes a partition from the parent release, without
building, checking or writing it, when its input digest is in the memory and the parent's files of that
partition have exactly those fingerprints (:func:`reusable`): the parent's files then hold what building
would give. The papers' history columns are inside the fingerprint, and a paper equal to its parent's row
keeps its parent's history, so the reused rows equal the rebuilt ones. A memory lost, damaged or made by
other code only costs the reuse: every partition is built.

Measured on the dev corpus (58k abstracts, 152 partitions) with one listing of 500 added: the tables step's
per-partition work (reading the rows, building, stamping, Pandera, writing) is about two thirds of the step
(docs/benchmarks.md, "Where the time goes").
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path

import polars as pl
import xxhash

from pipeline.release.layout import PARTITIONED_TABLES, write_atomic
from pipeline.release.manifest import FileEntry
from pipeline.release.read import FileIdentity, file_identity, sha256_file
from pipeline.release.writer import partition_path

#: The memory's file name in the work folder.
MEMORY_FILE = "partition_inputs.json"
#: Version of what :func:`input_digests` folds in; bump when it changes.
DIGEST_VERSION = "1"

Key = tuple[str, int]


def file_digests(files: Iterable[str]) -> dict[str, str]:
    """xxh3-128 of each file's bytes (path → 32 hex digits): which abstracts a work file holds."""
    out = {}
    for f in files:
        with open(f, "rb") as fh:
            out[f] = xxhash.xxh3_128_hexdigest(fh.read())
    return out


def frame_digest(df: pl.DataFrame, by: list[str]) -> bytes:
    """A digest of a frame's schema and rows in ``by`` order (polars ``hash_rows``, seed 0; stable within
    one polars version, which :func:`input_digests` folds in)."""
    h = hashlib.sha256(f"{df.schema}\0{df.height}\0".encode())
    if df.height:
        h.update(df.sort(by).hash_rows(seed=0).to_numpy().tobytes())
    return h.digest()


def input_digests(
    files_of: Mapping[Key, list[str]],
    file_digest: Mapping[str, str],
    frames_of: Mapping[Key, list[bytes]],
    context: str,
) -> dict[Key, str]:
    """One hex digest per partition over: ``context`` (code, library and schema versions, the dtypes the
    tables are conformed to), the names and :func:`file_digests` of the work files holding its rows, and
    the :func:`frame_digest` of each of its global frames (clusters, notices, fills), in the order given."""
    out = {}
    for key, files in files_of.items():
        h = hashlib.sha256(f"{DIGEST_VERSION}\0{context}\0{key[0]}\0{key[1]}\0".encode())
        for f in sorted(files, key=lambda p: Path(p).name):
            h.update(f"{Path(f).name}\0{file_digest[f]}\n".encode())
        for part in frames_of.get(key, []):
            h.update(part)
        out[key] = h.hexdigest()
    return out


def read_memory(path: Path) -> dict[str, dict[str, str | None]]:
    """The memory at ``path`` (input digest → table → output fingerprint or None); empty when absent or
    unreadable (the reuse is lost, nothing else)."""
    try:
        data = json.loads(Path(path).read_text())
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def write_memory(path: Path, entries: dict[str, dict[str, str | None]]) -> None:
    """Replace the memory at ``path`` with ``entries`` (atomically; an OSError is not raised: it only costs
    the next build its reuse)."""
    try:
        write_atomic(Path(path), json.dumps(entries, indent=0, sort_keys=True))
    except OSError:
        pass


def reusable(
    digests: Mapping[Key, str],
    memory: Mapping[str, Mapping[str, str | None]],
    parent_files: Mapping[str, FileEntry],
) -> dict[Key, dict[str, FileEntry]]:
    """The partitions the parent release holds as building them would give: key → table → the parent's
    file (tables the partition has no row in are left out). A partition qualifies when the memory holds
    its input digest and, for every per-paper table, the parent's file of the partition has the
    remembered fingerprint (or there is none, and the memory says the table has no row there)."""
    out: dict[Key, dict[str, FileEntry]] = {}
    for key, digest in digests.items():
        outputs = memory.get(digest)
        if not isinstance(outputs, Mapping):
            continue
        files: dict[str, FileEntry] = {}
        for table in PARTITIONED_TABLES:
            entry = parent_files.get(partition_path(table, *key))
            want = outputs.get(table, "missing")
            if entry is None and want is None:
                continue
            if entry is None or entry.fingerprint != want:
                break
            files[table] = entry
        else:
            if files:
                out[key] = files
    return out


_PATH = "__reused_file"


def scan_partitions(files: list[tuple[str, str]], columns: list[str] | None = None) -> pl.LazyFrame:
    """Partition files of a release (``(file, its path in the release)``: ``<table>/venue=V/year=Y/...``) as
    one lazy scan of ``columns`` (None: every stored column) with ``venue`` (String) and ``year`` (Int64)
    from their paths, rows in file order."""
    venue, year = {}, {}
    for file, rel in files:
        hive = dict(part.split("=", 1) for part in Path(rel).parts[1:-1])
        venue[file], year[file] = hive["venue"], int(hive["year"])
    scan = pl.scan_parquet([f for f, _ in files], hive_partitioning=False, include_file_paths=_PATH)
    return scan.select(
        *(columns if columns is not None else [pl.exclude(_PATH)]),
        pl.col(_PATH).replace_strict(venue, return_dtype=pl.String).alias("venue"),
        pl.col(_PATH).replace_strict(year, return_dtype=pl.Int64).alias("year"),
    )


def read_partitions(root: Path, entries: list[FileEntry], columns: list[str]) -> pl.DataFrame:
    """``columns`` of the partition files ``entries`` (manifest entries of the release folder ``root``, at
    least one), with ``venue`` and ``year`` (:func:`scan_partitions`)."""
    return scan_partitions([(str(Path(root) / e.path), e.path) for e in entries], columns).collect()


def verified(
    chosen: dict[Key, dict[str, FileEntry]], root: Path, known: Mapping[str, FileIdentity]
) -> tuple[dict[Key, dict[str, FileEntry]], dict[str, FileIdentity]]:
    """The ``chosen`` partitions whose parent files (under the release folder ``root``) hold the bytes their
    manifest names: a file in ``known`` (checked when the plan was made: path → its identity then) whose
    identity is unchanged, else one whose sha256 is checked now. A partition with a damaged file is left
    out (it is built; the publish writes that file anew). Returns the partitions and the identities of
    every file checked (to add to the plan's, so the publish links them without hashing them again)."""
    out, checked = {}, {}
    for key, files in chosen.items():
        ok = True
        for entry in files.values():
            path = Path(root) / entry.path
            try:
                ident = file_identity(path)
                if known.get(entry.path) != ident and sha256_file(path) != entry.sha256:
                    ok = False
                    break
            except OSError:
                ok = False
                break
            checked[entry.path] = ident
        if ok:
            out[key] = files
    return out, checked
