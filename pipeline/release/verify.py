"""Checking a release folder against its manifest: sha256, bytes, rows and columns of every table file,
per-table row totals, the other listed files, and no file the manifest does not list.

:func:`verify_tree` runs on a staged release before it is committed (a publish that fails it is refused)
and on published releases (:func:`verify`, :func:`verify_all`, ``python -m pipeline verify``).
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from pipeline.release.layout import (
    IO_THREADS,
    MANIFEST_FILE,
    ReleaseError,
    latest_release,
    list_releases,
    read_index,
    release_dir,
)
from pipeline.release.manifest import FileEntry, Manifest, read_manifest
from pipeline.release.read import FileIdentity, file_identity, sha256_file


def _check_file(
    root: Path, f: FileEntry, columns: list[str] | None, trusted: FileIdentity | None = None
) -> tuple[list[str], int]:
    """Problems of one manifest file entry and the rows it holds (the manifest's count when unreadable: a
    file whose Parquet cannot be read is a problem, never an error).

    ``trusted``: the identity the file had right after its sha256 was checked in this process; when it is
    unchanged the bytes are not hashed again (everything else is checked)."""
    path = root / f.path
    if not path.is_file():
        return [f"{path}: missing"], f.rows or 0
    problems = []
    size = path.stat().st_size
    if size != f.bytes:
        problems.append(f"{path}: {size} bytes, manifest says {f.bytes}")
    same = trusted is not None and size == f.bytes and file_identity(path) == tuple(trusted)
    if not same and sha256_file(path) != f.sha256:
        return [*problems, f"{path}: sha256 differs from the manifest"], f.rows or 0
    if f.rows is None:
        return problems, 0
    try:
        meta = pq.ParquetFile(path)
    except (pa.ArrowException, OSError) as err:  # its digest matches a manifest edited to match it
        return [*problems, f"{path}: cannot be read as Parquet ({' '.join(str(err).split())})"], f.rows or 0
    if meta.metadata.num_rows != f.rows:
        problems.append(f"{path}: {meta.metadata.num_rows} rows, manifest says {f.rows}")
    if columns is not None and meta.schema_arrow.names != columns:
        problems.append(f"{path}: columns {meta.schema_arrow.names}, manifest says {columns}")
    return problems, meta.metadata.num_rows


def verify_tree(root: Path, manifest: Manifest, trusted: dict[str, FileIdentity] | None = None) -> list[str]:
    """Every problem of the release folder ``root`` against ``manifest``, each naming the file; [] if
    intact.

    ``trusted``: files (path relative to ``root`` → identity) whose bytes this process hashed moments ago
    (the parent files a publish hard-linked, pipeline.release.writer.write_tables); one whose identity is
    unchanged is checked by its identity, size, rows and columns instead of a second sha256."""
    trusted = trusted or {}
    problems = []
    listed = {MANIFEST_FILE}
    # files are hashed by threads (hashlib and pyarrow release the GIL); results are read back in order
    with ThreadPoolExecutor(max_workers=IO_THREADS) as pool:
        checks = {
            name: [
                pool.submit(_check_file, root, f, info.data_columns, trusted.get(f.path)) for f in info.files
            ]
            for name, info in manifest.tables.items()
        }
        extra = [pool.submit(_check_file, root, f, None) for f in manifest.files]
        for name, info in manifest.tables.items():
            total = 0
            for f, job in zip(info.files, checks[name]):
                listed.add(f.path)
                found, rows = job.result()
                problems += found
                total += rows
            if total != info.rows:
                problems.append(f"{name}: {total} rows in files, manifest says {info.rows}")
        for f, job in zip(manifest.files, extra):
            listed.add(f.path)
            problems += job.result()[0]
    unlisted = sorted(
        p.relative_to(root).as_posix()
        for p in root.rglob("*")
        if p.is_file() and p.relative_to(root).as_posix() not in listed
    )
    problems += [f"{root / p}: not in the manifest" for p in unlisted]
    return problems


def verify(warehouse: Path, number: int | None = None) -> list[str]:
    """Re-check release ``number`` (default: LATEST) against its manifest (see :func:`verify_tree`).

    Returns the list of problems (empty when the release is intact), each naming the file; a missing
    release, a missing or unreadable manifest is one problem; so is a manifest whose sha256 differs from the
    one ``releases.json`` recorded at commit. Raises ReleaseError when LATEST is unreadable."""
    number = latest_release(warehouse) if number is None else number
    if number is None:
        return [f"{warehouse}: no LATEST, nothing published"]
    root = release_dir(warehouse, number)
    if not root.exists():
        return [f"release {number} does not exist in {warehouse} ({root} is missing)"]
    try:
        manifest = read_manifest(root)
    except ReleaseError as err:
        return [str(err)]
    return _manifest_against_index(warehouse, number) + verify_tree(root, manifest)


def _manifest_against_index(warehouse: Path, number: int) -> list[str]:
    """A problem when ``releases.json`` recorded the sha256 of release ``number``'s ``manifest.json`` at
    commit and the file's sha256 now differs (a manifest edited after commit, its files' digests with it);
    nothing when the entry has no such field (an index written before it was recorded)."""
    try:
        entry = next((e for e in read_index(warehouse) if e["release"] == number), None)
    except ReleaseError as err:
        return [str(err)]
    recorded = entry.get("manifest_sha256") if entry else None
    path = release_dir(warehouse, number) / MANIFEST_FILE
    if recorded is None or sha256_file(path) == recorded:
        return []
    return [f"{path}: sha256 differs from the one releases.json recorded when release {number} was committed"]


def verify_targets(warehouse: Path) -> list[int]:
    """The releases ``verify --all`` checks: every release in releases.json, the one LATEST names (even
    when its folder or manifest is missing), and every complete folder up to LATEST; ascending."""
    latest = latest_release(warehouse)
    targets = {e["release"] for e in read_index(warehouse)}
    if latest is not None:
        targets |= {latest} | {n for n in list_releases(warehouse) if n <= latest}
    return sorted(targets)


def verify_all(warehouse: Path) -> dict[int, list[str]]:
    """:func:`verify` of every release of :func:`verify_targets`: number -> problems."""
    return {n: verify(warehouse, n) for n in verify_targets(warehouse)}
