"""Where assets keep their Parquet outputs between steps (``<warehouse>/_work``), and their UI metadata."""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

import dagster as dg
import polars as pl

from pipeline.runtime import config, versions

if TYPE_CHECKING:
    import pandera.polars as pa
    from polars._typing import PolarsDataType  # the dtype union polars' own signatures use

    from pipeline.release.writer import TableParts

#: Rows shown in the UI's markdown previews (a few rows; more makes the asset page slow to read).
PREVIEW_ROWS = 5


#: Longest partition key used as it is in a work-file name (ASCII characters). File names are limited to 255
#: bytes (NAME_MAX on Linux, macOS and Windows); the longest name made from a stem is the temp file of
#: :func:`write_work` (stem + 31 characters), so 200 leaves room. A 42-character Chinese title is 378.
MAX_STEM = 200
#: Characters of a long key kept in front of its hash (enough to recognise the listing in a folder listing).
LONG_KEY_PREFIX = 150


def work_stem(partition_key: str) -> str:
    """The file-name stem of a partition's work files: the key itself when at most :data:`MAX_STEM`
    characters, else its first :data:`LONG_KEY_PREFIX` characters, ``~`` and 16 hex digits of its sha256
    (distinct keys keep distinct names). Idempotent: a stem maps to itself."""
    if len(partition_key) <= MAX_STEM:
        return partition_key
    digest = hashlib.sha256(partition_key.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    return f"{partition_key[:LONG_KEY_PREFIX]}~{digest}"


def work_file(asset: str, partition_key: str | None = None) -> Path:
    """``<warehouse>/_work/<asset>/<work_stem(partition_key)>.parquet`` for per-listing assets; for the global
    tables ``<warehouse>/_work/<asset>.arrow`` (Arrow IPC: written and read back within one publish, 4-5x
    faster than Parquet at 58k abstracts)."""
    root = config.work_dir()
    return root / asset / f"{work_stem(partition_key)}.parquet" if partition_key else root / f"{asset}.arrow"


def read_work(path: Path) -> pl.DataFrame:
    """Read a work file written by :func:`write_work`."""
    return pl.read_ipc(path) if path.suffix == ".arrow" else pl.read_parquet(path)


def write_work(df: pl.DataFrame, path: Path) -> None:
    """Write a work file atomically (a temp file unique to this process, then rename), so a crashed step never
    leaves half a file and two runs of the same partition never write into one temp file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{uuid.uuid4().hex[:8]}.tmp")
    if path.suffix == ".arrow":
        df.write_ipc(tmp)
    else:
        df.write_parquet(tmp, compression="zstd")
    tmp.replace(path)


def work_info(asset: str, key: str) -> dict:
    """The JSON sidecar of a per-listing work file (listing, listing_sha256, code_version; abstracts also
    analysis_version and rows), or {}."""
    path = work_file(asset, key).with_suffix(".json")
    return json.loads(path.read_text()) if path.exists() else {}


def write_work_info(asset: str, key: str, info: dict) -> None:
    """Write the JSON sidecar of a per-listing work file (after the Parquet file itself), with
    ``code_version`` = the asset's current code version (pipeline.runtime.versions.code_version): the work is
    fresh only while it equals the code's (pipeline.defs.partitions.stale_partitions)."""
    path = work_file(asset, key).with_suffix(".json")
    path.write_text(json.dumps({**info, "code_version": versions.code_version(asset)}, sort_keys=True))


def _digest(parts: list[str]) -> str:
    return hashlib.sha256("\n".join(parts).encode("utf-8", "surrogateescape")).hexdigest()[:16]


def listing_data_version(keys: list[str]) -> dg.DataVersion:
    """Dagster data version of ``listing_records`` for the partitions ``keys`` (one run), from their
    sidecars: the listing's ``listing_sha256`` (the file's bytes and the settings files that govern it,
    pipeline.ingest.settings.listing_digest) for one partition; for a range (one version for the whole
    run, Dagster records one per run) 16 hex of sha256 over the keys and their digests."""
    shas = [str(work_info("listing_records", k).get("listing_sha256")) for k in keys]
    if len(keys) == 1:
        return dg.DataVersion(shas[0])
    return dg.DataVersion(_digest([f"{k}\0{s}" for k, s in zip(keys, shas)]))


def abstracts_data_version(keys: list[str]) -> dg.DataVersion:
    """Dagster data version of ``abstracts`` for the partitions ``keys``: 16 hex of sha256 over each
    partition's ``listing_sha256``, the code version its records were read with and its
    ``analysis_version`` (the sidecars): the rows are a function of exactly these."""
    parts = []
    for k in keys:
        info, recs = work_info("abstracts", k), work_info("listing_records", k)
        parts.append(
            f"{k}\0{info.get('listing_sha256')}\0{recs.get('code_version')}\0{info.get('analysis_version')}"
        )
    return dg.DataVersion(_digest(parts))


def parts_data_version(table: TableParts) -> dg.DataVersion:
    """Dagster data version of a table built partition by partition: 16 hex of sha256 over its partitions'
    paths and fingerprints (pipeline.release.writer.fingerprint): equal content, equal version."""
    return dg.DataVersion(_digest([f"{p.rel}\0{p.fingerprint}" for p in table.partitions]))


def markdown_table(df: pl.DataFrame, rows: int = PREVIEW_ROWS, max_columns: int = 8) -> str:
    """The first ``rows`` rows of ``df`` as a markdown table (nested columns left out, cells cut at 60
    chars)."""
    cols = [c for c, t in df.schema.items() if not isinstance(t, (pl.List, pl.Struct))][:max_columns]
    head = df.select(cols).head(rows)

    def cell(v) -> str:
        s = "" if v is None else str(v).replace("|", "\\|").replace("\n", " ")
        return s if len(s) <= 60 else s[:57] + "..."

    lines = ["| " + " | ".join(cols) + " |", "|" + "---|" * len(cols)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in head.iter_rows()]
    return "\n".join(lines)


def column_schema(schema: Mapping[str, PolarsDataType], descriptions: Mapping[str, str]) -> dg.TableSchema:
    """Dagster's ``dagster/column_schema`` value for polars column dtypes and their descriptions (every column
    should have one: tests/defs/test_ui_metadata.py checks the assets'; a column without one has none)."""
    return dg.TableSchema(
        columns=[
            dg.TableColumn(name=c, type=str(t), description=descriptions.get(c)) for c, t in schema.items()
        ]
    )


def model_descriptions(model: type[pa.DataFrameModel]) -> dict[str, str]:
    """Column name -> description of a Pandera (polars) DataFrameModel (its ``Field(description=...)``)."""
    return {n: c.description or "" for n, c in model.to_schema().columns.items()}


def model_column_schema(model: type[pa.DataFrameModel]) -> dg.TableSchema:
    """``dagster/column_schema`` of a Pandera (polars) DataFrameModel: its columns, dtypes, descriptions and
    nullability, so the UI shows a table's contract before it is first materialised."""
    cols = model.to_schema().columns
    return dg.TableSchema(
        columns=[
            dg.TableColumn(
                name=n,
                type=str(c.dtype),
                description=c.description,
                constraints=dg.TableColumnConstraints(nullable=bool(c.nullable)),
            )
            for n, c in cols.items()
        ]
    )


def table_metadata(
    df: pl.DataFrame, descriptions: Mapping[str, str], path: Path | None = None, rows: int | None = None
) -> dict:
    """UI metadata for a DataFrame: ``dagster/row_count`` (``rows``, default its height),
    ``dagster/column_schema`` (its polars dtypes with ``descriptions``, one per column: see
    :func:`column_schema`), ``preview`` (markdown of the first :data:`PREVIEW_ROWS` rows) and ``path`` when
    given (for a published table, its folder in the release; for a per-listing asset, its work file). A
    table built partition by partition gives its first rows as ``df`` and its row count as ``rows``."""
    meta: dict[str, object] = {
        "dagster/row_count": dg.MetadataValue.int(df.height if rows is None else rows),
        "dagster/column_schema": column_schema(df.schema, descriptions),
        "preview": dg.MetadataValue.md(markdown_table(df)),
    }
    if path is not None:
        meta["path"] = dg.MetadataValue.path(str(path))
    return meta


def published_metadata(release_folder: Path, table: str) -> dict:
    """UI metadata of a published table (an observation the release step records for it): ``path``, the
    table's Hive-partitioned folder in ``release_folder`` (``<warehouse>/release=N/<table>``, one
    ``venue=V/year=Y/part-0.parquet`` per partition), the files users read."""
    return {"path": dg.MetadataValue.path(str(release_folder / table))}
