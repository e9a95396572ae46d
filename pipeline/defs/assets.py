"""Assets: per-listing work (partitioned by ``listings``), the published tables, and the release.

Each asset calls pure functions from ``pipeline`` and writes its output under ``<warehouse>/_work``.
"""

import shutil
import time
from contextlib import contextmanager
from pathlib import Path

import dagster as dg
import polars as pl
from pydantic import Field

from pipeline import card, release
from pipeline.analyse import abstracts as analysis
from pipeline.card.changelog import changes_sentence
from pipeline.defs import checks
from pipeline.defs.io import (
    PREVIEW_ROWS,
    abstracts_data_version,
    column_schema,
    listing_data_version,
    model_column_schema,
    model_descriptions,
    parts_data_version,
    published_metadata,
    table_metadata,
    work_file,
    work_info,
    work_stem,
    write_work,
    write_work_info,
)
from pipeline.defs.partitions import listings_partitions, raw_listing
from pipeline.ingest import listings, rawfiles
from pipeline.ingest import records as ingest_records
from pipeline.ingest.listings import listing_name, listing_path
from pipeline.release import dataset, reuse
from pipeline.release.writer import TableParts
from pipeline.runtime import config, versions
from pipeline.runtime import config as pipeline_config  # inside release_asset, ``config`` is its run config
from pipeline.runtime.progress import Reporter
from schemas import MODELS

OWNERS = ["team:data"]
TABLE_DESCRIPTIONS = {
    "papers": "One row per distinct paper: the canonical abstract of its duplicate cluster, raw and clean, "
    "language, counts, stable paper_id, first/last-changed release (docs/design.md, Published tables).",
    "paper_urls": "One row per URL of a paper: normalised url, url_raw, kind, host, offsets in abstract_raw.",
    "paper_metrics": "One row per reported result metric: value, unit, kind, metric, dataset, subject, "
    "baseline, direction, qualifier, span and offsets in the clean abstract.",
    "listing_lineage": "One row per raw paragraph of every listing: published, duplicate (of what, how "
    "similar) or quarantined (why). Rows in = rows out.",
    "benchmarks": "One row per benchmark (dataset_key, metric_key, unit) with results of at least two "
    "papers: most frequent spellings, direction (higher/lower/unknown), papers, best value and its "
    "paper, first and last year (pipeline.build.benchmarks; downstream of paper_metrics).",
    "benchmark_results": "One row per result of a paper's own method on a benchmark: paper, title, venue, "
    "year, value, unit, rank, and the paper_metrics row (paper_id, start, end) and span it comes from.",
}
#: The release asset's table: the release's changelog against its parent (changelog.parquet).
CHANGELOG_DESCRIPTIONS = {
    "paper_id": "Paper added, removed or changed against the parent release.",
    "change": "added, removed or changed.",
    "columns": "The changed columns (comma-separated) of a changed paper, else null.",
}


