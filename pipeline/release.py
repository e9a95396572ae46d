"""Immutable, numbered releases of the published tables (design §7, ../shared/notes/versioning.md).

Layout under the warehouse folder::

    LATEST                         the current release number; written last (the commit point)
    releases.json                  index of committed releases: release, release_id, parent, created_at
    release=N/
      manifest.json                release, release_id, parent, created_at, code/schema version, inputs,
                                   per table: rows, columns, files (path, rows, bytes, sha256); changes
      CHANGELOG.md                 added / removed / changed paper_ids against the parent
      changelog.parquet            the same as a table: paper_id, change, columns
      <table>/venue=V/year=Y/part-0.parquet   Hive partitions; venue/year live in the path only
    _staging/                      a publish in progress (cleaned by the next publish)
    .publish.lock                  held (flock) while publishing: one publisher at a time

A release is written to ``_staging/`` and renamed into place, then ``LATEST`` is replaced atomically, so a
crash leaves the previous release readable and ``LATEST`` unchanged. ``releases.json`` (written right
after ``LATEST``) lists every committed release; a ``release=N`` folder that is neither in it nor named by
``LATEST`` was never committed (a publish died between the rename and the ``LATEST`` write) and the next
publish deletes it. A rollback (writing an older number into ``LATEST`` by hand) is safe: newer committed
releases stay, are hidden from :func:`read_all`, and the next release gets the next unused number with the
rolled-back release as parent. Publishing content equal to the latest release (same ``release_id``) makes
no new release.

Schema evolution (issue 5 item 5, ../shared/cases/case17_*): every release of a table reads together
(``release=*``, see :func:`read_all` and the README). A column keeps one dtype in every release: the data
contract's (``schemas.MODELS``) when it has one, else the dtype it had in the parent release; a lossless
cast (Int64 → Float64) is applied, a lossy one or a dropped column raises :class:`SchemaDriftError`. A
new column is allowed and reads as null in older releases.
"""

from __future__ import annotations

import datetime as dt
import fcntl
import hashlib
import json
import os
import shutil
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq

from pipeline import CODE_VERSION, card
from pipeline.card.changelog import changelog_markdown
from schemas import MODELS, SCHEMA_VERSION

TABLES = ("papers", "paper_urls", "paper_metrics", "listing_lineage")
PARTITION_COLUMNS = ("venue", "year")
#: Sort keys that make every file's row order (and so its bytes) deterministic.
SORT_KEYS = {
    "papers": ["paper_id"],
    "paper_urls": ["paper_id", "start", "end", "url"],
    "paper_metrics": ["paper_id", "start", "end", "kind", "value_text"],
    "listing_lineage": ["listing", "paragraph"],
}
#: Columns not compared when deciding whether a paper changed (they record history, not content).
HISTORY_COLUMNS = ("first_release", "last_changed_release")
RELEASE_DIR_PREFIX = "release="
#: Threads writing or verifying table files at once (pyarrow's Parquet writer and hashlib release the GIL).
WRITER_THREADS = 4
CHANGELOG_SCHEMA = {"paper_id": pl.String, "change": pl.String, "columns": pl.String}


class PublishInProgressError(RuntimeError):
    """Another process holds the warehouse's publish lock."""


class SchemaDriftError(ValueError):
    """A table's column would change dtype (lossy cast) or disappear against the contract or parent release."""


@dataclass(frozen=True)
class PublishResult:
    """What :func:`publish` did: ``release`` is the number now in LATEST; ``created`` is False when the
    content equalled the latest release; ``path`` the release folder; ``changes`` counts by kind."""

    release: int
    created: bool
    release_id: str
    path: Path
    changes: dict


def release_dir(warehouse: Path, number: int) -> Path:
    """The folder of release ``number``."""
    return Path(warehouse) / f"{RELEASE_DIR_PREFIX}{number}"


def latest_release(warehouse: Path) -> int | None:
    """The number in ``LATEST``, or ``None`` when nothing has been published."""
    p = Path(warehouse) / "LATEST"
    return int(p.read_text().strip()) if p.exists() else None


