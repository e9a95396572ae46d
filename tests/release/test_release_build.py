"""Each run publishes the tables it built itself (pipeline.release.build_files): its own build folder, the latest
complete build for a publish-only run, and old builds cleaned after a publish."""

import os
import shutil

import dagster as dg
import polars as pl
import pytest

from pipeline import cli, release
from pipeline.definitions import defs
from pipeline.release import build_files
from pipeline.runtime import config
from tests.conftest import DATA


def _fake_build(work, run_id, complete=True, mtime_ns=None):
    d = build_files.build_dir(work, run_id)
    d.mkdir(parents=True)
    (d / "papers.arrow").write_bytes(b"x")
    if complete:
        (d / build_files.PLAN_FILE).write_text("{}")
        if mtime_ns is not None:
            os.utime(d / build_files.PLAN_FILE, ns=(mtime_ns, mtime_ns))
    return d


def test_latest_complete_and_clean_keep_active_and_published_builds(tmp_path):
    work = tmp_path / "_work"
    assert build_files.latest_complete(work) is None
    old = _fake_build(work, "run-old", mtime_ns=1_000_000_000)
    new = _fake_build(work, "run-new", mtime_ns=2_000_000_000)
    half = _fake_build(work, "run-half", complete=False)
    busy = _fake_build(work, "run-busy", complete=False)
    (work / "release_plan.json").write_text("{}")  # the earlier layout's shared plan
    assert build_files.latest_complete(work) == new  # the plan written last, not an incomplete one
    removed = build_files.clean(work, keep=new, is_active=lambda rid: rid == "run-busy")
    assert sorted(p.name for p in removed) == ["release_plan.json", "run-half", "run-old"]
    assert not old.exists() and not half.exists() and new.exists() and busy.exists()
    with pytest.raises(ValueError, match="run id"):
        build_files.build_dir(work, "../x")


def test_a_run_publishes_its_own_build_and_a_publish_only_run_the_latest(project):
    wh = project / "warehouse"
    work = config.work_dir()
    assert cli.run() == 0
    with dg.DagsterInstance.get() as instance:
        run_id = instance.get_runs(limit=1)[0].run_id
        papers = instance.fetch_materializations(dg.AssetKey("papers"), limit=1).records[0]
        assert papers.asset_materialization.metadata["build"].value == str(
            build_files.build_dir(work, run_id)
        )
    # one build remains: the published one, complete (a publish-only run can republish it)
    assert [p.name for p in (work / build_files.BUILDS_DIR).iterdir()] == [run_id]
    assert build_files.is_complete(build_files.build_dir(work, run_id))
    # debris of a crashed run (no plan) and a stale build of a finished run are removed by the next publish
    _fake_build(work, "crashed-run", complete=False)
    _fake_build(work, "finished-run", mtime_ns=1)
    shutil.copy(DATA / "listings" / "NeurIPS_2023_sample.txt", project / "raw" / "NeurIPS_2023_sample.txt")
    assert cli.run() == 0
    assert release.latest_release(wh) == 2
    with dg.DagsterInstance.get() as instance:
        # the tables alone in one run, the release alone in another: it publishes that run's build
        tables = dg.materialize([defs.resolve_assets_def("papers")], instance=instance, raise_on_error=False)
        assert tables.success
        tables_build = build_files.build_dir(work, tables.run_id)
        assert build_files.is_complete(tables_build)
        published = dg.materialize([defs.resolve_assets_def("release")], instance=instance)
        assert published.success
        meta = published.asset_materializations_for_node("release")[0].metadata
        assert meta["created"].value is False and meta["release"].value == 2  # same content
        logs = instance.all_logs(published.run_id)
        assert any(str(tables_build) in (e.user_message or "") for e in logs)
    # the release run cleaned the builds of finished runs but the one it published
    assert [p.name for p in (work / build_files.BUILDS_DIR).iterdir()] == [tables.run_id]


def test_a_build_whose_blocking_checks_failed_is_never_published(project, monkeypatch):
    """The tables step with a failing Pandera check (the validator reports one broken row): the build gets
    checks_failed.json and no plan, so a publish-only run afterwards refuses, naming the failed check,
    instead of publishing it (or an older build); LATEST is unchanged."""
    import schemas
    from pipeline.release import dataset

    wh = project / "warehouse"
    work = config.work_dir()
    assert cli.run() == 0 and release.latest_release(wh) == 1
    shutil.copy(DATA / "listings" / "NeurIPS_2023_sample.txt", project / "raw" / "NeurIPS_2023_sample.txt")
    real = schemas.validate

    def one_broken_row(df, model):
        if model is schemas.MODELS["paper_metrics"]:
            return pl.DataFrame({"column": ["value"], "check": ["non_negative_levels"], "index": [0]})
        return real(df, model)

    monkeypatch.setattr(dataset, "validate", one_broken_row)
    assert cli.run() == 1  # the blocking check stops the run before the release step
    with dg.DagsterInstance.get() as instance:
        run = instance.get_runs(limit=1)[0]
        failed_build = build_files.build_dir(work, run.run_id)
        assert (failed_build / build_files.FAILED_FILE).is_file() and not build_files.is_complete(
            failed_build
        )
        assert "paper_metrics: schema" in (failed_build / build_files.FAILED_FILE).read_text()
        alone = dg.materialize([defs.resolve_assets_def("release")], instance=instance, raise_on_error=False)
        assert not alone.success
        failure = next(e for e in alone.all_events if e.event_type_value == "STEP_FAILURE")
        assert "failed its blocking checks" in str(failure.event_specific_data.error)
    assert release.latest_release(wh) == 1
