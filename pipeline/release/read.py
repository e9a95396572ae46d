"""Reading published releases: one table of one release, a table's schema, every release of a table
together, and the parent's tables read verified (each file's sha256 checked against the manifest)."""

from __future__ import annotations

import hashlib
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import polars as pl

from pipeline.release.layout import (
    IO_THREADS,
    PARTITION_COLUMNS,
    RELEASE_DIR_PREFIX,
    ReleaseError,
    committed_releases,
    latest_release,
    partition_columns,
    release_dir,
)
from pipeline.release.manifest import Manifest, read_manifest

#: dtypes of the Hive columns as read back (the paths carry text; year is always an integer).
HIVE_DTYPES = {"venue": pl.String, "year": pl.Int64}


def read_table(
    warehouse: Path, table: str, number: int | None = None, columns: list[str] | None = None
) -> pl.DataFrame | None:
    """Read one table of release ``number`` (default: LATEST) with its Hive columns (venue: String, year:
    Int64), in the manifest's column order, or only ``columns``; ``None`` if absent."""
    number = latest_release(warehouse) if number is None else number
    if number is None:
        return None
    path = release_dir(warehouse, number) / table
    if not path.exists():
        return None
    columns = columns or read_manifest(release_dir(warehouse, number)).tables[table].column_names
    hive = [pl.col(c).cast(t) for c, t in HIVE_DTYPES.items() if c in columns]
    return (
        pl.scan_parquet(path / "**" / "*.parquet", hive_partitioning=True)
        .select(columns)
        .with_columns(*hive)
        .collect()
    )


def scan_table(warehouse: Path, table: str, number: int) -> pl.LazyFrame:
    """A lazy scan of ``table`` in release ``number``'s folder (every Parquet file under it, Hive columns
    from the paths), unverified: for reads of a few columns, e.g. the lineage a changelog summarises."""
    return pl.scan_parquet(
        release_dir(warehouse, number) / table / "**" / "*.parquet", hive_partitioning=True
    )


def sha256_file(path: Path) -> str:
    """sha256 (hex) of a file's bytes, read in 1 MiB chunks."""
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


#: What identifies a file's bytes on this machine without reading them: (st_dev, st_ino, st_size,
#: st_mtime_ns, st_ctime_ns). A write through the file system changes the mtime, and any change of the inode
#: (a write, ``utime``, ``chmod``, a hard link made or removed) changes the ctime, which no user call can
#: set back; so an equal identity means the file was not changed through the file system since it was taken.
FileIdentity = tuple[int, int, int, int, int]


def file_identity(path: Path) -> FileIdentity:
    """The :data:`FileIdentity` of ``path`` (one ``os.stat``); raises FileNotFoundError when it is gone."""
    st = os.stat(path)
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def read_verified(
    warehouse: Path,
    number: int,
    table: str,
    manifest: Manifest | None = None,
    verified: dict[str, FileIdentity] | None = None,
) -> pl.DataFrame:
    """:func:`scan_verified`, collected: the whole table in memory."""
    return scan_verified(warehouse, number, table, manifest, verified).collect()


def damaged_release(warehouse: Path, number: int, what: str) -> str:
    """The one-line error of a release whose file is missing or damaged (``what``: the file and what is
    wrong), and what to do: the same words whichever step finds it."""
    return (
        f"release {number} is damaged: {what}, so paper ids and history cannot be carried over from it. "
        "Restore the release folder from a backup, or roll back to an intact release: "
        f"`python -m pipeline rollback N` (`python -m pipeline verify --all` shows which are intact; "
        f"warehouse {Path(warehouse)})."
    )


