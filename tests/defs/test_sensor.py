"""The raw-folder sensor and the automation after it, tick by tick, against the temporary project folder
(real seed listings, the corpus-derived NeurIPS sample) and ``dg.instance_for_test()``.

The daemon's part is played by hand: :func:`_apply` applies a tick's partition requests to the instance the
way the daemon does, and :func:`_execute` runs its run requests in-process.
"""

import json
import os
import shutil

import dagster as dg
import polars as pl
import pytest

from pipeline import release
from pipeline.definitions import defs
from pipeline.defs.automation import DATASET_KEYS, LISTING_KEYS, raw_listings_sensor
from pipeline.ingest.listings import listing_name, partition_key
from tests.conftest import DATA, SEEDS

pytestmark = pytest.mark.integration

QUIET = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}
SEED_KEYS = sorted(partition_key(f.name) for f in SEEDS)


def _tick(instance, cursor=None) -> dg.SensorResult:
    return raw_listings_sensor(dg.build_sensor_context(instance=instance, cursor=cursor))


def _apply(instance, result: dg.SensorResult) -> None:
    for req in result.dynamic_partitions_requests:
        if isinstance(req, dg.AddDynamicPartitionsRequest):
            instance.add_dynamic_partitions(req.partitions_def_name, list(req.partition_keys))
        else:
            for key in req.partition_keys:
                instance.delete_dynamic_partition(req.partitions_def_name, key)


def _execute(instance, result: dg.SensorResult) -> None:
    _apply(instance, result)
    for run in result.run_requests:
        if run.partition_key:
            assert list(run.asset_selection) == LISTING_KEYS
            job = defs.resolve_job_def("listing_job")
            outcome = job.execute_in_process(
                partition_key=run.partition_key, instance=instance, run_config=QUIET
            )
        else:
            assert list(run.asset_selection) == DATASET_KEYS
            outcome = defs.resolve_job_def("publish_job").execute_in_process(
                instance=instance, run_config=QUIET
            )
        assert outcome.success


def _automation(instance, cursor=None):
    return dg.evaluate_automation_conditions(defs=defs, instance=instance, cursor=cursor)


def _requested(evaluation) -> set[str]:
    return {k.to_user_string() for k in defs.resolve_all_asset_keys() if evaluation.get_num_requested(k)}


def test_new_files_add_partitions_and_run_each_once(project):
    with dg.instance_for_test() as instance:
        first = _tick(instance)
        assert [list(r.partition_keys) for r in first.dynamic_partitions_requests] == [SEED_KEYS]
        assert [r.partition_key for r in first.run_requests] == SEED_KEYS
        assert all(list(r.asset_selection) == LISTING_KEYS for r in first.run_requests)
        cursor = json.loads(first.cursor)
        assert cursor["seq"] == 1
        assert set(cursor["files"]) == set(SEED_KEYS) and all(
            len(sha) == 64 for sha in cursor["files"].values()
        )
        _apply(instance, first)
        # nothing new: no partition change, no run, the cursor still records both files
        again = _tick(instance, first.cursor)
        assert again.run_requests == [] and again.dynamic_partitions_requests == []
        assert json.loads(again.cursor)["files"] == cursor["files"]


def test_back_dated_file_is_picked_up(project):
    with dg.instance_for_test() as instance:
        first = _tick(instance)
        _apply(instance, first)
        copied = project / "raw" / "NeurIPS_2023_sample.txt"
        shutil.copy(DATA / "listings" / "NeurIPS_2023_sample.txt", copied)
        os.utime(copied, (978307200, 978307200))  # 2001-01-01: older than every file already seen
        second = _tick(instance, first.cursor)
        assert [list(r.partition_keys) for r in second.dynamic_partitions_requests] == [
            ["NeurIPS_2023_sample.txt"]
        ]
        assert [r.partition_key for r in second.run_requests] == ["NeurIPS_2023_sample.txt"]


def test_changed_file_reruns_its_partition_only_even_back_to_old_content(project):
    with dg.instance_for_test() as instance:
        first = _tick(instance)
        _execute(instance, first)
        path = project / "raw" / SEEDS[0].name
        original = path.read_bytes()
        path.write_bytes(
            original + b"\n\nA further abstract paragraph that was missing from the listing file, "
            b"added when the listing was fixed.\n"
        )
        second = _tick(instance, first.cursor)
        assert second.dynamic_partitions_requests == []
        assert [r.partition_key for r in second.run_requests] == [SEED_KEYS[0]]
        _execute(instance, second)
        path.write_bytes(original)  # the fix reverted: the partition must run again, under a new run key
        third = _tick(instance, second.cursor)
        assert [r.partition_key for r in third.run_requests] == [SEED_KEYS[0]]
        assert third.run_requests[0].run_key != first.run_requests[0].run_key


