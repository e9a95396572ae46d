"""The code location loads with everything the UI shows: assets with their descriptions, kinds, owners,
groups and column schemas; checks; sensors, schedule and automation running by default; the executor; the
instance settings (publish pool limit, run queue); and the metadata a real run records."""

import dagster as dg
import polars as pl
import pytest
import yaml

from pipeline import cli, release
from pipeline.definitions import defs
from pipeline.defs.checks import schema_check
from pipeline.ingest.listings import listing_name, partition_key
from pipeline.runtime import config
from schemas import MODELS, validate

ASSETS = {
    "raw_listing",
    "listing_records",
    "abstracts",
    "papers",
    "paper_urls",
    "paper_metrics",
    "listing_lineage",
    "benchmarks",
    "benchmark_results",
    "release",
}


def test_definitions_load():
    dg.Definitions.validate_loadable(defs)
    assert {k.to_user_string() for k in defs.resolve_all_asset_keys()} == ASSETS
    assert defs.resolve_job_def("listing_job").partitions_def.name == "listings"


def test_every_asset_carries_what_the_ui_shows():
    for key in defs.resolve_all_asset_keys():
        spec = defs.resolve_assets_def(key).specs_by_key[key]
        name = key.to_user_string()
        assert spec.description and len(spec.description) > 40, name
        if name == "raw_listing":  # the raw files (external asset: data versions only, never materialised)
            assert spec.group_name == "listing" and defs.resolve_assets_def(key).is_external
            continue
        assert "parquet" in spec.kinds and spec.owners == ["team:data"], name
        assert spec.group_name == ("listing" if name in ("listing_records", "abstracts") else "dataset"), name
        schema = spec.metadata["dagster/column_schema"]
        assert isinstance(schema, dg.TableSchema) and len(schema.columns) >= 3, name
    papers = defs.resolve_assets_def("papers").specs_by_key[dg.AssetKey("papers")]
    columns = {c.name: c for c in papers.metadata["dagster/column_schema"].columns}
    assert list(columns) == list(MODELS["papers"].to_schema().columns)
    assert columns["year"].type == "Int64" and "Hive partition" in columns["year"].description
    release_cols = defs.resolve_assets_def("release").specs_by_key[dg.AssetKey("release")].metadata
    assert [c.name for c in release_cols["dagster/column_schema"].columns] == [
        "paper_id",
        "change",
        "columns",
    ]


def test_checks_automation_pools_and_executor():
    checks = {(k.asset_key.to_user_string(), k.name) for k in defs.resolve_asset_graph().asset_check_keys}
    assert checks == {
        ("papers", "schema"),
        ("paper_urls", "schema"),
        ("paper_metrics", "schema"),
        ("listing_lineage", "schema"),
        ("listing_lineage", "accounting"),
        ("listing_lineage", "listings_read"),
        ("benchmarks", "schema"),
        ("benchmark_results", "schema"),
        ("benchmark_results", "traces"),
        ("release", "manifest"),
    }
    graph = defs.resolve_asset_graph()
    # the benchmark tables sit downstream of paper_metrics (and papers, for the titles)
    for name in ("benchmarks", "benchmark_results"):
        parents = {k.to_user_string() for k in graph.get(dg.AssetKey(name)).parent_keys}
        assert parents == {"paper_metrics", "papers"}, name
    assert "benchmarks" in {k.to_user_string() for k in graph.get(dg.AssetKey("release")).parent_keys}
    for name in ("papers", "paper_urls", "paper_metrics", "listing_lineage", "benchmarks", "release"):
        node = graph.get(dg.AssetKey(name))
        assert (
            node.automation_condition is not None and "eager" in node.automation_condition.get_label().lower()
        )
        assert node.pools == {"release"}, name
    assert graph.get(dg.AssetKey("abstracts")).automation_condition is None
    assert defs.resolve_sensor_def("raw_listings_sensor").default_status == dg.DefaultSensorStatus.RUNNING
    automation = defs.resolve_sensor_def("dataset_automation")
    assert isinstance(automation, dg.AutomationConditionSensorDefinition)
    assert automation.default_status == dg.DefaultSensorStatus.RUNNING
    executor = defs.resolve_job_def("listing_job").executor_def
    assert executor.name == "multiprocess"
    resolved = executor.config_schema.resolve_config({}).value["config"]
    assert resolved["max_concurrent"] == config.max_concurrent_steps()


