"""The dynamic partition set ``listings``: one partition per listing file in the raw folder (which entries
are listings: pipeline.ingest.rawfiles), and which of them are stale (their per-listing work files are
missing or made from other inputs or rules)."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
from dagster._core.definitions.data_version import DATA_VERSION_IS_USER_PROVIDED_TAG, DATA_VERSION_TAG

from pipeline.defs.io import work_file, work_info
from pipeline.ingest import rawfiles, settings
from pipeline.ingest.listings import partition_key
from pipeline.runtime import config, versions

#: The name of the dynamic partitions of the per-listing assets: one partition per listing file.
LISTINGS = "listings"
listings_partitions = dg.DynamicPartitionsDefinition(name=LISTINGS)

#: Key of the external asset standing for the raw listing files (one partition per file).
RAW_LISTING_KEY = dg.AssetKey("raw_listing")


def scan_raw_dir(raw_dir: Path) -> rawfiles.RawScan:
    """Every entry under ``raw_dir`` (pipeline.ingest.rawfiles.scan: listing files, refused links and special
    files with their reason, hidden entries skipped and named). Settings files (pipeline.ingest.settings) are
    not listings: they are read with the listings they govern, and a listing's digest covers them
    (pipeline.ingest.settings.listing_digest), so a changed settings file re-reads its listings."""
    return settings.scan_listings(raw_dir)


def _compare(
    instance: dg.DagsterInstance, scan: rawfiles.RawScan
) -> tuple[dict[str, str], list[str], list[str]]:
    current = {partition_key(n): sha for n, sha in scan.listings.items()}
    existing = set(instance.get_dynamic_partitions(LISTINGS))
    return current, sorted(set(current) - existing), sorted(existing - set(current))


def compare_with_raw(instance: dg.DagsterInstance) -> tuple[dict[str, str], list[str], list[str]]:
    """The raw folder against the registered ``listings`` partitions, changing nothing.

    Returns ``(current, added, removed)``: ``current`` maps partition key → sha256 of every file in the raw
    folder; ``added`` are keys not registered yet, ``removed`` registered keys whose file is gone (sorted).
    """
    return _compare(instance, scan_raw_dir(config.raw_dir()))


def sync_partitions(
    instance: dg.DagsterInstance,
) -> tuple[dict[str, str], list[str], list[str], rawfiles.RawScan]:
    """Make the ``listings`` partitions equal to the raw folder's entries; returns :func:`compare_with_raw`'s
    ``(current, added, removed)`` and the scan itself (for what was refused or skipped). New and changed
    files are recorded as observations of ``raw_listing`` (:func:`observe_changed`)."""
    scan = scan_raw_dir(config.raw_dir())
    current, added, removed = _compare(instance, scan)
    if added:
        instance.add_dynamic_partitions(LISTINGS, added)
    for key in removed:
        instance.delete_dynamic_partition(LISTINGS, key)
    observe_changed(instance, current)
    return current, added, removed, scan


def observation(key: str, sha: str) -> dg.AssetObservation:
    """An observation of ``raw_listing``'s partition ``key`` with data version ``sha`` (the file's digest)."""
    return dg.AssetObservation(
        asset_key=RAW_LISTING_KEY,
        partition=key,
        tags={DATA_VERSION_TAG: sha, DATA_VERSION_IS_USER_PROVIDED_TAG: "true"},
    )


def observe_changed(instance: dg.DagsterInstance, current: dict[str, str]) -> list[str]:
    """Record, as a data version of ``raw_listing``'s partition, the digest of every file in ``current``
    (key → digest) that differs from the digest its ``listing_records`` work was read from (or has none):
    the UI then marks that partition and what is downstream of it stale ("upstream data changed") until it
    is read again. One event per new or changed file; an unchanged one costs one sidecar read. Returns
    the keys observed."""
    changed = [
        k for k, sha in current.items() if work_info("listing_records", k).get("listing_sha256") != sha
    ]
    for key in changed:
        instance.report_runless_asset_event(observation(key, current[key]))
    return changed


#: The raw listing files as an external asset, one partition per file: its data versions are the files'
#: digests, recorded by :func:`observe_changed`; ``listing_records`` depends on it.
raw_listing = dg.AssetSpec(
    RAW_LISTING_KEY,
    partitions_def=listings_partitions,
    group_name="listing",
    description="The listing files of the raw folder (PIPELINE_RAW_DIR), one partition per file. Its data "
    "version is the file's digest (pipeline.ingest.settings.listing_digest: its bytes and the settings "
    "files that govern it), recorded when `python -m pipeline run`, the raw-folder sensor or the daily "
    "schedule sees the file new or changed.",
)


def stale_partitions(current: dict[str, str]) -> list[str]:
    """Partition keys whose per-listing work files are missing or were made from other file content or by
    other rules: a sidecar's ``code_version`` is not the asset's current one (pipeline.runtime.versions; the
    abstracts' one is pipeline.analyse.abstracts.ANALYSIS_VERSION)."""
    stale = []
    records_version = versions.code_version("listing_records")
    abstracts_version = versions.code_version("abstracts")
    for key, sha in sorted(current.items()):
        info = work_info("abstracts", key)
        fresh = (
            info.get("listing_sha256") == sha
            and info.get("code_version") == abstracts_version
            and work_info("listing_records", key).get("code_version") == records_version
            and work_file("abstracts", key).exists()
            and work_file("listing_records", key).exists()
        )
        if not fresh:
            stale.append(key)
    return stale