def read_table(warehouse: Path, table: str, number: int | None = None,
               columns: list[str] | None = None) -> pl.DataFrame | None:
    """Read one table of release ``number`` (default: LATEST) with its Hive columns (venue: String, year:
    Int64), in the manifest's column order, or only ``columns``; ``None`` if absent."""
    number = latest_release(warehouse) if number is None else number
    if number is None:
        return None
    path = release_dir(warehouse, number) / table
    if not path.exists():
        return None
    manifest = json.loads((release_dir(warehouse, number) / "manifest.json").read_text())
    columns = columns or [c["name"] for c in manifest["tables"][table]["columns"]]
    hive = [pl.col(c).cast(t) for c, t in (("venue", pl.String), ("year", pl.Int64)) if c in columns]
    return (pl.scan_parquet(path / "**" / "*.parquet", hive_partitioning=True).select(columns)
            .with_columns(*hive).collect())


def committed_releases(warehouse: Path) -> list[int]:
    """Numbers of the committed releases: complete folders (with a manifest) not above LATEST, ascending."""
    latest = latest_release(warehouse)
    return [n for n in list_releases(warehouse) if latest is not None and n <= latest]


def table_schema(warehouse: Path, table: str, number: int | None = None) -> dict[str, pl.DataType]:
    """The dtypes of ``table``'s data columns (Hive columns excluded) in release ``number`` (default LATEST),
    read from its first file's footer. Columns are only ever added, so LATEST's schema covers every release."""
    number = latest_release(warehouse) if number is None else number
    manifest = json.loads((release_dir(warehouse, number) / "manifest.json").read_text())
    first = release_dir(warehouse, number) / manifest["tables"][table]["files"][0]["path"]
    return dict(pl.read_parquet_schema(first))


def read_all(warehouse: Path, table: str) -> pl.DataFrame:
    """Every committed release of ``table`` read together (one ``release=*`` glob, as the README shows).

    Returns the union of columns (a column added later is null in older releases) with one dtype per
    column, plus the Hive columns ``release``, ``venue``, ``year`` (Int64, String, Int64); rows of
    releases above LATEST (uncommitted) are left out. Empty frame when nothing is published.
    """
    committed = committed_releases(warehouse)
    if not committed:
        return pl.DataFrame()
    glob = str(Path(warehouse) / f"{RELEASE_DIR_PREFIX}*" / table / "**" / "*.parquet")
    return (pl.scan_parquet(glob, hive_partitioning=True, schema=table_schema(warehouse, table),
                            missing_columns="insert")
            .filter(pl.col("release").is_in(committed))
            .with_columns(pl.col("venue").cast(pl.String), pl.col("year").cast(pl.Int64))
            .collect())


def _contract_dtypes(table: str) -> dict[str, pl.DataType]:
    model = MODELS.get(table)
    return {c: col.dtype.type for c, col in model.to_schema().columns.items()} if model is not None else {}


def conform(df: pl.DataFrame, table: str, pinned: dict[str, pl.DataType]) -> pl.DataFrame:
    """Cast ``df``'s columns to their pinned dtypes: the contract's (schemas.MODELS) first, else ``pinned``
    (the parent release's). Raises SchemaDriftError on a lossy cast or a pinned column that is missing."""
    target = {**{c: t for c, t in pinned.items() if t != pl.Null}, **_contract_dtypes(table)}
    missing = sorted(c for c in pinned if c not in df.columns and c not in PARTITION_COLUMNS)
    if missing:
        raise SchemaDriftError(f"{table}: columns {missing} of the parent release are missing; releases only "
                               "add columns (bump the dataset, or keep them as nulls)")
    casts = []
    for c, dtype in df.schema.items():
        want = target.get(c)
        if want is None or dtype == want:
            continue
        try:
            cast = df[c].cast(want, strict=True)
            lossless = dtype == pl.Null or cast.cast(dtype, strict=True).equals(df[c])
        except (pl.exceptions.InvalidOperationError, pl.exceptions.ComputeError):
            lossless = False
        if not lossless:
            raise SchemaDriftError(f"{table}.{c}: {dtype} cannot become the pinned {want} without loss")
        casts.append(cast)
    return df.with_columns(casts) if casts else df


