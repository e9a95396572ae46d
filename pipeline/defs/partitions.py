"""The dynamic partition set ``listings``: one partition per listing file in the raw folder (design §2),
and which of them are stale (their per-listing work files are missing or made from other inputs or rules)."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import quote, unquote

import dagster as dg

from pipeline import config
from pipeline.defs.io import work_file, work_info
from pipeline.records import ANALYSIS_VERSION
from pipeline.readers import settings

listings_partitions = dg.DynamicPartitionsDefinition(name="listings")


def partition_key(listing: str) -> str:
    """Filesystem- and Dagster-safe partition key of a listing path relative to the raw folder.

    Percent-encodes everything but ASCII letters, digits, ``-``, ``_`` and ``.``, so ``/``, spaces, ``|``
    (Dagster's multi-partition separator), ``,`` and non-ASCII are encoded; ``..`` (part of Dagster's range
    separator ``...``) becomes ``.%2E``. Reversible with :func:`listing_name`.
    """
    key = quote(listing, safe="-_.")
    while ".." in key:
        key = key.replace("..", ".%2E")
    return key


def listing_name(key: str) -> str:
    """The listing path (relative to the raw folder) of a partition key."""
    return unquote(key)


def scan_raw_dir(raw_dir: Path) -> dict[str, str]:
    """Every listing file under ``raw_dir`` (recursively; hidden files and folders skipped) mapped to the
    sha256 of its bytes (of its bytes' digest and its settings files when a settings file applies; settings
    files, pipeline.readers.settings, are not listings). Keys are paths relative to ``raw_dir`` with ``/`` separators, sorted."""
    out: dict[str, str] = {}
    if not raw_dir.is_dir():
        return out
    for path in sorted(raw_dir.rglob("*")):
        rel = path.relative_to(raw_dir)
        if path.is_file() and not any(part.startswith(".") for part in rel.parts):
            if settings.is_settings_file(rel.as_posix()):
                continue  # read with the listings it governs; a change re-reads them (fingerprint below)
            out[rel.as_posix()] = settings.listing_digest(raw_dir, rel.as_posix(), path.read_bytes())
    return out


def compare_with_raw(instance: dg.DagsterInstance) -> tuple[dict[str, str], list[str], list[str]]:
    """The raw folder against the registered ``listings`` partitions, changing nothing.

    Returns ``(current, added, removed)``: ``current`` maps partition key → sha256 of every file in the raw
    folder; ``added`` are keys not registered yet, ``removed`` registered keys whose file is gone (sorted).
    """
    current = {partition_key(n): sha for n, sha in scan_raw_dir(config.raw_dir()).items()}
    existing = set(instance.get_dynamic_partitions(listings_partitions.name))
    return current, sorted(set(current) - existing), sorted(existing - set(current))


def sync_partitions(instance: dg.DagsterInstance) -> tuple[dict[str, str], list[str], list[str]]:
    """Make the ``listings`` partitions equal to the raw folder's files; returns :func:`compare_with_raw`."""
    current, added, removed = compare_with_raw(instance)
    if added:
        instance.add_dynamic_partitions(listings_partitions.name, added)
    for key in removed:
        instance.delete_dynamic_partition(listings_partitions.name, key)
    return current, added, removed


def stale_partitions(current: dict[str, str]) -> list[str]:
    """Partition keys whose per-listing work files are missing or were made from other file content or
    other analysis rules (pipeline.records.ANALYSIS_VERSION)."""
    stale = []
    for key, sha in sorted(current.items()):
        info = work_info("abstracts", key)
        fresh = (info.get("listing_sha256") == sha and info.get("analysis_version") == ANALYSIS_VERSION
                 and work_file("abstracts", key).exists() and work_file("listing_records", key).exists())
        if not fresh:
            stale.append(key)
    return stale


def contiguous_ranges(ordered: list[str], wanted: list[str]) -> list[tuple[str, str]]:
    """Cover ``wanted`` keys with as few ``(first, last)`` ranges of consecutive keys of ``ordered``."""
    want = set(wanted)
    ranges, start, prev = [], None, None
    for key in ordered:
        if key in want:
            start = key if start is None else start
            prev = key
        elif start is not None:
            ranges.append((start, prev))
            start = None
    if start is not None:
        ranges.append((start, prev))
    return ranges
