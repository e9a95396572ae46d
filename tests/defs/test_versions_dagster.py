"""Dagster sees what is stale: asset code versions from pipeline.runtime.versions, data versions from content, on a
real (ephemeral) Dagster instance with the real assets, read by Dagster's own stale-status resolver."""

from __future__ import annotations

import importlib
import json

import dagster as dg
import pytest
from dagster._core.asset_graph_view.asset_graph_view import AssetGraphView, TemporalContext
from dagster._core.definitions.data_version import (
    CachingStaleStatusResolver,
    StaleCauseCategory,
    StaleStatus,
)
from dagster._time import get_current_datetime

import pipeline.analyse.cleaning
import pipeline.build.tables
import pipeline.defs.assets as assets_module
from pipeline.defs import io
from pipeline.defs.partitions import (
    RAW_LISTING_KEY,
    compare_with_raw,
    raw_listing,
    stale_partitions,
    sync_partitions,
)
from pipeline.ingest.listings import listing_path
from pipeline.runtime import versions

pytestmark = [pytest.mark.integration, pytest.mark.slow]

TABLES = ("papers", "paper_urls", "paper_metrics", "listing_lineage", "benchmarks", "benchmark_results")


def _data_version(instance, key, partition=None, is_source=None) -> str | None:
    from dagster._core.definitions.data_version import extract_data_version_from_entry

    record = instance.get_latest_data_version_record(key, is_source, partition)
    version = extract_data_version_from_entry(record.event_log_entry) if record else None
    return version.value if version else None


def scan_current() -> dict[str, str]:
    return compare_with_raw(dg.DagsterInstance.ephemeral())[0]


def _clear_version_caches():
    for f in (versions.rules_version, versions.code_version, versions.pipeline_version):
        f.cache_clear()


def _assets():
    from pipeline.defs import assets as A

    return [raw_listing, A.listing_records, A.abstracts, A.dataset_tables, A.release_asset]


def _keys():
    from pipeline.defs import assets as A

    return A.listing_records.key, A.abstracts.key


def _materialize_listing(instance, key, selection=None):
    from pipeline.defs import assets as A

    result = dg.materialize(
        _assets(),
        selection=selection or [A.listing_records, A.abstracts],
        partition_key=key,
        instance=instance,
    )
    assert result.success


def _publish(instance, selection=None):
    from pipeline.defs import assets as A

    result = dg.materialize(
        _assets(), selection=selection or [A.dataset_tables, A.release_asset], instance=instance
    )
    assert result.success


def _stale(instance, assets, partitions) -> dict[str, list[tuple[str, str]]]:
    """Every stale asset (partition) → its causes as (category, reason), read by Dagster's resolver."""
    graph = dg.Definitions(assets=assets).resolve_asset_graph()
    view = AssetGraphView(
        temporal_context=TemporalContext(effective_dt=get_current_datetime(), last_event_id=None),
        instance=instance,
        asset_graph=graph,
    )
    resolver = CachingStaleStatusResolver(instance=instance, asset_graph=graph, loading_context=view)
    out = {}
    for a in assets[1:]:
        for key in a.keys:
            for p in partitions if a.partitions_def is not None else [None]:
                status = resolver.get_status(key, p)
                assert status != StaleStatus.MISSING, (key, p)
                if status == StaleStatus.STALE:
                    causes = resolver.get_stale_causes(key, p)
                    name = key.to_user_string() + (f"[{p}]" if p else "")
                    out[name] = sorted((c.category.value, c.reason) for c in causes)
    return out


@pytest.fixture
def built(project):
    instance = dg.DagsterInstance.ephemeral()
    current, added, _, _ = sync_partitions(instance)
    assert len(added) == 2
    for key in sorted(added):
        _materialize_listing(instance, key)
    _publish(instance)
    yield instance, sorted(added)
    instance.dispose()


