"""The daily schedule: rescans the raw folder and publishes only when something changed (real seed listings,
the corpus-derived NeurIPS sample; the instance in the project's DAGSTER_HOME, as ``make run`` leaves it)."""

import os
import shutil
import subprocess
import sys

import dagster as dg
import pytest

from pipeline import cli, release
from pipeline.definitions import defs
from pipeline.defs.automation import DATASET_KEYS, LISTING_KEYS, daily_refresh
from pipeline.ingest.listings import partition_key
from tests.conftest import DATA, ROOT, SEEDS

pytestmark = pytest.mark.integration

QUIET = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}
NEURIPS = "NeurIPS_2023_sample.txt"


def _tick(instance):
    return daily_refresh(dg.build_schedule_context(instance=instance))


def _run(instance, request: dg.RunRequest) -> None:
    if request.partition_key:
        job = defs.resolve_job_def("listing_job")
        assert job.execute_in_process(
            partition_key=request.partition_key, instance=instance, run_config=QUIET
        ).success
    else:
        assert (
            defs.resolve_job_def("publish_job")
            .execute_in_process(instance=instance, run_config=QUIET)
            .success
        )


@pytest.fixture
def published(project):
    assert cli.run() == 0
    with dg.DagsterInstance.get() as instance:
        yield project, instance


def test_schedule_is_daily_at_three_and_running_by_default():
    schedule = defs.resolve_schedule_def("daily_refresh")
    assert schedule.cron_schedule == "0 3 * * *"
    assert schedule.execution_timezone == "UTC"
    assert schedule.default_status == dg.DefaultScheduleStatus.RUNNING


def test_schedule_time_is_configurable():
    env = {
        **os.environ,
        "PIPELINE_SCHEDULE_CRON": "30 5 * * 1-5",
        "PIPELINE_SCHEDULE_TIMEZONE": "Europe/Paris",
    }
    code = (
        "from pipeline.definitions import defs; s = defs.resolve_schedule_def('daily_refresh'); "
        "print(s.cron_schedule, s.execution_timezone)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "30 5 * * 1-5 Europe/Paris"


def test_nothing_changed_skips(published):
    _, instance = published
    result = _tick(instance)
    assert isinstance(result, dg.SkipReason)
    assert "unchanged since release 1" in result.skip_message


def test_new_file_runs_its_partition_then_publishes_once(published):
    root, instance = published
    shutil.copy(DATA / "listings" / NEURIPS, root / "raw" / NEURIPS)
    first = _tick(instance)
    assert [(r.partition_key, list(r.asset_selection)) for r in first] == [(NEURIPS, LISTING_KEYS)]
    assert NEURIPS in instance.get_dynamic_partitions("listings")
    # while that run is queued, the schedule neither requests it again nor publishes
    waiting = instance.create_run_for_job(
        defs.resolve_job_def("listing_job"), tags={"dagster/partition": NEURIPS}
    )
    assert waiting.status == dg.DagsterRunStatus.NOT_STARTED
    pending = _tick(instance)
    assert isinstance(pending, dg.SkipReason) and "pending" in pending.skip_message
    instance.report_run_canceled(waiting)
    _run(instance, first[0])
    # listings done but not published (automation would have; the schedule is the safety net)
    second = _tick(instance)
    assert [list(r.asset_selection) for r in second] == [DATASET_KEYS] and second[0].partition_key is None
    _run(instance, second[0])
    wh = root / "warehouse"
    assert release.latest_release(wh) == 2 and release.read_table(wh, "papers").height == 44
    third = _tick(instance)
    assert isinstance(third, dg.SkipReason) and "release 2" in third.skip_message


def test_removed_file_is_unregistered_and_published_without_its_papers(published):
    root, instance = published
    (root / "raw" / SEEDS[0].name).unlink()
    result = _tick(instance)
    assert instance.get_dynamic_partitions("listings") == [partition_key(SEEDS[1].name)]
    assert [list(r.asset_selection) for r in result] == [DATASET_KEYS]
    _run(instance, result[0])
    papers = release.read_table(root / "warehouse", "papers")
    assert papers.height == 19 and set(papers["source_listing"]) == {SEEDS[1].name}