@dg.asset(
    partitions_def=listings_partitions,
    deps=[raw_listing],
    group_name="listing",
    kinds={"polars", "parquet"},
    owners=OWNERS,
    code_version=versions.code_version("listing_records"),
    metadata={
        "dagster/column_schema": column_schema(ingest_records.RECORD_SCHEMA, analysis.COLUMN_DESCRIPTIONS)
    },
)
def listing_records(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
    """Listing files decoded and split: one row per paragraph (the header is metadata, not a row).

    Handles one partition or a range of them in one run (a run tagged with a partition range). Columns:
    pipeline.ingest.records.RECORD_SCHEMA (listing, listing_sha256, encoding, venue, year, paragraph, line,
    raw_sha256, abstract_raw, decode_error). An undecodable file becomes one row with paragraph 0 and the
    reason (quarantined downstream); so does an entry pipeline.ingest.rawfiles refuses (a link out of the raw
    folder, a FIFO, a device...: never opened). Raises dagster.Failure when a partition's file is gone.
    """
    cpu = time.process_time()
    total, frame, out = 0, None, None
    notes: list[str] = []
    with Reporter(context.log.info).step("listings", len(context.partition_keys), "listings") as step:
        for key in context.partition_keys:
            frame, out = _read_listing(context, key, notes)
            total += frame.height
            step.advance()
    # the readers' notes as one log event for the whole range: each event is a SQLite write (about 12 ms)
    context.log.info(
        "\n".join([*notes, f"{len(context.partition_keys)} listings decoded: {total} paragraphs"])
    )
    one = len(context.partition_keys) == 1 and frame is not None
    meta = table_metadata(frame, analysis.COLUMN_DESCRIPTIONS, out) if one and frame is not None else {}
    return dg.MaterializeResult(
        metadata={
            **meta,
            "listings": len(context.partition_keys),
            "paragraphs": total,
            "cpu_seconds": _cpu_since(cpu),
        },
        data_version=listing_data_version(context.partition_keys),
    )


def _read_listing(context: dg.AssetExecutionContext, key: str, notes: list[str]) -> tuple[pl.DataFrame, Path]:
    """Read partition ``key``'s listing (pipeline.ingest.listings.read_listing), log its warnings (one event
    each, so the run's warnings can be listed from its stored log), append its notes to ``notes``, write its
    work file and sidecar; returns the frame and the work file. Raises dagster.Failure when the partition's
    file is gone."""
    name, path = listing_name(key), listing_path(key)
    if rawfiles.is_gone(config.raw_dir(), path):
        raise dg.Failure(
            f"listing {name!r}: partition exists but {config.raw_dir() / name} is missing; the "
            "sensor or `python -m pipeline run` removes partitions of deleted files"
        )
    read = listings.read_listing(config.raw_dir(), path)
    notes.extend(read.notes)
    for warning in read.warnings:
        context.log.warning(warning)
    out = work_file("listing_records", key)
    write_work(read.frame, out)
    write_work_info("listing_records", key, read.info)
    return read.frame, out


@dg.asset(
    partitions_def=listings_partitions,
    deps=[listing_records],
    group_name="listing",
    kinds={"polars", "parquet"},
    owners=OWNERS,
    code_version=versions.code_version("abstracts"),
    metadata={"dagster/column_schema": column_schema(analysis.ABSTRACT_SCHEMA, analysis.COLUMN_DESCRIPTIONS)},
)
def abstracts(context: dg.AssetExecutionContext) -> dg.MaterializeResult:
    """Per-abstract work for one listing or a range of them: clean text, language, URLs, metrics, hashes,
    quarantine reason (pipeline.analyse.analysis.iter_abstracts, spread over PIPELINE_WORKERS processes;
    each listing's frame is written as soon as it is done, so memory does not grow with the range).

    Columns: pipeline.analyse.analysis.ABSTRACT_SCHEMA (listing_records' columns plus abstract, language,
    language_score, n_words, content_hash, quarantine_reason, urls (list of structs), metrics (list of
    structs), lsh_keys (list of uint64)) and analysis_version. Abstracts already analysed by the same rules
    (same raw_sha256 and analysis_version in any listing's work file) are reused, not recomputed.
    """
    cpu = time.process_time()
    keys = context.partition_keys
    # only the hashes of the whole range are read up front (one projected scan); each listing's records are
    # read when its turn comes, and its frame is written as soon as it is done
    record_hashes = analysis.record_hashes({k: work_file("listing_records", k) for k in keys})
    load = lambda k: pl.read_parquet(work_file("listing_records", k))  # noqa: E731
    stream = analysis.iter_abstracts(
        keys, load, record_hashes, _analysed(keys), config.workers(), Reporter(context.log.info)
    )
    total_q, frame, out, lines = 0, None, None, []
    stats: dict = {"analysed": 0, "reused": 0, "seconds": {}}
    for key, frame, listing_stats in stream:
        analysis.add_stats(stats, listing_stats)
        out = _write_abstracts(key, frame)
        quarantined, line = _listing_summary(frame)
        total_q += quarantined
        lines.append(f"{listing_name(key)}: {line}")
    # one log event for the whole range (cross-listing duplicates: see the dataset_tables run)
    context.log.info("\n".join(lines))
    context.log.info(
        f"analysed {stats['analysed']} abstracts, reused {stats['reused']} from earlier runs; "
        f"seconds by stage { ({k: round(v, 2) for k, v in stats['seconds'].items()}) }"
    )
    one = len(keys) == 1 and frame is not None
    meta = table_metadata(frame, analysis.COLUMN_DESCRIPTIONS, out) if one and frame is not None else {}
    return dg.MaterializeResult(
        metadata={
            **meta,
            "listings": len(keys),
            "quarantined": total_q,
            "analysed": stats["analysed"],
            "reused": stats["reused"],
            "stage_seconds": dg.MetadataValue.json(stats["seconds"]),
            "cpu_seconds": _cpu_since(cpu),
        },
        data_version=abstracts_data_version(keys),
    )


def _listing_summary(frame: pl.DataFrame) -> tuple[int, str]:
    """One listing's abstracts told in one log line: ``(quarantined rows, text)``; exact duplicates are kept
    rows sharing a ``content_hash``."""
    quarantined = frame.filter(pl.col("quarantine_reason").is_not_null())
    kept = frame.filter(pl.col("quarantine_reason").is_null())
    dups = kept.height - kept["content_hash"].n_unique()
    return quarantined.height, (
        f"{frame.height} paragraphs -> {kept.height - dups} abstracts to "
        f"publish, {dups} exact duplicates within the listing, {quarantined.height} quarantined "
        f"{dict(quarantined.group_by('quarantine_reason').len().sort('quarantine_reason').iter_rows())}"
    )


def _analysed(keys: list[str]) -> dict[str, Path]:
    """Partition key (or stem) → ``abstracts`` work file of every listing analysed by the current rules
    (its sidecar's ``analysis_version``): their rows are reused, not recomputed."""
    key_of = {work_stem(k): k for k in keys}  # a stem maps to itself, and distinct keys have distinct stems
    return {
        key_of.get(f.stem, f.stem): f
        for f in sorted(work_file("abstracts", "x").parent.glob("*.parquet"))
        if work_info("abstracts", f.stem).get("analysis_version") == analysis.ANALYSIS_VERSION
    }


def _write_abstracts(key: str, frame: pl.DataFrame) -> Path:
    """Write partition ``key``'s abstracts work file and its sidecar; returns the file."""
    out = work_file("abstracts", key)
    write_work(frame, out)
    info = work_info("listing_records", key)
    write_work_info(
        "abstracts",
        key,
        {
            "listing": info.get("listing"),
            "listing_sha256": info.get("listing_sha256"),
            "analysis_version": analysis.ANALYSIS_VERSION,
            "rows": frame.height,
        },
    )
    return out


def _current_abstracts(context: dg.AssetExecutionContext) -> tuple[list[Path], pl.DataFrame]:
    """Every registered listing's ``abstracts`` work file (in listing order), and the ``listing`` column of
    their ``listing_records`` (one row per paragraph read)."""
    keys = sorted(context.instance.get_dynamic_partitions(listings_partitions.name))
    missing = [k for k in keys if not work_file("abstracts", k).exists()]
    if missing:
        raise dg.Failure(
            f"listings not processed yet (materialise their partitions first): "
            f"{[listing_name(k) for k in missing][:20]}"
        )
    if not keys:
        raise dg.Failure(
            f"no listings registered: put listing files in {config.raw_dir()} and run the "
            "sensor or `python -m pipeline run`"
        )
    records_df = pl.scan_parquet([work_file("listing_records", k) for k in keys]).select("listing").collect()
    return [work_file("abstracts", k) for k in keys], records_df


@dg.multi_asset(
    specs=[
        dg.AssetSpec(
            name,
            # the benchmark tables are computed from paper_metrics and the papers' titles, in the same step
            deps=["paper_metrics", "papers"] if name in release.GLOBAL_TABLES else [abstracts],
            description=desc,
            group_name="dataset",
            kinds={"polars", "parquet"},
            owners=OWNERS,
            code_version=versions.code_version("dataset_tables"),
            metadata={"dagster/column_schema": model_column_schema(MODELS[name])},
            automation_condition=dg.AutomationCondition.eager(),
        )
        for name, desc in TABLE_DESCRIPTIONS.items()
    ],
    check_specs=[
        *[
            dg.AssetCheckSpec(
                "schema",
                asset=name,
                blocking=True,
                description=f"Pandera model schemas.{MODELS[name].__name__}: every column and rule",
            )
            for name in TABLE_DESCRIPTIONS
        ],
        dg.AssetCheckSpec(
            "accounting",
            asset="listing_lineage",
            blocking=True,
            description="For every listing: published + duplicate + quarantined = paragraphs read",
        ),
        dg.AssetCheckSpec(
            "listings_read",
            asset="listing_lineage",
            blocking=False,
            description="No listing file is quarantined whole (refused, undecodable, empty, truncated, no "
            "reader fits); a warning, the rest is published",
        ),
        dg.AssetCheckSpec(
            "traces",
            asset="benchmark_results",
            blocking=True,
            description="Every result is a paper_metrics row of the same build (paper_id, start, end, value, "
            "keys; kind score, subject ours) and its span is papers.abstract[start:end]",
        ),
    ],
    pool="release",
)
def dataset_tables(context: dg.AssetExecutionContext):
    """The published tables, built together against the release plan (pipeline.release.plan_release:
    parent, next number, the parent's papers and lineage checked) by pipeline.release.dataset.build_dataset:
    exact + near-duplicate clusters over every listing's abstracts (pipeline.build.dedup), stable paper ids
    inherited from the parent, then pipeline.build.tables one (venue, year) partition at a time, the papers'
    history stamped and the diff against the parent computed on the way; then the benchmark tables, global
    across partitions, from the paper_metrics rows (pipeline.build.benchmarks).

    Writes this run's build folder (pipeline.release.build_files: ``<warehouse>/_work/builds/<run id>/``):
    each table's partitions (``<table>/venue=V/year=Y.arrow``) and ``tables.json``, the diff against the
    parent (``release_changes.arrow``), then the plan (``release_plan.json``, last: the build is complete)
    when every blocking check passed, else ``checks_failed.json`` (the build is never published). Each
    table's materialization records the folder (metadata ``build``) for the release step, its row count,
    column schema and a preview of its first partition's first rows.
    Raises dagster.Failure naming the file when LATEST, releases.json or the parent release is unreadable,
    or a column would lose data against the parent's schema.
    Blocking checks: one Pandera schema check per table, the lineage accounting check and the benchmark
    results' ``traces`` check (each result is a paper_metrics row of the same build).
    """
    cpu = time.process_time()
    abstract_files, records_df = _current_abstracts(context)
    # this run's own build folder: the release step of the same run publishes exactly these tables
    build = release.build_dir(config.work_dir(), context.run.run_id)
    release.build_files.clean_unfinished(config.work_dir(), lambda run_id: _run_active(context, run_id))
    shutil.rmtree(build, ignore_errors=True)  # a re-executed step starts clean; the plan is written last
    release.build_files.claim(build)  # this process writes it: a kill -9 leaves debris the next run removes
    try:
        with _as_failure():
            result = dataset.build_dataset(
                abstract_files,
                config.warehouse_dir(),
                build,
                Reporter(context.log.info),
                memory=config.work_dir() / reuse.MEMORY_FILE,
            )
    except BaseException:
        shutil.rmtree(build, ignore_errors=True)  # a failed build (a full disk) leaves no debris
        raise
    if result.reused:
        context.log.info(
            f"{result.reused} partitions taken from release {result.plan.parent} as they are (their "
            "inputs unchanged: pipeline.release.reuse)"
        )
    for name, table in result.tables.items():
        yield _table_result(name, table, build, _cpu_since(cpu))
    results = [checks.schema_check(name, result.failures[name], t.rows) for name, t in result.tables.items()]
    results.append(checks.accounting_check(context, dataset.accounting(records_df, result.lineage)))
    results.append(checks.traces_check(result.untraced, result.tables["benchmark_results"].rows))
    failed = [
        f"{table}: {c.check_name}"
        for table, c in zip([*result.tables, "listing_lineage", "benchmark_results"], results)
        if not c.passed
    ]
    release.build_files.complete(build, result.plan, failed)
    yield from results
    lineage = result.tables["listing_lineage"].scan().filter(pl.col("paragraph") == 0)
    yield checks.listings_read_check(
        listings.quarantined_whole(lineage.select(*listings.LINEAGE_WHOLE).collect())
    )


def _cpu_since(start: float) -> float:
    """CPU seconds (``time.process_time``: user + system of this process) since ``start``, for a step's
    ``cpu_seconds`` metadata (read by bench/pipeline_bench.py; helpers' CPU is not in it)."""
    return round(time.process_time() - start, 3)


def _table_result(name: str, table: TableParts, build: Path, cpu: float) -> dg.MaterializeResult:
    """A published table's materialization: row count, column schema, preview, its ``build`` folder and the
    step's ``cpu_seconds`` up to the build's end."""
    return dg.MaterializeResult(
        asset_key=name,
        metadata={
            **table_metadata(
                table.scan().head(PREVIEW_ROWS).collect(), model_descriptions(MODELS[name]), rows=table.rows
            ),
            "build": dg.MetadataValue.path(str(build)),
            "cpu_seconds": cpu,
        },
        data_version=parts_data_version(table),
    )


class ReleaseConfig(dg.Config):
    """Run config of the release asset."""

    allow_removal: bool = Field(
        default=False,
        description="Publish even when the release would remove more than the allowed share of the latest "
        "release's papers (pipeline.release.MAX_REMOVAL_SHARE), or all of them.",
    )


@dg.asset(
    name="release",
    deps=list(TABLE_DESCRIPTIONS),
    group_name="dataset",
    kinds={"parquet"},
    owners=OWNERS,
    code_version=versions.code_version("release"),
    automation_condition=dg.AutomationCondition.eager(),
    pool="release",
    metadata={"dagster/column_schema": column_schema(release.CHANGELOG_SCHEMA, CHANGELOG_DESCRIPTIONS)},
    check_specs=[
        dg.AssetCheckSpec(
            "manifest",
            asset="release",
            description="Every file of the new release matched manifest.json (sha256, "
            "bytes, rows, columns) before it was committed; a release that "
            "does not is never published (pipeline.release.verify)",
        )
    ],
)
def release_asset(context: dg.AssetExecutionContext, config: ReleaseConfig) -> dg.MaterializeResult:
    """Publish the tables as an immutable, numbered release (pipeline.release.publish) with the plan
    the tables were built with (re-checked under the publish lock).

    The tables and plan are this run's build (pipeline.release.build_files), or, in a run without the tables
    step, the latest complete build; never a mix of two runs. The build's partition files are read one at
    a time, and only those whose fingerprint differs from the parent's file. After the publish, the builds
    of finished runs other than this one are removed.

    No new release when the content equals the latest one. Raises dagster.Failure, LATEST unchanged, when
    another publish holds the lock, LATEST moved since the tables were built, the removal guard refuses
    (run config ``allow_removal``), or the staged release fails verification. UI metadata: release
    number, created, release_id, ``path`` (the release folder), manifest path, changelog counts
    (``changes`` and ``changes/<kind>``), ``lineage_changes`` (listings whose records changed status,
    pipeline.card.changelog.lineage_changes), rows per table; an observation of each table with its
    ``path`` in the release; the asset's table is the release's changelog (``dagster/row_count``, column
    schema and a preview of changelog.parquet). Check ``manifest``: the files verified before the commit.
    """
    cpu = time.process_time()
    wh, work = pipeline_config.warehouse_dir(), pipeline_config.work_dir()
    with _as_failure():
        build = release.build_files.to_publish(work, context.run.run_id)
        context.log.info(f"publishing the tables built in {build}")
        built = release.build_files.read_tables(build)
        inputs = [{"listing": n, "sha256": s} for n, s in _current_inputs(context).iter_rows()]
        plan = release.build_files.read_plan(build, wh)
        result = release.publish(
            wh,
            built,
            inputs,
            keep_last=pipeline_config.keep_releases(),
            plan=plan,
            allow_removal=config.allow_removal,
            progress=Reporter(context.log.info),
        )
    release.build_files.clean(work, build, lambda run_id: _run_active(context, run_id))
    for w in result.warnings:
        context.log.warning(w)
    # the changes only beside a new release: an unchanged run has none (result.changes are LATEST's own)
    context.log.info(
        f"release {result.release} published: {changes_sentence(result.changes, list(result.lineage))}"
        if result.created
        else f"content unchanged: no new release, latest is {result.release}"
    )
    for name in TABLE_DESCRIPTIONS:  # where each published table now is: its folder in this release
        context.log_event(dg.AssetObservation(asset_key=name, metadata=published_metadata(result.path, name)))
    return _release_result(result, built, _cpu_since(cpu))


def _release_result(
    result: release.PublishResult, built: dict[str, TableParts], cpu: float
) -> dg.MaterializeResult:
    """The release's materialization (metadata listed in :func:`release_asset`) with its manifest check."""
    changelog = pl.read_parquet(result.path / "changelog.parquet")
    return dg.MaterializeResult(
        metadata={
            "release": result.release,
            "created": result.created,
            "release_id": result.release_id,
            "path": dg.MetadataValue.path(str(result.path)),
            "manifest": dg.MetadataValue.path(str(result.path / "manifest.json")),
            "changes": dg.MetadataValue.json(result.changes),
            "lineage_changes": dg.MetadataValue.json(list(result.lineage)),
            **{f"changes/{k}": dg.MetadataValue.int(v) for k, v in result.changes.items()},
            **{f"rows/{k}": v.rows for k, v in built.items()},
            **table_metadata(changelog, CHANGELOG_DESCRIPTIONS),
            "card": dg.MetadataValue.md(card.release_metadata_markdown(result.path)),
            "cpu_seconds": cpu,
        },
        data_version=dg.DataVersion(result.release_id),
        check_results=[
            dg.AssetCheckResult(
                check_name="manifest",
                passed=True,
                metadata={
                    "files_checked": result.files_verified,
                    "checked": "before the commit"
                    if result.created
                    else "content unchanged: no new release was written",
                },
            )
        ],
    )


@contextmanager
def _as_failure():
    """Turn a release error (its message names the file and what to do) into a dagster.Failure."""
    try:
        yield
    except release.ReleaseError as err:
        raise dg.Failure(description=str(err)) from None


def _run_active(context: dg.AssetExecutionContext, run_id: str) -> bool:
    """True when ``run_id`` is this run or a run of the instance that has not finished (its build may
    still be written or published)."""
    if run_id == context.run.run_id:
        return True
    run = context.instance.get_run_by_id(run_id)
    return run is not None and not run.is_finished


def _current_inputs(context: dg.AssetExecutionContext) -> pl.DataFrame:
    """listing, listing_sha256 of every registered listing (from the listing_records sidecars)."""
    keys = sorted(context.instance.get_dynamic_partitions(listings_partitions.name))
    infos = [work_info("listing_records", k) for k in keys]
    return pl.DataFrame(
        {
            "listing": [i.get("listing") for i in infos],
            "listing_sha256": [i.get("listing_sha256") for i in infos],
        },
        schema={"listing": pl.String, "listing_sha256": pl.String},
    )
