"""Jobs, the raw-folder sensor and the daily schedule."""


import json
import os

import dagster as dg

from pipeline import config
from pipeline.defs.assets import TABLE_DESCRIPTIONS, abstracts, dataset_tables, listing_records, release_asset
from pipeline.defs.partitions import listings_partitions, partition_key, scan_raw_dir

LISTING_ASSETS = [listing_records, abstracts]
DATASET_ASSETS = [dataset_tables, release_asset]

listing_job = dg.define_asset_job(
    "listing_job", selection=dg.AssetSelection.assets(*LISTING_ASSETS),
    description="Decode, split, clean, detect language and extract for one listing partition.",
)
publish_job = dg.define_asset_job(
    "publish_job", selection=dg.AssetSelection.assets(*DATASET_ASSETS),
    description="Dedup every listing into the published tables, validate them, and publish a release.",
)
DATASET_KEYS = [dg.AssetKey(k) for k in (*TABLE_DESCRIPTIONS, "release")]


@dg.sensor(
    target=[*LISTING_ASSETS, *DATASET_ASSETS],
    minimum_interval_seconds=30,
    default_status=dg.DefaultSensorStatus.RUNNING,
)
def raw_listings_sensor(context: dg.SensorEvaluationContext) -> dg.SensorResult:
    """Watch the raw folder: a new or changed file (by sha256) adds its partition and runs it; a removed
    file removes its partition and re-runs the dataset tables and release.

    The cursor is JSON ``{partition_key: sha256}`` of what was seen, so a file copied in with an old
    modification time is still picked up, and an unchanged file never runs twice.
    """
    seen: dict[str, str] = json.loads(context.cursor) if context.cursor else {}
    current = {partition_key(name): sha for name, sha in scan_raw_dir(config.raw_dir()).items()}
    existing = set(context.instance.get_dynamic_partitions(listings_partitions.name))
    new_keys = sorted(k for k in current if k not in existing)
    removed = sorted(k for k in existing if k not in current)
    runs = [dg.RunRequest(partition_key=k, run_key=f"{k}:{sha}", asset_selection=[a.key for a in LISTING_ASSETS])
            for k, sha in sorted(current.items()) if seen.get(k) != sha or k in new_keys]
    requests = []
    if new_keys:
        requests.append(listings_partitions.build_add_request(new_keys))
    if removed:
        requests.append(listings_partitions.build_delete_request(removed))
        runs.append(dg.RunRequest(run_key=f"removed:{','.join(removed)}:{len(seen)}", asset_selection=DATASET_KEYS))
    return dg.SensorResult(run_requests=runs, dynamic_partitions_requests=requests, cursor=json.dumps(current))


daily_refresh_schedule = dg.ScheduleDefinition(
    name="daily_refresh",
    job=publish_job,
    cron_schedule=os.environ.get("PIPELINE_SCHEDULE_CRON", "0 3 * * *"),
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Daily: rebuild the dataset tables from the registered listings and publish when the "
                "content changed (publishing unchanged content makes no release). Cron from "
                "PIPELINE_SCHEDULE_CRON (default 03:00 daily).",
)
