"""Command line: ``python -m pipeline run`` (the main job) and ``python -m pipeline verify [N]``.

``run`` does what the sensor and automation do under ``dagster dev``, in one process, against the Dagster
instance in ``DAGSTER_HOME`` (default ``.dagster_home/``): it syncs the ``listings`` partitions with the raw
folder, materialises every new or changed listing partition, then the dataset tables and the release, and
prints what it did. Exit status 0 on success, 1 when a run or check failed, 2 on bad usage.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from pipeline import config, parallel, rawfiles

if TYPE_CHECKING:
    import dagster as dg

# Dagster and the pipeline's steps are imported inside the commands, not here: ``run`` starts its warm
# worker processes first (pipeline.parallel), so they load while this process imports Dagster (~1.4 s).

#: What each warm helper loads before its first task: the per-abstract analysis (pipeline.records) and the
#: chart backend (pipeline.card.charts), named so that only the helpers import them at start.
WARM_UPS = (parallel.by_name("pipeline.records:warm_up"), parallel.by_name("pipeline.card.charts:load_backend"))


def _latest_metadata(instance: dg.DagsterInstance, asset: str) -> dict:
    """Metadata of the asset's latest materialisation, as plain values ({} when never materialised)."""
    import dagster as dg

    records = instance.fetch_materializations(dg.AssetKey(asset), limit=1).records
    if not records:
        return {}
    meta = records[0].asset_materialization.metadata
    return {k: getattr(v, "value", v) for k, v in meta.items()}


def run(verbose: bool = False) -> int:
    """The main job: every asset over the raw folder into the warehouse. Returns the exit status.

    Runs in this process. ``python -m pipeline run`` calls it inside :func:`pipeline.parallel.started`
    (warm workers for the per-abstract work and the charts); called directly, the steps make their own.
    """
    import dagster as dg

    config.ensure_dagster_home()
    raw = config.raw_dir()
    if not raw.is_dir():
        print(f"error: raw folder {raw} does not exist (set PIPELINE_RAW_DIR)", file=sys.stderr)
        return 2
    with dg.DagsterInstance.get() as instance:
        return _run(instance, verbose)


def _print_scan_notes(scan: rawfiles.RawScan, shown: int = 10) -> None:
    """Tell the user which raw entries were refused (quarantined, never read) and which hidden ones skipped."""
    for rel, reason in list(scan.refused.items())[:shown]:
        print(f"warning: {rawfiles.display_name(rel)!r} refused, quarantined (listing_lineage): {reason}",
              file=sys.stderr)
    if len(scan.refused) > shown:
        print(f"warning: {len(scan.refused) - shown} more refused entries (see listing_lineage)", file=sys.stderr)
    if scan.hidden:
        names = ", ".join(repr(n) for n in scan.hidden[:shown]) + (" ..." if len(scan.hidden) > shown else "")
        print(f"note: {len(scan.hidden)} hidden entries (name starting with '.') skipped: {names}; rename a "
              "listing without the leading '.' to have it read")


