"""The code location loads, and its sensor and schedule exist and behave."""

import json
import shutil

import dagster as dg

from pipeline.defs.automation import raw_listings_sensor
from pipeline.defs.partitions import listing_name, partition_key
from pipeline.definitions import defs
from tests.conftest import SEEDS


def test_definitions_load():
    dg.Definitions.validate_loadable(defs)
    keys = {k.to_user_string() for k in defs.resolve_all_asset_keys()}
    assert keys == {"listing_records", "abstracts", "papers", "paper_urls", "paper_metrics", "listing_lineage",
                    "release"}
    assert defs.resolve_sensor_def("raw_listings_sensor").default_status == dg.DefaultSensorStatus.RUNNING
    assert defs.resolve_schedule_def("daily_refresh").cron_schedule == "0 3 * * *"
    assert defs.resolve_job_def("listing_job").partitions_def.name == "listings"


def test_partition_keys_are_safe_and_reversible():
    for name in ["000_d1f8394cc51cd0ab.txt", "sub dir/ICML 2026 (v2).txt", "会议/列表.txt", "a...b|c,d.txt"]:
        key = partition_key(name)
        assert listing_name(key) == name
        assert "/" not in key and "..." not in key and "|" not in key and " " not in key and key.isascii()
    assert partition_key("000_d1f8394cc51cd0ab.txt") == "000_d1f8394cc51cd0ab.txt"


def test_sensor_adds_new_files_and_skips_seen_ones(project):
    with dg.instance_for_test() as instance:
        ctx = dg.build_sensor_context(instance=instance)
        result = raw_listings_sensor(ctx)
        keys = [partition_key(f.name) for f in SEEDS]
        assert result.dynamic_partitions_requests[0].partition_keys == keys
        assert [r.partition_key for r in result.run_requests] == keys
        cursor = json.loads(result.cursor)
        assert set(cursor) == set(keys)
        instance.add_dynamic_partitions("listings", keys)
        again = raw_listings_sensor(dg.build_sensor_context(instance=instance, cursor=result.cursor))
        assert again.run_requests == [] and again.dynamic_partitions_requests == []
        # a changed file re-runs its partition only
        changed = project / "raw" / SEEDS[0].name
        changed.write_bytes(changed.read_bytes() + b"\nOne more abstract paragraph added at the end of the file.\n")
        third = raw_listings_sensor(dg.build_sensor_context(instance=instance, cursor=result.cursor))
        assert [r.partition_key for r in third.run_requests] == [keys[0]]
        # a removed file removes its partition and re-runs the dataset assets
        (project / "raw" / SEEDS[1].name).unlink()
        fourth = raw_listings_sensor(dg.build_sensor_context(instance=instance, cursor=third.cursor))
        assert fourth.dynamic_partitions_requests[0].partition_keys == [keys[1]]
        assert {k.to_user_string() for k in fourth.run_requests[-1].asset_selection} >= {"papers", "release"}