def scan_verified(
    warehouse: Path,
    number: int,
    table: str,
    manifest: Manifest | None = None,
    verified: dict[str, FileIdentity] | None = None,
) -> pl.LazyFrame:
    """``table`` of release ``number`` as a lazy scan of exactly the files its manifest lists, after checking
    each file's sha256 (threads), so the caller reads only the columns and rows it needs.

    ``verified``: when given, filled with each checked file's path (relative to the release folder) →
    :func:`file_identity`, taken before its hash and equal after it, so a later step can tell the file is
    unchanged since without hashing it again (pipeline.release.writer).

    Returns the scan with its Hive columns (venue: String, year: Int64) in the manifest's column order.
    Raises ReleaseError naming the first damaged or missing file and what to do."""
    root = release_dir(warehouse, number)
    manifest = manifest or read_manifest(root)
    info = manifest.tables[table]
    paths = [root / f.path for f in info.files]

    def check(path: Path, rel: str, want: str) -> str | None:
        try:
            before = file_identity(path)
            if sha256_file(path) != want:
                return "fails its sha256 check against the manifest"
            if verified is not None and file_identity(path) == before:
                verified[rel] = before
            return None
        except FileNotFoundError:
            return "is missing"

    with ThreadPoolExecutor(max_workers=IO_THREADS) as pool:
        found = list(pool.map(check, paths, [f.path for f in info.files], [f.sha256 for f in info.files]))
    bad = [(p, why) for p, why in zip(paths, found) if why]
    if bad:
        path, why = bad[0]
        raise ReleaseError(
            damaged_release(warehouse, number, f"{path} {why} ({len(bad)} damaged {table} files)")
        )
    columns = info.column_names
    hive = [pl.col(c).cast(t) for c, t in HIVE_DTYPES.items() if c in columns]
    return pl.scan_parquet(paths, hive_partitioning=True).select(columns).with_columns(*hive)


def table_schema(warehouse: Path, table: str, number: int | None = None) -> dict[str, pl.DataType]:
    """The dtypes of ``table``'s data columns (Hive columns excluded) in release ``number`` (default LATEST),
    read from its first file's footer. Columns are only ever added, so LATEST's schema covers every
    release. ``{}`` when the release has no such table (one added to the dataset after that release).
    Raises ReleaseError (:func:`damaged_release`) when that file is missing or not Parquet."""
    number = latest_release(warehouse) if number is None else number
    if number is None:
        raise ReleaseError(f"{warehouse}: nothing published (no LATEST)")
    root = release_dir(warehouse, number)
    tables = read_manifest(root).tables
    if table not in tables:
        return {}
    path = root / tables[table].files[0].path
    try:
        return dict(pl.read_parquet_schema(path))
    except FileNotFoundError:
        raise ReleaseError(damaged_release(warehouse, number, f"{path} is missing")) from None
    except (OSError, pl.exceptions.PolarsError) as err:
        what = f"{path} cannot be read as Parquet ({' '.join(str(err).split())[:200]})"
        raise ReleaseError(damaged_release(warehouse, number, what)) from None


def read_all(warehouse: Path, table: str) -> pl.DataFrame:
    """Every committed release of ``table`` read together (one ``release=*`` glob, as the README shows).

    Returns the union of columns (a column added later is null in older releases) with one dtype per
    column, plus the Hive columns ``release``, ``venue``, ``year`` (Int64, String, Int64; venue and year
    only where the table has them); rows of releases above LATEST (uncommitted) are left out. Empty frame
    when nothing is published.
    """
    committed = committed_releases(warehouse)
    if not committed:
        return pl.DataFrame()
    glob = str(Path(warehouse) / f"{RELEASE_DIR_PREFIX}*" / table / "**" / "*.parquet")
    names = {*table_schema(warehouse, table), *(PARTITION_COLUMNS if partition_columns(table) else ())}
    return (
        pl.scan_parquet(
            glob, hive_partitioning=True, schema=table_schema(warehouse, table), missing_columns="insert"
        )
        .filter(pl.col("release").is_in(committed))
        .with_columns(pl.col(c).cast(t) for c, t in HIVE_DTYPES.items() if c in names)
        .collect()
    )