def _run(instance: dg.DagsterInstance, verbose: bool) -> int:
    from pipeline import release
    from pipeline.defs.partitions import contiguous_ranges, stale_partitions, sync_partitions
    from pipeline.definitions import defs

    raw, wh = config.raw_dir(), config.warehouse_dir()
    current, added, removed, scan = sync_partitions(instance)
    stale = stale_partitions(current)
    # stale but not new: the file's bytes changed, or its rows were made by other rules (ANALYSIS_VERSION)
    redo = len(set(stale) - set(added))
    print(f"raw folder {raw}: {len(current)} listings ({len(added)} new, {redo} changed or made by other rules, "
          f"{len(removed)} removed)")
    _print_scan_notes(scan)
    if not current:
        print("error: no listing files to process", file=sys.stderr)
        return 1
    run_config = {"loggers": {"console": {"config": {"log_level": "INFO" if verbose else "WARNING"}}}}
    # one run per contiguous range of stale partitions; the last run also builds the tables and publishes
    # (one run fewer: each costs ~0.4 s of Dagster bookkeeping)
    ordered = list(instance.get_dynamic_partitions("listings"))
    ranges = contiguous_ranges(ordered, stale)
    result = None
    for i, (first, last) in enumerate(ranges):
        job = defs.resolve_job_def("main_job" if i == len(ranges) - 1 else "listing_job")
        tags = {"dagster/asset_partition_range_start": first, "dagster/asset_partition_range_end": last}
        result = job.execute_in_process(instance=instance, tags=tags, run_config=run_config, raise_on_error=False)
        if not result.success and job.name == "listing_job":
            print(f"error: listing partitions {first!r}..{last!r} failed; rerun with -v for the log",
                  file=sys.stderr)
            return 1
    print(f"listings processed: {len(stale)} new or changed; {len(current) - len(stale)} unchanged, reused")
    if result is None:
        result = defs.resolve_job_def("publish_job").execute_in_process(instance=instance, run_config=run_config,
                                                                        raise_on_error=False)
    for ev in result.get_asset_check_evaluations():
        if not ev.passed:
            print(f"error: asset check {ev.asset_key.to_user_string()}:{ev.check_name} failed: "
                  f"{ {k: getattr(v, 'value', v) for k, v in ev.metadata.items()} }", file=sys.stderr)
    if not result.success:
        print("error: the run failed (a listing step raised, a blocking check failed, or publishing raised); "
              "no release was made; rerun with -v for the log", file=sys.stderr)
        return 1
    meta = _latest_metadata(instance, "release")
    lineage = release.read_table(wh, "listing_lineage", columns=["status"])
    counts = dict(lineage.group_by("status").len().iter_rows()) if lineage is not None else {}
    rel = meta.get("release")
    print(f"abstracts: {lineage.height if lineage is not None else 0} paragraphs -> "
          f"{counts.get('published', 0)} published, {counts.get('duplicate', 0)} duplicate, "
          f"{counts.get('quarantined', 0)} quarantined")
    if meta.get("created"):
        print(f"release {rel} published; changes against its parent {json.dumps(meta.get('changes'))}; "
              f"{release.release_dir(wh, rel)}")
    else:
        print(f"release {rel} unchanged: the content equals the latest release, no new release; "
              f"{release.release_dir(wh, rel)}")
    return 0


def verify(number: int | None, every: bool = False) -> int:
    """Re-check release ``number`` (default: LATEST), or every committed release with ``every``, against its
    manifest (pipeline.release.verify: sha256, bytes, rows and columns of every file, no unlisted file).
    Prints one ``MISMATCH`` line per problem; returns 0 when intact, 1 on any mismatch or nothing to check."""
    from pipeline import release

    wh = config.warehouse_dir()
    targets = release.committed_releases(wh) if every else [
        number if number is not None else release.latest_release(wh)]
    if not targets or targets == [None]:
        print(f"MISMATCH {wh}: no LATEST, nothing published")
        return 1
    status = 0
    for target in targets:
        problems = release.verify(wh, target)
        for p in problems:
            print(f"MISMATCH release {target}: {p}")
        if problems:
            status = 1
        else:
            print(f"release {target} in {wh}: every file matches its manifest")
    return status


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv`` (default: sys.argv) and run ``run`` or ``verify``; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m pipeline", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_run = sub.add_parser("run", help="materialise every asset over the raw folder into the warehouse")
    p_run.add_argument("-v", "--verbose", action="store_true", help="show Dagster's INFO log of every step")
    p_verify = sub.add_parser("verify", help="re-check a release's files against its manifest")
    p_verify.add_argument("release", nargs="?", type=int, help="release number (default: LATEST)")
    p_verify.add_argument("--all", action="store_true", help="check every committed release")
    args = parser.parse_args(argv)
    if args.command == "run":
        try:
            workers = config.workers()
        except ValueError as err:
            print(f"error: {err}", file=sys.stderr)
            return 2
        with parallel.started(workers, WARM_UPS):
            return run(args.verbose)
    return verify(args.release, args.all)