def diff_papers(old: pl.DataFrame | None, new: pl.DataFrame) -> pl.DataFrame:
    """Changelog rows between two ``papers`` tables: ``paper_id``, ``change`` (added / removed / changed),
    ``columns`` (comma-separated names of the changed columns, null unless changed). Sorted by change, id.
    History columns (first_release, last_changed_release) are not compared, nor columns absent from ``old``
    (a column new in this release is a schema change, listed in the manifest, not a change of every paper)."""
    if old is None:
        return new.select("paper_id", change=pl.lit("added"), columns=pl.lit(None, pl.String)).sort("paper_id")
    compare = [c for c in new.columns if c not in HISTORY_COLUMNS and c != "paper_id" and c in old.columns]
    joined = old.select("paper_id", *compare).join(new.select("paper_id", *compare), on="paper_id",
                                                   how="full", suffix="_new", coalesce=False)
    added = joined.filter(pl.col("paper_id").is_null()).select(pl.col("paper_id_new").alias("paper_id"))
    removed = joined.filter(pl.col("paper_id_new").is_null()).select("paper_id")
    both = joined.filter(pl.col("paper_id").is_not_null() & pl.col("paper_id_new").is_not_null())
    diffs = both.select(
        "paper_id",
        pl.concat_list([pl.when(pl.col(c).ne_missing(pl.col(f"{c}_new"))).then(pl.lit(c)) for c in compare])
        .list.drop_nulls().list.join(",").alias("columns"),
    ).filter(pl.col("columns") != "")
    return pl.concat([
        added.with_columns(change=pl.lit("added"), columns=pl.lit(None, pl.String)),
        removed.with_columns(change=pl.lit("removed"), columns=pl.lit(None, pl.String)),
        diffs.with_columns(change=pl.lit("changed")).select("paper_id", "change", "columns"),
    ]).select(list(CHANGELOG_SCHEMA)).cast(CHANGELOG_SCHEMA).sort("change", "paper_id")


def _partitions(df: pl.DataFrame, table: str) -> list[tuple[str, pl.DataFrame, str]]:
    """``df`` split into its Hive partitions: ``(relative path, rows without venue/year, fingerprint)``.

    The fingerprint is sha256 over the polars version, the schema and polars ``hash_rows`` of the sorted rows
    (polars row hashes are stable within one polars version only, hence the version in it). An empty table
    is one empty file under ``venue=unknown/year=0``.
    """
    df = df.sort([*PARTITION_COLUMNS, *SORT_KEYS[table]])
    groups = df.partition_by(list(PARTITION_COLUMNS), as_dict=True, maintain_order=True) if df.height else {
        ("unknown", 0): df}
    out = []
    for (venue, year), part in sorted(groups.items()):
        rows = part.drop(PARTITION_COLUMNS)
        h = hashlib.sha256(f"polars {pl.__version__}\0{rows.schema}\0{rows.height}\0".encode())
        if rows.height:
            h.update(rows.hash_rows(seed=0).to_numpy().tobytes())
        out.append(((Path(table) / f"venue={venue}" / f"year={year}" / "part-0.parquet").as_posix(), rows,
                    h.hexdigest()))
    return out


def content_fingerprint(parts: dict[str, list[tuple[str, pl.DataFrame, str]]]) -> str:
    """sha256 over every partition's path and fingerprint (see :func:`_partitions`). Equal to the parent
    release's: the content is unchanged and nothing is written."""
    h = hashlib.sha256()
    for name in TABLES:
        for rel, _, fp in parts[name]:
            h.update(f"{rel}\0{fp}\n".encode())
    return h.hexdigest()


def content_digest(written: dict[str, list[dict]]) -> str:
    """sha256 over every table's files (path and sha256, as written by :func:`_write_partitioned`). Files are
    written deterministically (sorted rows, fixed writer settings), so equal content gives an equal digest,
    i.e. an equal ``release_id``."""
    h = hashlib.sha256()
    for name in TABLES:
        for f in written[name]:
            h.update(f"{f['path']}\0{f['sha256']}\n".encode())
    return h.hexdigest()