def test_removed_file_removes_partition_and_its_papers_leave_the_next_release(project):
    with dg.instance_for_test() as instance:
        first = _tick(instance)
        evaluation = _automation(instance)  # the automation sensor was ticking before the runs
        _execute(instance, first)
        evaluation = _automation(instance, evaluation.cursor)
        assert _requested(evaluation) == {k.to_user_string() for k in DATASET_KEYS}
        assert (
            defs.resolve_job_def("publish_job")
            .execute_in_process(instance=instance, run_config=QUIET)
            .success
        )
        wh = project / "warehouse"
        assert release.read_table(wh, "papers").height == 38
        (project / "raw" / SEEDS[1].name).unlink()
        second = _tick(instance, first.cursor)
        deletes = [
            r for r in second.dynamic_partitions_requests if isinstance(r, dg.DeleteDynamicPartitionsRequest)
        ]
        assert [list(r.partition_keys) for r in deletes] == [[SEED_KEYS[1]]]
        # no listing runs in this tick, so the sensor requests the publish itself (automation sees no update)
        assert [list(r.asset_selection) for r in second.run_requests] == [DATASET_KEYS]
        _execute(instance, second)
        assert release.latest_release(wh) == 2
        papers = release.read_table(wh, "papers")
        assert papers.height == 19 and set(papers["source_listing"]) == {SEEDS[0].name}
        assert json.loads(second.cursor)["files"] == {
            SEED_KEYS[0]: json.loads(first.cursor)["files"][SEED_KEYS[0]]
        }


def test_automation_publishes_once_per_batch(project):
    """eager() waits until every listing partition of the batch is materialised, then requests the four
    tables and the release together, once."""
    shutil.copy(DATA / "listings" / "NeurIPS_2023_sample.txt", project / "raw" / "NeurIPS_2023_sample.txt")
    with dg.instance_for_test() as instance:
        tick = _tick(instance)
        assert len(tick.run_requests) == 3
        _apply(instance, tick)
        evaluation = _automation(instance)
        job = defs.resolve_job_def("listing_job")
        for run in tick.run_requests[:2]:
            assert job.execute_in_process(
                partition_key=run.partition_key, instance=instance, run_config=QUIET
            ).success
            evaluation = _automation(instance, evaluation.cursor)
            assert evaluation.total_requested == 0  # one listing of the batch is still missing
        assert job.execute_in_process(
            partition_key=tick.run_requests[2].partition_key, instance=instance, run_config=QUIET
        ).success
        evaluation = _automation(instance, evaluation.cursor)
        assert _requested(evaluation) == {k.to_user_string() for k in DATASET_KEYS}
        assert _automation(instance, evaluation.cursor).total_requested == 0  # requested once, not per tick


def test_work_done_by_make_run_is_not_redone(project):
    from pipeline import cli

    assert cli.run() == 0  # registers and processes both seeds in DAGSTER_HOME
    with dg.DagsterInstance.get() as instance:
        tick = _tick(instance)  # a fresh sensor (empty cursor) on an instance where everything is done
        assert tick.run_requests == [] and tick.dynamic_partitions_requests == []
        assert set(json.loads(tick.cursor)["files"]) == set(SEED_KEYS)


def test_sub_folder_and_odd_names_get_safe_keys_that_resolve_in_a_real_tick(project):
    sub = project / "raw" / "ICML 2026" / "会议"
    sub.mkdir(parents=True)
    name = "ICML 2026/会议/list (v2)|final.txt"
    shutil.copy(SEEDS[0], project / "raw" / name)
    with dg.instance_for_test() as instance:
        ctx = dg.build_sensor_context(instance=instance, instance_ref=instance.get_ref(), definitions=defs)
        data = raw_listings_sensor.evaluate_tick(ctx)  # what the daemon does: requests resolved and validated
        key = partition_key(name)
        assert key.isascii() and "/" not in key and " " not in key and "|" not in key
        assert listing_name(key) == name
        runs = {r.partition_key: r for r in data.run_requests}
        assert set(runs) == {key, *SEED_KEYS}
        assert runs[key].tags["dagster/partition"] == key
        assert key in data.dynamic_partitions_requests[0].partition_keys
        _apply(instance, data)
        job = defs.resolve_job_def("listing_job")
        assert job.execute_in_process(partition_key=key, instance=instance, run_config=QUIET).success
        done = pl.read_parquet(project / "warehouse" / "_work" / "listing_records" / f"{key}.parquet")
        assert done["listing"].unique().to_list() == [name] and done.height == 19