def test_versions_mark_exactly_what_is_stale(built, project, monkeypatch):
    instance, parts = built
    # after a run nothing is stale
    assert _stale(instance, _assets(), parts) == {}
    records_key, abstracts_key = _keys()
    # data versions come from content: the listing's digest (bytes + settings), and the release's id
    for p in parts:
        info = io.work_info("listing_records", p)
        assert _data_version(instance, records_key, p) == info["listing_sha256"]
        assert info["code_version"] == versions.code_version("listing_records")
    latest = json.loads((project / "warehouse" / "releases.json").read_text())[-1]
    assert _data_version(instance, dg.AssetKey("release")) == latest["release_id"]

    # a bumped rules version marks exactly the assets whose code version includes it: "code version changed"
    cases = [
        (pipeline.build.tables, "RULES_VERSION", {t for t in TABLES}),
        (
            pipeline.analyse.cleaning,
            "RULES_VERSION",
            {f"{a}[{p}]" for a in ("listing_records", "abstracts") for p in parts},
        ),
        (versions, "RELEASE_VERSION", {"release"}),
    ]
    for module, attr, expected in cases:
        with monkeypatch.context() as m:
            m.setattr(module, attr, getattr(module, attr) + ".bumped")
            _clear_version_caches()
            importlib.reload(assets_module)
            try:
                stale = _stale(instance, _assets(), parts)
            finally:
                m.undo()
                _clear_version_caches()
                importlib.reload(assets_module)
        assert set(stale) == expected, (module.__name__, attr)
        assert all(c == [("CODE", "has a new code version")] for c in stale.values()), stale
    assert _stale(instance, _assets(), parts) == {}


def test_cli_and_schedule_follow_the_same_versions(built, monkeypatch):
    """`python -m pipeline run` and the schedule decide from the same versions: a bump of the cleaning rules
    re-runs every listing partition, one of the tables' rules none but makes the latest release out of date
    for the daily schedule (its manifest's code_version)."""
    from pipeline.defs.automation import release_matches_raw

    instance, parts = built
    current = scan_current()
    assert stale_partitions(current) == [] and release_matches_raw(current) == 1
    for module, expect_stale, expect_release in (
        (pipeline.analyse.cleaning, parts, None),
        (pipeline.build.tables, [], None),
    ):
        with monkeypatch.context() as m:
            m.setattr(module, "RULES_VERSION", module.RULES_VERSION + ".bumped")
            _clear_version_caches()
            try:
                assert stale_partitions(current) == expect_stale, module.__name__
                assert release_matches_raw(current) == expect_release, module.__name__
            finally:
                m.undo()
                _clear_version_caches()
    assert stale_partitions(current) == [] and release_matches_raw(current) == 1


def test_a_changed_raw_file_marks_its_partition_then_what_is_downstream(built, project):
    """A changed raw file marks its partition stale ("upstream data changed"), then each step downstream as
    the step before it gets a new data version; re-reading an unchanged file marks nothing."""
    instance, parts = built
    changed, other = parts[0], parts[1]
    raw = project / "raw"
    name = raw / listing_path(changed)
    name.write_bytes(
        name.read_bytes() + b"\n\nA short extra paragraph about graph neural networks for protein design "
        b"that reports 91.2% accuracy on a new benchmark of folding tasks.\n"
    )
    current = sync_partitions(instance)[0]
    assert current[changed] != io.work_info("listing_records", changed)["listing_sha256"]
    assert _data_version(instance, RAW_LISTING_KEY, changed, True) == current[changed]
    stale = _stale(instance, _assets(), parts)
    assert set(stale) == {f"listing_records[{changed}]"}
    assert stale[f"listing_records[{changed}]"] == [
        (StaleCauseCategory.DATA.value, "has a new dependency data version")
    ]

    from pipeline.defs import assets as A

    _materialize_listing(instance, changed, [A.listing_records])
    assert set(_stale(instance, _assets(), parts)) == {f"abstracts[{changed}]"}
    # re-reading an unchanged file gives the same data version: nothing downstream of it is stale
    _materialize_listing(instance, other, [A.listing_records])
    assert set(_stale(instance, _assets(), parts)) == {f"abstracts[{changed}]"}
    _materialize_listing(instance, changed, [A.abstracts])
    # the per-paper tables read the abstracts; the benchmark tables read paper_metrics and papers, whose data
    # versions move only when they are built again (the same step builds all six)
    assert set(_stale(instance, _assets(), parts)) == set(TABLES) - {"benchmarks", "benchmark_results"}
    _publish(instance, [A.dataset_tables])
    stale = _stale(instance, _assets(), parts)
    assert set(stale) == {"release"}
    assert stale["release"][0][0] == "DATA"
    _publish(instance, [A.release_asset])
    assert _stale(instance, _assets(), parts) == {}
