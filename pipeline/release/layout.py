"""Where a warehouse keeps its releases: folder and file names, the ``LATEST`` pointer, the ``releases.json``
index, and atomic small-file writes.

Every error here names the file and what to do (:class:`ReleaseError`), so the command line can print it
without a traceback.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

#: The per-paper tables, Hive-partitioned by :data:`PARTITION_COLUMNS` and built one batch of partitions
#: at a time (pipeline.release.dataset).
PARTITIONED_TABLES = ("papers", "paper_urls", "paper_metrics", "listing_lineage")
#: The tables global across partitions (a benchmark spans venues and years; docs/design.md, "Benchmark
#: tables"): one file each, ``<table>/part-0.parquet``, computed after the partitioned tables.
GLOBAL_TABLES = ("benchmarks", "benchmark_results")
TABLES = (*PARTITIONED_TABLES, *GLOBAL_TABLES)
PARTITION_COLUMNS = ("venue", "year")
#: Sort keys that make every file's row order (and so its bytes) deterministic.
SORT_KEYS = {
    "papers": ["paper_id"],
    "paper_urls": ["paper_id", "start", "end", "url"],
    "paper_metrics": ["paper_id", "start", "end", "kind", "value_text"],
    "listing_lineage": ["listing", "paragraph"],
    "benchmarks": ["dataset_key", "metric_key", "unit"],
    "benchmark_results": ["dataset_key", "metric_key", "unit", "rank", "paper_id", "start", "end"],
}


def partition_columns(table: str) -> tuple[str, ...]:
    """The Hive columns of ``table``'s paths: :data:`PARTITION_COLUMNS`, or none for a global table (whose
    ``venue``/``year``, where it has them, are ordinary columns inside its one file)."""
    return () if table in GLOBAL_TABLES else PARTITION_COLUMNS


RELEASE_DIR_PREFIX = "release="
LATEST_FILE = "LATEST"
INDEX_FILE = "releases.json"
MANIFEST_FILE = "manifest.json"
#: A publish in progress (deleted by the next publish when the publisher died).
STAGING_DIR = "_staging"
#: Releases being deleted (renamed here first, so a half-deleted release is never visible).
TRASH_DIR = "_trash"
LOCK_FILE = ".publish.lock"
#: Threads writing or hashing table files at once (pyarrow's Parquet writer and hashlib release the GIL).
IO_THREADS = 4


class ReleaseError(RuntimeError):
    """A release operation that cannot go on; the message names the file or release and what to do."""


def release_dir(warehouse: Path, number: int) -> Path:
    """The folder of release ``number``: ``<warehouse>/release=<number>``."""
    return Path(warehouse) / f"{RELEASE_DIR_PREFIX}{number}"


def list_releases(warehouse: Path, complete: bool = True) -> list[int]:
    """Numbers of the ``release=N`` folders, ascending: those with a manifest (``complete``), or every one."""
    out = []
    for d in Path(warehouse).glob(f"{RELEASE_DIR_PREFIX}*"):
        suffix = d.name[len(RELEASE_DIR_PREFIX) :]
        if suffix.isdigit() and (not complete or (d / MANIFEST_FILE).exists()):
            out.append(int(suffix))
    return sorted(out)


def latest_release(warehouse: Path) -> int | None:
    """The number in ``LATEST``, or ``None`` when nothing has been published.

    Raises ReleaseError when ``LATEST`` holds anything but a release number (e.g. ``abc``)."""
    p = Path(warehouse) / LATEST_FILE
    try:
        text = p.read_text(encoding="utf-8", errors="replace").strip()
    except FileNotFoundError:
        return None
    if not text.isdigit():
        found = list_releases(warehouse)
        raise ReleaseError(
            f"{p} holds {text[:40]!r}, not a release number. Write the number of an intact release into it "
            f"(release folders here: {found or 'none'}; `python -m pipeline verify N` checks one), or delete "
            "it to publish as if nothing had been published before."
        )
    return int(text)


def committed_releases(warehouse: Path) -> list[int]:
    """Numbers of the committed releases readers see: complete folders not above LATEST, ascending (a
    release above LATEST was rolled back over, or its publish died before its commit point)."""
    latest = latest_release(warehouse)
    return [n for n in list_releases(warehouse) if latest is not None and n <= latest]


def read_index(warehouse: Path) -> list[dict]:
    """``releases.json``: one entry per committed release (release: int, release_id: str, parent: int or
    None, created_at: ISO-8601 str, manifest_sha256: hex str when recorded), oldest first; ``[]`` when the
    file does not exist.

    Raises ReleaseError naming the file when it is not a list of such entries."""
    path = Path(warehouse) / INDEX_FILE
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return []
    except UnicodeDecodeError as err:
        raise ReleaseError(_bad_index(path, f"not UTF-8 ({err.reason} at byte {err.start})")) from None
    try:
        entries = json.loads(text)
    except json.JSONDecodeError as err:
        raise ReleaseError(_bad_index(path, f"not valid JSON ({err.msg} at line {err.lineno})")) from None
    if not isinstance(entries, list) or not all(
        isinstance(e, dict) and isinstance(e.get("release"), int) for e in entries
    ):
        raise ReleaseError(_bad_index(path, 'not a list of {"release": N, ...} entries'))
    return entries


def _bad_index(path: Path, what: str) -> str:
    return (
        f"{path} is {what}. Restore it from a backup, or delete it: the next publish rebuilds it from "
        "the manifests of the release folders (every complete release=N folder then counts as committed)."
    )


def index_entry(manifest, manifest_sha256: str | None = None) -> dict:
    """The ``releases.json`` entry of a release, from its :class:`~pipeline.release.manifest.Manifest` and
    the sha256 (hex) of its ``manifest.json`` file when committed (``manifest_sha256``, checked by
    pipeline.release.verify: a manifest edited after commit is detected; indexes written before this field
    have none)."""
    entry = {
        "release": manifest.release,
        "release_id": manifest.release_id,
        "parent": manifest.parent,
        "created_at": manifest.created_at,
    }
    return entry if manifest_sha256 is None else {**entry, "manifest_sha256": manifest_sha256}


def write_index(warehouse: Path, entries: list[dict]) -> None:
    """Replace ``releases.json`` atomically with ``entries`` (one per release number, sorted by number)."""
    by_number = {e["release"]: e for e in entries}
    write_atomic(
        Path(warehouse) / INDEX_FILE, json.dumps([by_number[n] for n in sorted(by_number)], indent=1) + "\n"
    )


def temp_name(path: Path) -> Path:
    """The temporary sibling a write of ``path`` goes through: ``.<name>.<pid>.tmp`` (the pid tells the
    cleaner whether its writer is still alive)."""
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def write_atomic(path: Path, text: str) -> None:
    """Write ``text`` to a temporary sibling, fsync it, and ``os.replace`` it over ``path``, then fsync the
    folder: readers see the old or the new content, never a part."""
    tmp = temp_name(path)
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    fsync_path(str(path.parent))


def fsync_path(path: str) -> None:
    """fsync one file or folder by path."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
