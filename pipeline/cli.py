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

from pipeline import config, parallel

if TYPE_CHECKING:
    import dagster as dg

# Dagster and the pipeline's steps are imported inside the commands, not here: ``run`` starts its warm
# worker processes first (pipeline.parallel), so they load while this process imports Dagster (~1.4 s).


def _latest_metadata(instance: dg.DagsterInstance, asset: str) -> dict:
    """Metadata of the asset's latest materialisation, as plain values ({} when never materialised)."""
    import dagster as dg

    records = instance.fetch_materializations(dg.AssetKey(asset), limit=1).records
    if not records:
        return {}
    meta = records[0].asset_materialization.metadata
    return {k: getattr(v, "value", v) for k, v in meta.items()}


def run(verbose: bool = False, allow_removal: bool = False) -> int:
    """The main job: every asset over the raw folder into the warehouse. Returns the exit status.

    ``allow_removal``: publish even when the release would remove more than the allowed share of the
    latest release's papers (the release asset's run config ``allow_removal``). Runs in this process. ``python -m pipeline run`` calls it inside :func:`pipeline.parallel.started`
    (warm workers for the per-abstract work and the charts); called directly, the steps make their own.
    """
    import dagster as dg

    config.ensure_dagster_home()
    raw = config.raw_dir()
    if not raw.is_dir():
        print(f"error: raw folder {raw} does not exist (set PIPELINE_RAW_DIR)", file=sys.stderr)
        return 2
    with dg.DagsterInstance.get() as instance:
        return _run(instance, verbose, allow_removal)


def _failure_messages(result) -> list[str]:
    """The messages of the run's failed steps (a dagster.Failure's description names the file and what to
    do), without tracebacks."""
    out = []
    for ev in result.all_events:
        if ev.is_step_failure:
            data = ev.step_failure_data
            user = getattr(data, "user_failure_data", None)
            msg = user.description if user is not None and user.description else (
                data.error.message.strip() if data.error else "")
            out.append(f"{ev.step_key}: {msg}")
    return out


def _run(instance: dg.DagsterInstance, verbose: bool, allow_removal: bool = False) -> int:
    from pipeline import release
    from pipeline.defs.partitions import contiguous_ranges, stale_partitions, sync_partitions
    from pipeline.definitions import defs

    raw, wh = config.raw_dir(), config.warehouse_dir()
    current, added, removed = sync_partitions(instance)
    stale = stale_partitions(current)
    # stale but not new: the file's bytes changed, or its rows were made by other rules (ANALYSIS_VERSION)
    redo = len(set(stale) - set(added))
    print(f"raw folder {raw}: {len(current)} listings ({len(added)} new, {redo} changed or made by other rules, "
          f"{len(removed)} removed)")
    if not current:
        print("error: no listing files to process", file=sys.stderr)
        return 1
    run_config = {"loggers": {"console": {"config": {"log_level": "INFO" if verbose else "WARNING"}}}}
    publish_config = {**run_config, "ops": {"release": {"config": {"allow_removal": allow_removal}}}}
    # one run per contiguous range of stale partitions; the last run also builds the tables and publishes
    # (one run fewer: each costs ~0.4 s of Dagster bookkeeping)
    ordered = list(instance.get_dynamic_partitions("listings"))
    ranges = contiguous_ranges(ordered, stale)
    result = None
    for i, (first, last) in enumerate(ranges):
        job = defs.resolve_job_def("main_job" if i == len(ranges) - 1 else "listing_job")
        tags = {"dagster/asset_partition_range_start": first, "dagster/asset_partition_range_end": last}
        result = job.execute_in_process(instance=instance, tags=tags, raise_on_error=False,
                                        run_config=run_config if job.name == "listing_job" else publish_config)
        if not result.success and job.name == "listing_job":
            print(f"error: listing partitions {first!r}..{last!r} failed; rerun with -v for the log",
                  file=sys.stderr)
            return 1
    print(f"listings processed: {len(stale)} new or changed; {len(current) - len(stale)} unchanged, reused")
    if result is None:
        result = defs.resolve_job_def("publish_job").execute_in_process(instance=instance, run_config=publish_config,
                                                                        raise_on_error=False)
    for ev in result.get_asset_check_evaluations():
        if not ev.passed:
            print(f"error: asset check {ev.asset_key.to_user_string()}:{ev.check_name} failed: "
                  f"{ {k: getattr(v, 'value', v) for k, v in ev.metadata.items()} }", file=sys.stderr)
    if not result.success:
        for msg in _failure_messages(result):
            print(f"error: {msg}", file=sys.stderr)
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
    readers = release.read_table(wh, "listing_lineage", columns=["listing", "reader"]) if lineage is not None else None
    if readers is not None:
        per: dict[str, int] = {}
        for reader in dict(readers.iter_rows()).values():  # listing -> reader (one reader per listing)
            per[reader or "none fits"] = per.get(reader or "none fits", 0) + 1
        print("listings by reader: " + ", ".join(f"{r} {n}" for r, n in sorted(per.items())))
    if meta.get("created"):
        print(f"release {rel} published; changes against its parent {json.dumps(meta.get('changes'))}; "
              f"{release.release_dir(wh, rel)}")
    else:
        print(f"release {rel} unchanged: the content equals the latest release, no new release; "
              f"{release.release_dir(wh, rel)}")
    return 0


def verify(number: int | None, every: bool = False) -> int:
    """Re-check release ``number`` (default: LATEST), or with ``every`` each release of
    pipeline.release.verify_targets (the index, LATEST, every complete folder up to it), against its
    manifest (pipeline.release.verify: sha256, bytes, rows and columns of every file, no unlisted file).
    Prints one ``MISMATCH`` line per problem (a missing release or manifest is one); returns 0 when all
    are intact, 1 on any mismatch, nothing to check, or an unreadable LATEST / releases.json (one
    ``error:`` line naming the file and what to do)."""
    from pipeline import release

    wh = config.warehouse_dir()
    try:
        targets = release.verify_targets(wh) if every else [
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
    except release.ReleaseError as err:
        print(f"error: {err}", file=sys.stderr)
        return 1


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv`` (default: sys.argv) and run ``run`` or ``verify``; returns the exit status."""
    parser = argparse.ArgumentParser(prog="python -m pipeline", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    p_run = sub.add_parser("run", help="materialise every asset over the raw folder into the warehouse")
    p_run.add_argument("-v", "--verbose", action="store_true", help="show Dagster's INFO log of every step")
    p_run.add_argument("--allow-removal", action="store_true",
                       help="publish even if the release removes more than half of the latest release's papers")
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
        with parallel.started(workers):
            return run(args.verbose, args.allow_removal)
    return verify(args.release, args.all)
