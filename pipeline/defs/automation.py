"""Jobs, the raw-folder sensor, the daily schedule and the automation sensor (docs/design.md, "Dagster
wiring").

Who does what under ``dagster dev`` (all RUNNING by default):

- ``raw_listings_sensor`` registers a ``listings`` partition per new raw file, removes those of deleted files
  and requests a run of the listing assets for each new or changed file (one partition per run);
- ``dataset_automation`` (``AutomationCondition.eager()`` on the dataset tables and the release) publishes
  once the listing runs of a batch are done: eager waits while any parent partition is in progress;
- ``daily_refresh`` rescans the raw folder and publishes only when the latest release does not match it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass

import dagster as dg

from pipeline import release
from pipeline.defs.assets import TABLE_DESCRIPTIONS, abstracts, dataset_tables, listing_records, release_asset
from pipeline.defs.partitions import (
    LISTINGS,
    compare_with_raw,
    listings_partitions,
    observation,
    observe_changed,
    stale_partitions,
)
from pipeline.ingest.listings import listing_name
from pipeline.runtime import config, versions

LISTING_ASSETS = [listing_records, abstracts]
DATASET_ASSETS = [dataset_tables, release_asset]
LISTING_KEYS = [a.key for a in LISTING_ASSETS]
DATASET_KEYS = [dg.AssetKey(k) for k in (*TABLE_DESCRIPTIONS, "release")]

#: How often the daemon scans the raw folder (Dagster's default sensor interval, 30 s; a scan hashes every
#: raw file, so it should not be much shorter).
SENSOR_INTERVAL_SECONDS = 30
#: How often automation conditions are evaluated (Dagster's default for automation condition sensors).
AUTOMATION_INTERVAL_SECONDS = 30
#: Run statuses during which a partition's run counts as pending (not yet done, not failed).
PENDING_STATUSES = [
    dg.DagsterRunStatus.QUEUED,
    dg.DagsterRunStatus.NOT_STARTED,
    dg.DagsterRunStatus.STARTING,
    dg.DagsterRunStatus.STARTED,
]

listing_job = dg.define_asset_job(
    "listing_job",
    selection=dg.AssetSelection.assets(*LISTING_ASSETS),
    description="Decode, split, clean, detect language and extract for one listing partition.",
)
publish_job = dg.define_asset_job(
    "publish_job",
    selection=dg.AssetSelection.assets(*DATASET_ASSETS),
    description="Dedup every listing into the published tables, validate them, and publish a release.",
)
main_job = dg.define_asset_job(
    "main_job",
    selection=dg.AssetSelection.assets(*LISTING_ASSETS, *DATASET_ASSETS),
    description="Everything in one run: a range of listing partitions (run tags), then the dataset tables "
    "and the release (what `python -m pipeline run` launches).",
)


@dataclass(frozen=True)
class RefreshPlan:
    """The raw folder against the instance. Keys are ``listings`` partition keys.

    ``current``: key → sha256 of every file in the raw folder; ``added``/``removed``: keys to register /
    unregister; ``to_run``: keys whose listing assets must run (work missing or made from other content or
    rules, and no run of theirs pending); ``pending``: keys (any in ``current``) with a queued or running run.
    """

    current: dict[str, str]
    added: list[str]
    removed: list[str]
    to_run: list[str]
    pending: list[str]


def _pending_partitions(instance: dg.DagsterInstance, keys: list[str]) -> set[str]:
    """The keys among ``keys`` that have a queued or in-progress run (tag ``dagster/partition``). Reads the
    pending runs (few) rather than filtering by thousands of tag values."""
    if not keys:
        return set()
    records = instance.get_run_records(filters=dg.RunsFilter(statuses=PENDING_STATUSES))
    return {r.dagster_run.tags.get("dagster/partition", "") for r in records} & set(keys)


def plan_refresh(instance: dg.DagsterInstance, seen: dict[str, str] | None = None) -> RefreshPlan:
    """Compare the raw folder with the ``listings`` partitions and the per-listing work files.

    ``seen`` (key → sha256, the sensor's cursor) limits the freshness check to new or changed files;
    ``None`` checks every file (the schedule). Freshness is ``pipeline.defs.partitions.stale_partitions`` (the
             same rule
    ``python -m pipeline run`` uses), so work already done by ``make run`` is not redone here.
    """
    current, added, removed = compare_with_raw(instance)
    candidates = {k: sha for k, sha in current.items() if seen is None or seen.get(k) != sha or k in added}
    stale = stale_partitions(candidates) if candidates else []
    pending = _pending_partitions(instance, sorted(current))
    return RefreshPlan(current, added, removed, sorted(set(stale) - pending), sorted(pending))


def _read_cursor(cursor: str | None) -> tuple[int, dict[str, str]]:
    """The sensor cursor ``{"seq": n, "files": {key: sha256}}``: a tick counter (for unique run keys, so a
    file changed back to an earlier content still runs) and what the sensor has seen."""
    if not cursor:
        return 0, {}
    data = json.loads(cursor)
    return int(data.get("seq", 0)), dict(data.get("files", {}))


@dg.sensor(
    target=[*LISTING_ASSETS, *DATASET_ASSETS],
    minimum_interval_seconds=SENSOR_INTERVAL_SECONDS,
    default_status=dg.DefaultSensorStatus.RUNNING,
)
def raw_listings_sensor(context: dg.SensorEvaluationContext) -> dg.SensorResult:
    """Watch the raw folder (``PIPELINE_RAW_DIR``, sub-folders included).

    - a new file adds its ``listings`` partition (key: ``partition_key`` of its relative path) and requests
      a run of ``listing_records`` + ``abstracts`` for that partition only;
    - a changed file (sha256 of its bytes, never the modification time) re-runs its partition;
    - a removed file removes its partition; when no listing run was requested in the same tick, a run of
      the dataset tables and release follows at once (automation cannot see a removal), otherwise
      ``AutomationCondition.eager()`` publishes after the batch of listing runs.

    Cursor: JSON ``{"seq": n, "files": {partition_key: sha256}}`` of what was seen. A file whose work is
    already current (e.g. after ``make run``) or whose run is pending is not requested again. Run keys
    are ``<key>:<sha256>:<seq>`` and ``publish:<seq>``.
    """
    seq, seen = _read_cursor(context.cursor)
    plan = plan_refresh(context.instance, seen)
    requests: list[dg.AddDynamicPartitionsRequest | dg.DeleteDynamicPartitionsRequest] = []
    if plan.added:
        requests.append(listings_partitions.build_add_request(plan.added))
    if plan.removed:
        requests.append(listings_partitions.build_delete_request(plan.removed))
    runs = [
        dg.RunRequest(
            partition_key=k, run_key=f"{k}:{plan.current[k]}:{seq + 1}", asset_selection=LISTING_KEYS
        )
        for k in plan.to_run
    ]
    if not runs and not plan.pending and (plan.added or plan.removed):
        runs.append(dg.RunRequest(run_key=f"publish:{seq + 1}", asset_selection=DATASET_KEYS))
    if runs or requests:
        seq += 1
        context.log.info(
            f"raw folder: {len(plan.added)} new, {len(plan.removed)} removed, "
            f"{len(plan.to_run)} listing runs requested ({[listing_name(k) for k in plan.to_run][:20]})"
        )
    return dg.SensorResult(
        run_requests=runs,
        dynamic_partitions_requests=requests,
        # the new or changed files' digests as raw_listing data versions: the UI marks them stale at once
        asset_events=[observation(k, plan.current[k]) for k in plan.to_run],
        cursor=json.dumps({"seq": seq, "files": plan.current}, sort_keys=True),
    )


def release_matches_raw(current: dict[str, str]) -> int | None:
    """The latest release's number when its manifest's input listings (name and sha256) equal ``current``
    (partition key → sha256) and its code version is this code's (pipeline.runtime.versions.pipeline_version:
    a bump of any rules version, the tables' and schemas' included, makes the schedule publish again); else
    ``None``."""
    wh = config.warehouse_dir()
    latest = release.latest_release(wh)
    if latest is None:
        return None
    manifest = release.read_manifest(release.release_dir(wh, latest))
    inputs = {i["listing"]: i["sha256"] for i in manifest.inputs}
    same = (
        inputs == {listing_name(k): sha for k, sha in current.items()}
        and manifest.code_version == versions.pipeline_version()
    )
    return latest if same else None


def daily_refresh(context: dg.ScheduleEvaluationContext) -> list[dg.RunRequest] | dg.SkipReason:
    """The safety net behind the sensor (it may have been stopped, or a run failed).

    Registers new files' partitions and removes those of deleted files directly on the instance
    (schedules cannot return partition requests); then requests, in this order of precedence:
    one listing run per stale partition (automation publishes after them); nothing while listing runs are
    pending; one publish run (dataset tables + release) when the latest release's inputs differ from the
    raw folder; otherwise a SkipReason.
    """
    plan = plan_refresh(context.instance)
    if plan.added:
        context.instance.add_dynamic_partitions(LISTINGS, plan.added)
    for key in plan.removed:
        context.instance.delete_dynamic_partition(LISTINGS, key)
    observe_changed(context.instance, {k: plan.current[k] for k in plan.to_run})
    if plan.to_run:
        return [dg.RunRequest(partition_key=k, asset_selection=LISTING_KEYS) for k in plan.to_run]
    if plan.pending:
        return dg.SkipReason(f"{len(plan.pending)} listing runs pending; automation publishes after them")
    if not plan.current:
        return dg.SkipReason(f"no listing files in {config.raw_dir()}")
    latest = release_matches_raw(plan.current)
    if latest is not None:
        return dg.SkipReason(f"raw folder unchanged since release {latest}: nothing to publish")
    return [dg.RunRequest(asset_selection=DATASET_KEYS)]


def daily_refresh_schedule() -> dg.ScheduleDefinition:
    """The schedule ``daily_refresh`` running :func:`daily_refresh`: cron and time zone from the environment
    at call time (pipeline.runtime.config.schedule_cron, schedule_timezone), RUNNING by default."""
    return dg.ScheduleDefinition(
        name="daily_refresh",
        execution_fn=daily_refresh,
        cron_schedule=config.schedule_cron(),
        execution_timezone=config.schedule_timezone(),
        target=[*LISTING_ASSETS, *DATASET_ASSETS],
        default_status=dg.DefaultScheduleStatus.RUNNING,
        description="Daily rescan of the raw folder: sync the listings partitions, run stale listings "
        "(automation "
        "then publishes), or publish when the latest release does not match the raw folder; skip "
        "when nothing changed. Cron PIPELINE_SCHEDULE_CRON (default 03:00), PIPELINE_SCHEDULE_TIMEZONE.",
    )


automation_sensor = dg.AutomationConditionSensorDefinition(
    "dataset_automation",
    target=dg.AssetSelection.all(),
    default_status=dg.DefaultSensorStatus.RUNNING,
    minimum_interval_seconds=AUTOMATION_INTERVAL_SECONDS,
    description="Evaluates the assets' automation conditions: the dataset tables and the release follow "
    "(AutomationCondition.eager) once the listing runs they depend on are done. Running by "
    "default, so `dagster dev` needs no switch in the UI.",
)


@dg.definitions
def automation() -> dg.Definitions:
    """This module's definitions for the defs folder (pipeline.definitions): the three jobs, the raw-folder
    and automation sensors, and the daily schedule (built when the code location loads, so its cron and
    time zone are the environment's then)."""
    return dg.Definitions(
        jobs=[listing_job, publish_job, main_job],
        sensors=[raw_listings_sensor, automation_sensor],
        schedules=[daily_refresh_schedule()],
    )
