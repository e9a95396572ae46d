"""The dataset tables step as one pure function: every listing's abstracts → the four tables of the next
release, built, checked and written one Hive partition (venue, year) at a time into a build folder
(pipeline.release.build), so its memory follows the largest partition, not the warehouse.

What is global is computed once, on narrow columns: the duplicate clusters and paper ids
(pipeline.dedup.cluster over the clean texts and LSH keys), the repeated-notice rule
(pipeline.tables.notices), the diff against the parent (pipeline.release.plan.PaperDiff: 64-bit hashes per
column), and the uniqueness rules of the Pandera models (their key columns only). Everything else is a
function of one partition's abstract rows: a paper's venue and year are its canonical row's, and its URLs
and metrics come from that row.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import pandera.polars as pa
import polars as pl

from pipeline import dedup, release, tables
from pipeline.release.build import BuildWriter
from pipeline.release.layout import PARTITION_COLUMNS, TABLES
from pipeline.release.plan import ReleasePlan
from pipeline.release.writer import TableParts
from schemas import MODELS, validate

#: Rows a Pandera validation covers at once (whole partitions are gathered up to this size): Pandera's
#: per-call cost is paid once per ~50k rows, and a chunk of papers stays near 150 MB.
VALIDATE_ROWS = 50_000
_FILE = "__abstracts_file"


@dataclass(frozen=True)
class Built:
    """What :func:`build_dataset` made: ``tables`` (name → TableParts of the build), ``failures``
    (name → the failure cases of its Pandera model, schemas.validate's frame, or None), ``lineage``
    (``listing``, ``status`` of every lineage row, for the accounting check) and ``plan`` (the release
    plan, with ``changes``)."""

    tables: dict[str, TableParts]
    failures: dict[str, pl.DataFrame | None]
    lineage: pl.DataFrame
    plan: ReleasePlan


def _unique_keys(model: type[pa.DataFrameModel]) -> list[list[str]]:
    """The column sets the model says are unique (a column's ``unique=True``; ``Config.unique``)."""
    schema = model.to_schema()
    keys = [[c] for c, col in schema.columns.items() if col.unique]
    if schema.unique:
        keys.append(list(schema.unique) if not isinstance(schema.unique, str) else [schema.unique])
    return keys


class _Checks:
    """Pandera validation of one table in chunks of whole partitions (:data:`VALIDATE_ROWS`), plus its
    uniqueness rules across chunks (a chunk's own duplicates are Pandera's)."""

    def __init__(self, table: str):
        self.model = MODELS[table]
        self.keys = _unique_keys(self.model)
        self.buffer: list[pl.DataFrame] = []
        self.rows = 0
        self.offset = 0
        self.chunk = 0
        self.failures: list[pl.DataFrame] = []
        self.seen: list[list[pl.DataFrame]] = [[] for _ in self.keys]

    def add(self, df: pl.DataFrame) -> None:
        self.buffer.append(df)
        self.rows += df.height
        if self.rows >= VALIDATE_ROWS:
            self.flush()

    def flush(self) -> None:
        if not self.buffer:
            return
        df = pl.concat(self.buffer, how="vertical")
        self.buffer, self.rows = [], 0
        failed = validate(df, self.model)
        if failed is not None:
            self.failures.append(failed.with_columns(pl.col("index").cast(pl.Int64) + self.offset))
        for i, key in enumerate(self.keys):
            self.seen[i].append(df.select(key).unique().with_columns(chunk=pl.lit(self.chunk)))
        self.offset += df.height
        self.chunk += 1

    def result(self) -> pl.DataFrame | None:
        self.flush()
        out = list(self.failures)
        for key, seen in zip(self.keys, self.seen):
            if len(seen) < 2:
                continue
            across = (
                pl.concat(seen)
                .group_by(key)
                .agg(pl.col("chunk").n_unique().alias("chunks"))
                .filter(pl.col("chunks") > 1)
                .sort(key)
            )
            if across.height:
                out.append(
                    across.select(
                        failure_case=pl.concat_str([pl.col(c).cast(pl.String) for c in key], separator=", "),
                        schema_context=pl.lit("DataFrameSchema" if len(key) > 1 else "Column"),
                        column=pl.lit(key[0] if len(key) == 1 else str(key)),
                        check=pl.lit("multiple_fields_uniqueness" if len(key) > 1 else "field_uniqueness"),
                        check_number=pl.lit(None, pl.Int32),
                        index=pl.lit(None, pl.Int64),
                    )
                )
        if not out:
            return None
        return pl.concat([f.with_columns(pl.all().cast(pl.String)) for f in out], how="diagonal_relaxed")


def _split(df: pl.DataFrame) -> dict[tuple, pl.DataFrame]:
    """``df`` by (venue, year), without those columns."""
    return df.partition_by(list(PARTITION_COLUMNS), as_dict=True, include_key=False) if df.height else {}


def build_dataset(abstract_files: list[Path], warehouse: Path, build: Path) -> Built:
    """Build the four tables of the next release of ``warehouse`` into the empty folder ``build``.

    Args:
        abstract_files: every listing's ``abstracts`` work file (pipeline.records.ABSTRACT_SCHEMA), in
            listing order.
        warehouse: the warehouse (its LATEST release is the parent: pipeline.release.plan_release).
        build: the build folder (pipeline.release.build.build_dir); tables.json is written last here, the
            plan is the caller's to write.

    Returns:
        a :class:`Built`. Raises ReleaseError (LATEST, releases.json or the parent unreadable or damaged)
        and SchemaDriftError (a column would lose data against the parent's schema).
    """
    plan = release.plan_release(warehouse)
    scan = pl.scan_parquet(abstract_files)
    names = scan.collect_schema().names()
    narrow_columns = [c for c in tables.CLUSTER_COLUMNS if c in names]
    narrow = (
        pl.scan_parquet(abstract_files, include_file_paths=_FILE)
        .select(*narrow_columns, "venue", _FILE)
        .collect()
    )
    notices = tables.notices(narrow)
    publishable = narrow.select(narrow_columns).with_columns(notices["quarantine_reason"])
    publishable = publishable.filter(pl.col("quarantine_reason").is_null())
    clusters = dedup.cluster(
        publishable,
        tables.previous_id_map(plan.previous_papers, plan.previous_lineage, with_texts=False),
        previous_texts=plan.previous_papers,
    )
    del publishable
    # the global frames split once by partition, so each partition joins only its own rows
    where = narrow.select("listing", "paragraph", *PARTITION_COLUMNS)
    placed = clusters.join(where, on=["listing", "paragraph"], how="left", maintain_order="left")
    clusters_by, empty_clusters = _split(placed), clusters.clear()
    notices_by, empty_notices = (
        _split(notices.with_columns(narrow.select(PARTITION_COLUMNS))),
        notices.clear(),
    )
    del clusters, notices, where, placed
    order = {str(p): i for i, p in enumerate(abstract_files)}
    groups = (
        narrow.select(*PARTITION_COLUMNS, _FILE)
        .unique()
        .group_by(PARTITION_COLUMNS)
        .agg(pl.col(_FILE))
        .sort(PARTITION_COLUMNS)
    )
    del narrow
    pinned = {
        name: release.table_schema(warehouse, name, plan.parent) if plan.parent is not None else {}
        for name in TABLES
    }
    differ = plan.differ()
    writer = BuildWriter(build)
    checks = {name: _Checks(name) for name in TABLES}
    lineage = []
    parts = [(venue, year, sorted(files, key=order.__getitem__)) for venue, year, files in groups.iter_rows()]
    if not parts:  # no abstract at all: every table is one empty partition
        parts = [(None, None, [])]
    for venue, year, files in parts:
        rows = (
            pl.scan_parquet([Path(f) for f in files]).filter(pl.col("venue") == venue, pl.col("year") == year)
            if files
            else scan.head(0)
        ).collect()
        key = (venue, year)
        built = tables.build_tables(
            rows, clusters_by.get(key, empty_clusters), notices_by.get(key, empty_notices)
        )
        del rows
        built["papers"] = differ.stamp(built["papers"])
        for name in TABLES:
            df = built[name]
            checks[name].add(df)
            df = release.conform(df, name, pinned[name])
            writer.add(name, df)
        lineage.append(built["listing_lineage"].select("listing", "status"))
    return Built(
        tables=writer.finish(),
        failures={name: checks[name].result() for name in TABLES},
        lineage=pl.concat(lineage),
        plan=replace(plan, changes=differ.changes()),
    )
