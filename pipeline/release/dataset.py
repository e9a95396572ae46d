"""The dataset tables step as one pure function: every listing's abstracts → the tables of the next
release: the four per-paper tables built, checked and written one Hive partition (venue, year) at a time
into a build folder (pipeline.release.build_files), so its memory follows the largest partition, not the
warehouse.

What is global is computed once, on narrow columns: the duplicate clusters and paper ids
(pipeline.build.dedup.cluster over the hashes and LSH keys; the clean texts of candidate pairs only are read
from the work files), the repeated-notice rule
(pipeline.build.tables.notices), the titles and authors a paper takes from another copy
(pipeline.build.tables.fills),
the diff against the parent (pipeline.release.plan.PaperDiff: 64-bit hashes per column), and the
uniqueness rules of the Pandera models (their key columns only). Everything else is a
function of one partition's abstract rows: a paper's venue and year are its canonical row's, and its URLs
and metrics come from that row. The benchmark tables (pipeline.build.benchmarks) are global across
partitions: each batch keeps only its narrow result rows (paper_metrics rows of the paper's own method, with
the title), and both tables are computed from them once every partition is built, each one file.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

import pandera.polars as pa
import polars as pl

from pipeline import release
from pipeline.build import benchmarks, dedup, tables
from pipeline.release import reuse
from pipeline.release.build_files import BuildWriter
from pipeline.release.conform import target_dtypes
from pipeline.release.layout import PARTITION_COLUMNS, PARTITIONED_TABLES, TABLES
from pipeline.release.manifest import FileEntry
from pipeline.release.plan import ReleasePlan
from pipeline.release.writer import TableParts, partition_path
from pipeline.runtime import versions
from pipeline.runtime.progress import SILENT, Reporter
from schemas import MODELS, SCHEMA_VERSION, validate

#: Abstract rows one batch of whole partitions gathers (a partition larger than this is a batch alone): the
#: tables are built, validated and written one batch at a time, so the per-call costs of polars and Pandera
#: are paid once per ~50k rows, not once per partition (there are ~150 venue/year partitions in the dev
#: corpus), and a batch's rows with every column stay near 150-300 MB.
BATCH_ROWS = 50_000
_FILE = "__abstracts_file"
_ROW = "__row"


@dataclass(frozen=True)
class Built:
    """What :func:`build_dataset` made: ``tables`` (name → TableParts of the build), ``failures``
    (name → the failure cases of its Pandera model, schemas.validate's frame, or None), ``lineage``
    (``listing``, ``status`` of every lineage row, for the accounting check), ``plan`` (the release
    plan, with ``changes``) and ``untraced`` (pipeline.build.benchmarks.untraced of the build: the
    benchmark results that come from no paper_metrics row, for the ``traces`` check; empty when all do) and
    ``reused`` (the partitions taken from the parent release as they are: pipeline.release.reuse)."""

    tables: dict[str, TableParts]
    failures: dict[str, pl.DataFrame | None]
    lineage: pl.DataFrame
    plan: ReleasePlan
    untraced: pl.DataFrame
    reused: int = 0


def _unique_keys(model: type[pa.DataFrameModel]) -> list[list[str]]:
    """The column sets the model says are unique (a column's ``unique=True``; ``Config.unique``)."""
    schema = model.to_schema()
    keys = [[c] for c, col in schema.columns.items() if col.unique]
    if schema.unique:
        keys.append(list(schema.unique) if not isinstance(schema.unique, str) else [schema.unique])
    return keys


class _Checks:
    """Pandera validation of one table, one batch of whole partitions at a time (:data:`BATCH_ROWS`), plus
    its uniqueness rules across batches (a batch's own duplicates are Pandera's)."""

    def __init__(self, table: str):
        self.model = MODELS[table]
        self.keys = _unique_keys(self.model)
        self.offset = 0
        self.chunk = 0
        self.failures: list[pl.DataFrame] = []
        self.seen: list[list[pl.DataFrame]] = [[] for _ in self.keys]

    def add(self, df: pl.DataFrame) -> None:
        """Validate one batch (failure ``index``: the row's number in the table's batches so far)."""
        failed = validate(df, self.model)
        if failed is not None:
            self.failures.append(failed.with_columns(pl.col("index").cast(pl.Int64) + self.offset))
        for i, key in enumerate(self.keys):
            self.seen[i].append(df.select(key).unique().with_columns(chunk=pl.lit(self.chunk)))
        self.offset += df.height
        self.chunk += 1

    def add_keys(self, df: pl.DataFrame, rows: int) -> None:
        """Count a partition taken from the parent as it is (pipeline.release.reuse), validated when the
        parent was built: only its uniqueness keys (``df``: its key columns) join the checks across batches;
        ``rows``: its rows."""
        for i, key in enumerate(self.keys):
            self.seen[i].append(df.select(key).unique().with_columns(chunk=pl.lit(self.chunk)))
        self.offset += rows
        self.chunk += 1

    def result(self) -> pl.DataFrame | None:
        """Every failure case (schemas.validate's columns, as strings), or None."""
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


def _batches(groups) -> list[list[tuple]]:
    """Consecutive partitions ``(venue, year, files, rows)`` gathered into batches of about
    :data:`BATCH_ROWS` abstract rows; one empty batch when there is no partition (no abstract at all)."""
    out: list[list[tuple]] = [[]]
    rows = 0
    for g in groups:
        if out[-1] and rows + g[3] > BATCH_ROWS:
            out.append([])
            rows = 0
        out[-1].append(g)
        rows += g[3]
    return out


def _in_partitions(keys: list[tuple]) -> pl.Expr:
    """True on rows whose (venue, year) is one of ``keys`` (a filter: the scan's row order is kept)."""
    venue, year = (pl.col(c) for c in PARTITION_COLUMNS)
    return pl.any_horizontal([(venue == v) & (year == y) for v, y in keys])


def _split(df: pl.DataFrame) -> dict[tuple, pl.DataFrame]:
    """``df`` by (venue, year), without those columns."""
    return df.partition_by(list(PARTITION_COLUMNS), as_dict=True, include_key=False) if df.height else {}


def accounting(records: pl.DataFrame, lineage: pl.DataFrame) -> pl.DataFrame:
    """The lineage accounting check's table: per ``listing`` (of ``records``, one row per paragraph read,
    and of ``lineage``, its ``listing`` and ``status``), the paragraphs ``read`` and the lineage rows
    ``published``, ``duplicate``, ``quarantined`` (UInt32 counts, 0 when none) and ``ok`` (Boolean: read =
    published + duplicate + quarantined; docs/design.md: rows in = rows out)."""
    read = records.group_by("listing").agg(pl.len().alias("read"))
    out = lineage.group_by("listing").agg(
        *[(pl.col("status") == s).sum().alias(s) for s in ("published", "duplicate", "quarantined")]
    )
    both = read.join(out, on="listing", how="full", coalesce=True).fill_null(0)
    return both.with_columns(
        ok=pl.col("read") == pl.col("published") + pl.col("duplicate") + pl.col("quarantined")
    )


def _narrow(abstract_files: list[Path], scan: pl.LazyFrame) -> tuple[list[str], pl.DataFrame]:
    """The columns the global steps read (pipeline.build.tables.CLUSTER_COLUMNS present in the files, but the
    clean texts: :func:`_text_lookup` reads those the duplicate search asks for) and every abstract row of
    them, with ``venue``, the row's file (``__abstracts_file``), its number in the files' concatenation
    (``__row``, UInt32) and pipeline.build.tables.FILLED_FIELDS."""
    names = scan.collect_schema().names()
    narrow_columns = [c for c in tables.CLUSTER_COLUMNS if c in names and c != "abstract"]
    narrow = (
        pl.scan_parquet(abstract_files, include_file_paths=_FILE)
        .with_row_index(_ROW)
        .select(
            *narrow_columns,
            _ROW,
            "venue",
            _FILE,
            *[c for c in tables.FILLED_FIELDS if c not in narrow_columns],
        )
        .collect()
    )
    return narrow_columns, narrow


def _text_lookup(abstract_files: list[Path], row_numbers: pl.Series) -> dedup.TextLookup:
    """pipeline.build.dedup.TextLookup for the rows of a frame whose ``__row`` column is ``row_numbers``: the
    clean texts are read from the work files when asked for (the rows of candidate pairs only), streaming, so
    the step never holds every text (about 1.2 KB an abstract: 1.2 GB at a million)."""

    def lookup(rows: pl.Series) -> list[str]:
        if not rows.len():
            return []
        wanted = row_numbers.gather(rows)
        found = (
            pl.scan_parquet(abstract_files)
            .with_row_index(_ROW)
            .select(_ROW, "abstract")
            .join(pl.LazyFrame({_ROW: wanted.unique()}), on=_ROW, how="semi")
            .collect(engine="streaming")
        )
        text_of = dict(zip(found[_ROW].to_list(), found["abstract"].to_list()))
        return [text_of[r] for r in wanted.to_list()]

    return lookup


def _global_tables(
    results: list[pl.DataFrame], checks: dict[str, _Checks], pinned: dict, writer: BuildWriter
) -> tuple[dict[str, TableParts], pl.DataFrame]:
    """The benchmark tables, global across partitions (a benchmark spans venues), from the narrow result
    rows of every batch (pipeline.build.benchmarks.candidates): checked, conformed and written; then the
    build finished. Returns its tables and the untraced results (pipeline.build.benchmarks.untraced)."""
    for name, df in benchmarks.benchmark_tables(pl.concat(results)).items():
        checks[name].add(df)
        writer.add(name, release.conform(df, name, pinned[name]))
    built_tables = writer.finish()
    untraced = benchmarks.untraced(
        *(built_tables[n].scan() for n in ("benchmark_results", "paper_metrics", "papers"))
    )
    return built_tables, untraced


@dataclass(frozen=True)
class _Frames:
    """The global frames of a build, split by (venue, year) partition: duplicate clusters and notices (key →
    that partition's rows; ``empty_*`` their schema), the filled titles/authors, the partitions (``groups``:
    venue, year, abstracts files, rows) and ``empty_rows`` (a scan of no abstract row)."""

    clusters_by: dict
    notices_by: dict
    empty_clusters: pl.DataFrame
    empty_notices: pl.DataFrame
    filled: pl.DataFrame
    groups: pl.DataFrame
    empty_rows: pl.LazyFrame


def _global_frames(abstract_files: list[Path], plan: ReleasePlan) -> _Frames:
    """What is global is computed once, on narrow columns (the module docstring), then split by partition,
    so each partition joins only its own rows."""
    scan = pl.scan_parquet(abstract_files)
    narrow_columns, narrow = _narrow(abstract_files, scan)
    notices = tables.notices(narrow)
    publishable = narrow.select(*narrow_columns, _ROW).with_columns(notices["quarantine_reason"])
    publishable = publishable.filter(pl.col("quarantine_reason").is_null())
    clusters = dedup.cluster(
        publishable,
        tables.previous_id_map(plan.previous_papers, plan.previous_lineage, with_texts=False),
        previous_texts=plan.previous_papers,
        texts=_text_lookup(abstract_files, publishable[_ROW]),
    )
    del publishable
    filled = tables.fills(narrow, clusters)  # a paper's title/authors from another copy
    where = narrow.select("listing", "paragraph", *PARTITION_COLUMNS)
    placed = clusters.join(where, on=["listing", "paragraph"], how="left", maintain_order="left")
    groups = narrow.group_by(PARTITION_COLUMNS).agg(pl.col(_FILE).unique(), pl.len().alias("rows"))
    return _Frames(
        clusters_by=_split(placed),
        notices_by=_split(notices.with_columns(narrow.select(PARTITION_COLUMNS))),
        empty_clusters=clusters.clear(),
        empty_notices=notices.clear(),
        filled=filled,
        groups=groups.sort(PARTITION_COLUMNS),
        empty_rows=scan.head(0),
    )


def build_dataset(
    abstract_files: list[Path],
    warehouse: Path,
    build: Path,
    progress: Reporter = SILENT,
    memory: Path | None = None,
) -> Built:
    """Build the tables of the next release of ``warehouse`` into the empty folder ``build``.

    Args:
        abstract_files: every listing's ``abstracts`` work file (pipeline.analyse.abstracts.ABSTRACT_SCHEMA),
            in listing order.
        warehouse: the warehouse (its LATEST release is the parent: pipeline.release.plan_release).
        build: the build folder (pipeline.release.build_files.build_dir); tables.json is written last here,
            the plan is the caller's to write.
        progress: counts ``partitions`` n/N, the (venue, year) partitions built or reused.
        memory: the partition memory (pipeline.release.reuse; ``<work>/partition_inputs.json``): a partition
            whose inputs it remembers and whose parent files hold what they gave is taken from the parent
            release as it is (not built, checked or written), and the memory is rewritten with this build's
            partitions. ``None``: every partition is built, nothing is remembered.

    Returns:
        a :class:`Built` (``reused``: the partitions taken from the parent). Raises ReleaseError (LATEST,
        releases.json or the parent unreadable or damaged) and SchemaDriftError (a column would lose data
        against the parent's schema).
    """
    plan = release.plan_release(warehouse)
    g = _global_frames(abstract_files, plan)
    clusters_by, notices_by, filled, groups = g.clusters_by, g.notices_by, g.filled, g.groups
    order = {str(p): i for i, p in enumerate(abstract_files)}
    parent = plan.parent
    pinned = {n: release.table_schema(warehouse, n, parent) if parent is not None else {} for n in TABLES}
    digests = _input_digests(groups, clusters_by, notices_by, filled, pinned)
    reused, plan = _reusable(digests, memory, plan, warehouse)
    differ = plan.differ()
    writer = BuildWriter(build)
    checks = {name: _Checks(name) for name in TABLES}
    lineage: list[pl.DataFrame] = []
    results: list[pl.DataFrame] = []
    step = progress.step("partitions", groups.height, "partitions")
    if reused and parent is not None:
        root = release.release_dir(warehouse, parent)
        lineage, results, ids = _take_reused(reused, root, plan, writer, checks)
        differ.keep(ids)
        step.advance(len(reused))
    for batch in _batches(g for g in groups.iter_rows() if (g[0], g[1]) not in reused):
        keys = [(venue, year) for venue, year, _, _ in batch]
        files = sorted({f for _, _, fs, _ in batch for f in fs}, key=order.__getitem__)
        rows = (
            pl.scan_parquet([Path(f) for f in files]).filter(_in_partitions(keys)) if files else g.empty_rows
        ).collect()
        built = tables.build_tables(
            rows,
            pl.concat([clusters_by[k] for k in keys if k in clusters_by] or [g.empty_clusters]),
            pl.concat([notices_by[k] for k in keys if k in notices_by] or [g.empty_notices]),
            filled,
        )
        del rows
        built["papers"] = differ.stamp(built["papers"])
        results.append(benchmarks.candidates(built["paper_metrics"], built["papers"]))
        for name in PARTITIONED_TABLES:
            df = built[name]
            checks[name].add(df)
            df = release.conform(df, name, pinned[name])
            writer.add(name, df)
        lineage.append(built["listing_lineage"].select("listing", "status"))
        step.advance(len(batch))
    step.close()
    built_tables, untraced = _global_tables(results, checks, pinned, writer)
    if memory is not None:
        reuse.write_memory(memory, _remembered(digests, built_tables))
    return Built(
        tables=built_tables,
        failures={name: checks[name].result() for name in TABLES},
        lineage=pl.concat(lineage),
        plan=replace(plan, changes=differ.changes()),
        untraced=untraced,
        reused=len(reused),
    )


def _input_digests(
    groups: pl.DataFrame, clusters_by: dict, notices_by: dict, filled: pl.DataFrame, pinned: dict
) -> dict[tuple[str, int], str]:
    """pipeline.release.reuse.input_digests of every partition of ``groups`` (venue, year, files, rows)."""
    files_of = {(v, y): list(fs) for v, y, fs, _ in groups.iter_rows()}
    digest_of = reuse.file_digests(sorted({f for fs in files_of.values() for f in fs}))
    context = "\0".join(
        [
            versions.pipeline_version(),
            str(SCHEMA_VERSION),
            pl.__version__,
            *(f"{n}={sorted(target_dtypes(n, pinned[n]).items())}" for n in TABLES),
        ]
    )
    frames: dict = {}
    for key in files_of:
        clusters = clusters_by.get(key)
        ids = clusters["paper_id"].unique() if clusters is not None else pl.Series("paper_id", [], pl.String)
        frames[key] = [
            reuse.frame_digest(clusters, ["listing", "paragraph"]) if clusters is not None else b"-",
            reuse.frame_digest(notices_by[key], ["listing", "paragraph"]) if key in notices_by else b"-",
            reuse.frame_digest(filled.filter(pl.col("paper_id").is_in(ids.implode())), ["paper_id"]),
        ]
    return reuse.input_digests(files_of, digest_of, frames, context)


def _reusable(
    digests: dict, memory: Path | None, plan: ReleasePlan, warehouse: Path
) -> tuple[dict, ReleasePlan]:
    """The partitions to take from the parent (pipeline.release.reuse.reusable, their files' bytes checked:
    reuse.verified), none without a memory or a parent; and the plan with the files checked added to its
    ``verified``."""
    if memory is None or plan.parent is None or plan.parent_manifest is None:
        return {}, plan
    chosen = reuse.reusable(digests, reuse.read_memory(memory), plan.parent_manifest.table_files())
    root = release.release_dir(warehouse, plan.parent)
    reused, checked = reuse.verified(chosen, root, plan.verified)
    return reused, replace(plan, verified={**plan.verified, **checked})


def _remembered(digests: dict, built: dict[str, TableParts]) -> dict[str, dict[str, str | None]]:
    """The memory after this build: each partition's input digest → its tables' output fingerprints."""
    by_path = {p.rel: p.fingerprint for name in PARTITIONED_TABLES for p in built[name].partitions}
    return {
        digest: {name: by_path.get(partition_path(name, *key)) for name in PARTITIONED_TABLES}
        for key, digest in digests.items()
    }


def _take_reused(
    reused: dict[tuple[str, int], dict[str, FileEntry]],
    root: Path,
    plan: ReleasePlan,
    writer: BuildWriter,
    checks: dict[str, _Checks],
) -> tuple[list[pl.DataFrame], list[pl.DataFrame], pl.Series]:
    """List the parent's files of the ``reused`` partitions (key → table → manifest entry; ``root``: the
    parent's folder) in ``writer``, and feed the global parts of the build what building them would have
    given, read as narrow columns with one scan per table (pipeline.release.reuse.read_partitions): the
    checks' uniqueness keys here; returned, ``([lineage listing/status], [benchmark candidates], paper
    ids)`` for the accounting check, the benchmark tables and the changelog."""
    assert plan.parent_manifest is not None
    order = {n: t.column_names for n, t in plan.parent_manifest.tables.items()}
    for _, files in sorted(reused.items()):
        for table, entry in files.items():
            writer.add_reused(table, root / entry.path, entry, order[table])

    def narrow(table: str, columns: list[str]) -> pl.DataFrame | None:
        """The reused partitions' ``columns`` of ``table``; None when none of them has a row in it (an empty
        frame would not have the table's dtypes)."""
        entries = [files[table] for _, files in sorted(reused.items()) if table in files]
        if not entries:
            return None
        return reuse.read_partitions(root, entries, [c for c in columns if c not in PARTITION_COLUMNS])

    for table in PARTITIONED_TABLES:
        keys = sorted({c for k in checks[table].keys for c in k})
        rows = sum(files[table].rows or 0 for files in reused.values() if table in files)
        found = narrow(table, keys)
        if found is not None:
            checks[table].add_keys(found.select(keys), rows)
    papers = narrow("papers", ["paper_id", "title"])
    metrics = narrow("paper_metrics", ["paper_id", *benchmarks.METRIC_INPUTS])
    lineage = narrow("listing_lineage", ["listing", "status"])
    return (
        [lineage.select("listing", "status")] if lineage is not None else [],
        [benchmarks.candidates(metrics, papers)] if metrics is not None and papers is not None else [],
        papers["paper_id"] if papers is not None else pl.Series("paper_id", [], pl.String),
    )