def _sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _write_partition(rel: str, rows: pl.DataFrame, fingerprint: str, root: Path, parent: Path | None,
                     parent_entry: dict | None) -> dict:
    """Write one partition file under ``root``, or hard-link the parent release's file when its fingerprint
    is the same (releases stay complete, immutable folders that share unchanged files). Returns its manifest
    entry: path, rows, bytes, sha256, fingerprint."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if parent is not None and parent_entry is not None and parent_entry.get("fingerprint") == fingerprint \
            and (parent / rel).is_file():
        try:
            os.link(parent / rel, path)
        except OSError:  # a filesystem without hard links: copy
            shutil.copyfile(parent / rel, path)
        return {k: parent_entry[k] for k in ("path", "rows", "bytes", "sha256", "fingerprint")}
    pq.write_table(rows.to_arrow(), path, compression="zstd")
    return {"path": rel, "rows": rows.height, "bytes": path.stat().st_size, "sha256": _sha256_file(path),
            "fingerprint": fingerprint}


def _fsync_tree(root: Path) -> None:
    """fsync every folder under ``root`` and every file in it, except hard links to the parent release's
    files (``st_nlink`` > 1: their bytes were made durable when that release was published)."""
    for dirpath, _, filenames in os.walk(root):
        for name in filenames:
            path = os.path.join(dirpath, name)
            if os.stat(path).st_nlink == 1:
                _fsync_path(path)
        _fsync_path(dirpath)


def _fsync_path(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_atomic(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    with open(tmp, "rb") as f:
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _changelog_md(number: int, parent: int | None, changes: pl.DataFrame) -> str:
    lines = [f"# Release {number}", "", f"Parent: {parent if parent is not None else 'none'}", ""]
    for kind in ("added", "removed", "changed"):
        part = changes.filter(pl.col("change") == kind)
        lines.append(f"## {kind.capitalize()} ({part.height})")
        lines.append("")
        for pid, cols in part.select("paper_id", "columns").iter_rows():
            lines.append(f"- {pid}" + (f" ({cols})" if cols else ""))
        lines.append("")
    return "\n".join(lines)


def publish(
    warehouse: Path,
    tables: dict[str, pl.DataFrame],
    inputs: list[dict],
    keep_last: int | None = None,
    now: dt.datetime | None = None,
) -> PublishResult:
    """Publish ``tables`` as the next release unless their content equals the latest release.

    Args:
        warehouse: the warehouse folder.
        tables: one DataFrame per name in :data:`TABLES`, each with ``venue`` and ``year`` columns.
        inputs: the listings behind this release: dicts with ``listing`` and ``sha256``.
        keep_last: keep only the newest K releases (``None``: all); the release LATEST names is never pruned.
        now: the creation time recorded in the manifest (default: now, UTC).

    Returns:
        a :class:`PublishResult`.

    Raises:
        PublishInProgressError: another publisher holds the lock; nothing was written.
        KeyError: a table of :data:`TABLES` is missing.
    """
    warehouse = Path(warehouse)
    warehouse.mkdir(parents=True, exist_ok=True)
    lock = open(warehouse / ".publish.lock", "a+")
    try:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise PublishInProgressError(f"publish in progress in {warehouse} (lock held by another process)")
        return _publish_locked(warehouse, tables, inputs, keep_last, now)
    finally:
        lock.close()


def _publish_locked(warehouse, tables, inputs, keep_last, now) -> PublishResult:
    staging_root = warehouse / "_staging"
    shutil.rmtree(staging_root, ignore_errors=True)  # debris of a crashed publish
    for tmp in [*warehouse.glob(".LATEST.*.tmp"), *warehouse.glob(".releases.json.*.tmp")]:  # never replaced
        tmp.unlink()
    parent = latest_release(warehouse)
    index = read_index(warehouse)
    committed = {e["release"] for e in index} | ({parent} if parent is not None else set())
    for n in list_releases(warehouse, complete=False):
        if n not in committed:  # renamed into place, but the publish died before LATEST moved
            shutil.rmtree(release_dir(warehouse, n))
    pinned = {name: table_schema(warehouse, name, parent) if parent is not None else {} for name in TABLES}
    tables = {name: conform(tables[name], name, pinned[name]) for name in TABLES}
    parent_manifest = (json.loads((release_dir(warehouse, parent) / "manifest.json").read_text())
                       if parent is not None else {})
    parts = {name: _partitions(tables[name], name) for name in TABLES}
    fingerprint = content_fingerprint(parts)
    if parent_manifest.get("content_fingerprint") == fingerprint:  # same rows, same polars: nothing to write
        return PublishResult(parent, False, parent_manifest["release_id"], release_dir(warehouse, parent),
                             parent_manifest["changes"])
    # a warm worker process draws the charts meanwhile when there is one (pipeline.parallel); else they are
    # drawn here when charts_done() is called
    charts_done = card.start_charts(tables)
    number = max([parent or 0, *list_releases(warehouse, complete=False)]) + 1
    stage = staging_root / f"{RELEASE_DIR_PREFIX}{number}"
    stage.mkdir(parents=True)
    parent_root = release_dir(warehouse, parent) if parent is not None else None
    parent_files = {f["path"]: f for info in parent_manifest.get("tables", {}).values() for f in info["files"]}
    # files are written by threads (pyarrow releases the GIL)
    with ThreadPoolExecutor(max_workers=WRITER_THREADS) as pool:
        jobs = {name: [pool.submit(_write_partition, rel, rows, fp, stage, parent_root, parent_files.get(rel))
                       for rel, rows, fp in parts[name]] for name in TABLES}
        written = {name: [job.result() for job in jobs[name]] for name in TABLES}
    release_id = content_digest(written)[:16]
    if parent_manifest.get("release_id") == release_id:  # same files (the fingerprint's polars differed)
        shutil.rmtree(staging_root, ignore_errors=True)
        return PublishResult(parent, False, release_id, release_dir(warehouse, parent), parent_manifest["changes"])
    old_papers = read_table(warehouse, "papers", parent) if parent is not None else None
    changes = diff_papers(old_papers, tables["papers"])
    pngs = charts_done()
    manifest = {
        "release": number,
        "release_id": release_id,
        "parent": parent,
        "created_at": (now or dt.datetime.now(dt.timezone.utc)).isoformat(timespec="seconds"),
        "code_version": CODE_VERSION,
        "schema_version": SCHEMA_VERSION,
        "inputs": sorted(inputs, key=lambda d: d["listing"]),
        "changes": {k: changes.filter(pl.col("change") == k).height for k in ("added", "removed", "changed")},
        "content_fingerprint": fingerprint,
        "tables": {},
        "files": [],
    }
    for name in TABLES:
        df = tables[name]
        manifest["tables"][name] = {
            "rows": df.height,
            "partitioning": list(PARTITION_COLUMNS),
            "columns": [{"name": c, "dtype": str(t)} for c, t in df.schema.items()],
            "files": written[name],
        }
    changes.write_parquet(stage / "changelog.parquet", compression="zstd")
    (stage / "CHANGELOG.md").write_text(changelog_markdown(number, parent, changes, tables["papers"], old_papers))
    for extra, rows in (("changelog.parquet", changes.height), ("CHANGELOG.md", None)):
        path = stage / extra
        manifest["files"].append({"path": extra, "rows": rows, "bytes": path.stat().st_size,
                                  "sha256": _sha256_file(path)})
    manifest["files"] += card.write_release_documents(stage, tables, manifest, changes, pngs)  # card, charts (issue 8)
    (stage / "manifest.json").write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    _fsync_tree(stage)
    os.rename(stage, release_dir(warehouse, number))
    _write_atomic(warehouse / "LATEST", str(number))
    entry = {k: manifest[k] for k in ("release", "release_id", "parent", "created_at")}
    _write_atomic(warehouse / "releases.json",
                  json.dumps([e for e in index if e["release"] != number] + [entry], indent=1) + "\n")
    shutil.rmtree(staging_root, ignore_errors=True)
    if keep_last:
        prune(warehouse, keep_last)
    return PublishResult(number, True, release_id, release_dir(warehouse, number), manifest["changes"])


def read_index(warehouse: Path) -> list[dict]:
    """``releases.json``: the committed releases (release, release_id, parent, created_at), oldest first."""
    path = Path(warehouse) / "releases.json"
    return json.loads(path.read_text()) if path.exists() else []


def list_releases(warehouse: Path, complete: bool = True) -> list[int]:
    """Numbers of the release folders, ascending: those with a manifest (``complete``), or every one."""
    out = []
    for d in Path(warehouse).glob(f"{RELEASE_DIR_PREFIX}*"):
        suffix = d.name[len(RELEASE_DIR_PREFIX):]
        if suffix.isdigit() and (not complete or (d / "manifest.json").exists()):
            out.append(int(suffix))
    return sorted(out)


def prune(warehouse: Path, keep_last: int) -> list[int]:
    """Delete all but the newest ``keep_last`` releases; never the one LATEST names. Returns deleted numbers."""
    latest = latest_release(warehouse)
    releases = list_releases(warehouse)
    doomed = [n for n in releases[:-keep_last] if n != latest] if keep_last > 0 else []
    for n in doomed:
        shutil.rmtree(release_dir(warehouse, n))
    return doomed


def _check_file(root: Path, f: dict, columns: list[str] | None) -> tuple[list[str], int]:
    """Problems of one manifest file entry and the rows it holds (the manifest's count when unreadable)."""
    path = root / f["path"]
    if not path.is_file():
        return [f"{path}: missing"], f["rows"] or 0
    problems = []
    if path.stat().st_size != f["bytes"]:
        problems.append(f"{path}: {path.stat().st_size} bytes, manifest says {f['bytes']}")
    if _sha256_file(path) != f["sha256"]:
        return [*problems, f"{path}: sha256 differs from the manifest"], f["rows"] or 0
    if f["rows"] is None:
        return problems, 0
    meta = pq.ParquetFile(path)
    if meta.metadata.num_rows != f["rows"]:
        problems.append(f"{path}: {meta.metadata.num_rows} rows, manifest says {f['rows']}")
    if columns is not None and meta.schema_arrow.names != columns:
        problems.append(f"{path}: columns {meta.schema_arrow.names}, manifest says {columns}")
    return problems, meta.metadata.num_rows


def verify(warehouse: Path, number: int | None = None) -> list[str]:
    """Re-check every file of a release against its manifest: sha256, bytes, rows and columns of each
    table file, per-table row totals, the changelog files, and no file the manifest does not list.

    Returns the list of problems (empty when the release is intact), each naming the file.
    """
    number = latest_release(warehouse) if number is None else number
    if number is None:
        return [f"{warehouse}: no LATEST, nothing published"]
    root = release_dir(warehouse, number)
    mpath = root / "manifest.json"
    if not root.exists():
        return [f"release {number} does not exist in {warehouse}"]
    if not mpath.exists():
        return [f"{mpath}: missing"]
    manifest = json.loads(mpath.read_text())
    problems = []
    listed = {"manifest.json"}
    # files are hashed by threads (hashlib and pyarrow release the GIL); results are read back in order
    with ThreadPoolExecutor(max_workers=WRITER_THREADS) as pool:
        checks = {name: [pool.submit(_check_file, root, f,
                                     [c["name"] for c in info["columns"] if c["name"] not in info["partitioning"]])
                         for f in info["files"]] for name, info in manifest["tables"].items()}
        extra = [pool.submit(_check_file, root, f, None) for f in manifest.get("files", [])]
        for name, info in manifest["tables"].items():
            total = 0
            for f, job in zip(info["files"], checks[name]):
                listed.add(f["path"])
                found, rows = job.result()
                problems += found
                total += rows
            if total != info["rows"]:
                problems.append(f"{name}: {total} rows in files, manifest says {info['rows']}")
        for f, job in zip(manifest.get("files", []), extra):
            listed.add(f["path"])
            problems += job.result()[0]
    unlisted = sorted(p.relative_to(root).as_posix() for p in root.rglob("*")
                      if p.is_file() and p.relative_to(root).as_posix() not in listed)
    problems += [f"{root / p}: not in the manifest" for p in unlisted]
    return problems