@pytest.mark.integration
def test_dagster_home_limits_publishing_to_one_and_queues_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PIPELINE_MAX_CONCURRENT_RUNS", "3")
    home = config.ensure_dagster_home()
    settings = yaml.safe_load((home / "dagster.yaml").read_text())
    assert settings["telemetry"] == {"enabled": False}
    assert settings["nux"] == {"enabled": False}  # no first-visit pop-up in the UI
    with dg.DagsterInstance.get() as instance:
        assert instance.global_op_concurrency_default_limit == config.PUBLISH_POOL_LIMIT == 1
        concurrency = instance.get_concurrency_config()
        assert concurrency.pool_config.pool_granularity.value == "run"
        assert concurrency.run_queue_config.max_concurrent_runs == 3
    # a home written by an earlier version is upgraded; a user's own file is left alone
    (home / "dagster.yaml").write_text("telemetry:\n  enabled: false\n")
    config.ensure_dagster_home()
    assert "default_limit: 1" in (home / "dagster.yaml").read_text()
    (home / "dagster.yaml").write_text("telemetry:\n  enabled: true\n")
    config.ensure_dagster_home()
    assert (home / "dagster.yaml").read_text() == "telemetry:\n  enabled: true\n"


def test_partition_keys_are_safe_and_reversible():
    for name in ["000_d1f8394cc51cd0ab.txt", "sub dir/ICML 2026 (v2).txt", "会议/列表.txt", "a...b|c,d.txt"]:
        key = partition_key(name)
        assert listing_name(key) == name
        assert "/" not in key and "..." not in key and "|" not in key and " " not in key and key.isascii()
    assert partition_key("000_d1f8394cc51cd0ab.txt") == "000_d1f8394cc51cd0ab.txt"


@pytest.mark.integration
def test_a_real_run_records_release_metadata_checks_and_failing_rows(project):
    assert cli.run() == 0
    with dg.DagsterInstance.get() as instance:
        record = instance.fetch_materializations(dg.AssetKey("release"), limit=1).records[0]
        meta = {k: getattr(v, "value", v) for k, v in record.asset_materialization.metadata.items()}
        assert meta["release"] == 1 and meta["created"] is True
        assert meta["manifest"] == str(project / "warehouse" / "release=1" / "manifest.json")
        assert meta["changes/added"] == 38 and meta["changes/removed"] == 0 and meta["changes/changed"] == 0
        assert meta["dagster/row_count"] == 38 and meta["rows/papers"] == 38
        assert meta["preview"].count("\n| p") == 5 and "| paper_id | change | columns |" in meta["preview"]
        papers = instance.fetch_materializations(dg.AssetKey("papers"), limit=1).records[0]
        pmeta = papers.asset_materialization.metadata
        assert pmeta["dagster/row_count"].value == 38
        assert [c.name for c in pmeta["dagster/column_schema"].schema.columns] == list(
            MODELS["papers"].to_schema().columns
        )
        check_keys = list(defs.resolve_asset_graph().asset_check_keys)
        latest = instance.event_log_storage.get_latest_asset_check_execution_by_key(check_keys)
        evaluations = {(k.asset_key.to_user_string(), k.name): latest[k] for k in check_keys}
        assert {k: e.status.value for k, e in evaluations.items()} == {k: "SUCCEEDED" for k in evaluations}
        accounting = evaluations[("listing_lineage", "accounting")].evaluation.metadata
        assert "| 000_d1f8394cc51cd0ab.txt | 19 | 19 | 0 | 0 | True |" in accounting["by_listing"].value
    # a failing Pandera check shows its failing rows: break one real paper id
    built = release.build_files.read_tables(release.build_files.latest_complete(config.work_dir()))
    papers = built["papers"].scan().collect()
    assert papers.height == built["papers"].rows == 38
    broken = papers.with_columns(
        pl.when(pl.int_range(pl.len()) == 3)
        .then(pl.lit("not-an-id"))
        .otherwise(pl.col("paper_id"))
        .alias("paper_id")
    )
    result = schema_check("papers", validate(broken, MODELS["papers"]), broken.height)
    assert result.passed is False and result.metadata["failures"].value == 1
    assert "not-an-id" in result.metadata["failing_rows"].value
