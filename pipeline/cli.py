"""Command line: ``python -m pipeline run`` (the main job), ``verify [N]``, and the releases: ``releases``,
``diff A B``, ``rollback N``, ``show PAPER_ID`` (pipeline.release.history, pipeline.release.publish.rollback),
and ``inspect FILE...`` (how files would be read, writing nothing: pipeline.cli_inspect).

``run`` does what the sensor and automation do under ``dagster dev``, in one process, against the Dagster
instance in ``DAGSTER_HOME`` (default ``.dagster_home/``): it syncs the ``listings`` partitions with the raw
folder, materialises every new or changed listing partition, then the dataset tables and the release, and
prints what it did. When nothing changed since its last run that ended with status 0, it says so without
starting Dagster (pipeline.cli_unchanged).

Exit status: 0 success; 1 failed, nothing published (``LATEST`` unchanged); 2 bad usage; 3
(:data:`EXIT_UNRECORDED`) the release was published and verifies, but Dagster's instance (``DAGSTER_HOME``)
could not record the run (a full disk, a damaged database): the data is right, the instance needs attention;
4 (:data:`EXIT_QUARANTINED`) done (released or unchanged), but listing files are quarantined whole: the run
ends naming each with its reason (pipeline.ingest.rawfiles.quarantine_summary), 4 until they are fixed.
Every error is one line naming the file, release or folder and what to do, without a traceback; ``-v`` adds
the traceback and Dagster's log.
"""

from __future__ import annotations

import argparse
import contextlib
import errno
import os
import shutil
import sys
import traceback
from collections.abc import Iterator
from typing import TYPE_CHECKING

from pipeline import cli_inspect, cli_releases, cli_unchanged
from pipeline.ingest import rawfiles
from pipeline.runtime import config, parallel

if TYPE_CHECKING:
    import dagster as dg

# Dagster and the pipeline's steps are imported inside the commands, not here: ``run`` starts its warm
# worker processes first (pipeline.runtime.parallel), so they load while this process imports Dagster.

#: What each warm helper loads before its first task: the per-abstract analysis (pipeline.analyse.abstracts)
#: and the chart backend (pipeline.card.charts), named so that only the helpers import them at start.
WARM_UPS = (
    parallel.by_name("pipeline.analyse.abstracts:warm_up"),
    parallel.by_name("pipeline.card.charts:load_backend"),
)


def _latest_metadata(instance: dg.DagsterInstance, asset: str) -> dict:
    """Metadata of the asset's latest materialisation, as plain values ({} when never materialised)."""
    import dagster as dg

    records = instance.fetch_materializations(dg.AssetKey(asset), limit=1).records
    if not records:
        return {}
    materialization = records[0].asset_materialization
    if materialization is None:
        return {}
    meta = materialization.metadata
    return {k: getattr(v, "value", v) for k, v in meta.items()}


#: Exit status when the release was published (and verifies) but the Dagster instance could not record the
#: run.
EXIT_UNRECORDED = 3
#: Exit status when the run succeeded (its release published or unchanged) but listing files of the raw
#: folder are quarantined whole: nothing of them is published (the summary at the end names them).
EXIT_QUARANTINED = 4


def run(verbose: bool = False, allow_removal: bool = False, check_unchanged: bool = True) -> int:
    """The main job: every asset over the raw folder into the warehouse. Returns the exit status (see the
    module docstring).

    With ``check_unchanged`` it first asks pipeline.cli_unchanged whether nothing changed since the last
    run that ended with status 0 or :data:`EXIT_QUARANTINED`: then it prints what the full path would print,
    starts no Dagster run and returns that status (:func:`run_if_unchanged`; :func:`main` asks before it
    starts the warm workers).

    ``allow_removal``: publish even when the release would remove more than the allowed share of the
    latest release's papers (the release asset's run config ``allow_removal``). Runs in this process. ``python
    -m pipeline run`` calls it inside :func:`pipeline.runtime.parallel.started` (warm workers for the
    per-abstract work and the charts); called directly, the steps make their own. Raises what the instance or
    the steps raise outside a Dagster step (:func:`main` reports it), except when a release was published
    before the error: then :data:`EXIT_UNRECORDED`.
    """
    if check_unchanged and (unchanged := run_if_unchanged()) is not None:
        return unchanged
    import dagster as dg

    config.ensure_dagster_home()
    raw = config.raw_dir()
    if not raw.is_dir():
        print(f"error: raw folder {raw} does not exist (set PIPELINE_RAW_DIR)", file=sys.stderr)
        return 2
    cli_unchanged.forget()
    before = _latest_or_none()
    done = _Done()
    try:
        with dg.DagsterInstance.get() as instance:
            status = _run(instance, verbose, before, allow_removal, done)
    except Exception as err:
        from pipeline import release

        if _published_since(before) is None:
            if isinstance(err, release.ReleaseError):  # its text names the file and what to do
                print(f"error: {err}", file=sys.stderr)
                return 1
            raise
        return _unrecorded(describe(err), verbose, err)
    if status in (0, EXIT_QUARANTINED) and done.lines:
        _remember(raw, done)
    return status


def run_if_unchanged() -> int | None:
    """The exit status after printing the outcome of a run with nothing changed (pipeline.cli_unchanged):
    0, or :data:`EXIT_QUARANTINED` with the summary of the files quarantined whole, as the full path would;
    else None: the full path must run. Sets up ``DAGSTER_HOME`` as :func:`run` does."""
    config.ensure_dagster_home()
    raw = config.raw_dir()
    outcome = cli_unchanged.unchanged_outcome(raw)
    if outcome is None:
        return None
    print(outcome.lines[0])
    _print_scan_notes(outcome.scan)
    for line in outcome.lines[1:]:
        print(line)
    return _print_quarantined(outcome.quarantined)


def _print_quarantined(files: list[tuple[str, str]]) -> int:
    """Print the closing summary of the listings quarantined whole (pipeline.ingest.rawfiles
    .quarantine_summary) on stderr; returns :data:`EXIT_QUARANTINED` when there are any, else 0."""
    for line in rawfiles.quarantine_summary(files):
        print(line, file=sys.stderr)
    return EXIT_QUARANTINED if files else 0


class _Done:
    """What a run that ended with status 0 synced to and printed (for pipeline.cli_unchanged.remember)."""

    def __init__(self) -> None:
        self.listings: dict[str, str] = {}
        self.lines: list[str] = []
        self.release: int | None = None
        self.quarantined: list[tuple[str, str]] = []


def _remember(raw, done: _Done) -> None:
    """Stamp the run for the next one (pipeline.cli_unchanged) when every listing's work is fresh; a stamp
    that cannot be written only costs the next run its shortcut."""
    from pipeline import release
    from pipeline.defs.io import work_file
    from pipeline.defs.partitions import stale_partitions
    from pipeline.ingest.listings import partition_key

    current = {partition_key(n): sha for n, sha in done.listings.items()}
    if done.release is None or stale_partitions(current):
        return
    files = [
        work_file(asset, key).with_suffix(suffix)
        for key in current
        for asset in ("listing_records", "abstracts")
        for suffix in (".parquet", ".json")
    ]
    where = release.release_dir(config.warehouse_dir(), done.release)
    try:
        cli_unchanged.remember(raw, done.listings, files, where, done.lines, done.quarantined)
    except OSError:
        pass


def _latest_or_none() -> int | None:
    from pipeline import release

    try:
        return release.latest_release(config.warehouse_dir())
    except (OSError, ValueError, release.ReleaseError):
        return None


def _published_since(before: int | None) -> int | None:
    """The release now in LATEST when it is not ``before`` and verifies against its manifest, else None."""
    from pipeline import release

    after = _latest_or_none()
    if after is None or after == before:
        return None
    try:
        return None if release.verify(config.warehouse_dir(), after) else after
    except Exception:  # a release that cannot be checked is not reported as published
        return None


def _unrecorded(why: str, verbose: bool, err: BaseException | None = None) -> int:
    """Report a release published despite a failure afterwards (Dagster's bookkeeping); returns 3."""
    from pipeline import release

    number = _latest_or_none()
    where = (
        release.release_dir(config.warehouse_dir(), number) if number is not None else config.warehouse_dir()
    )
    print(
        f"release {number} published and verified ({where}); but the run could not be completed: {why}",
        file=sys.stderr,
    )
    print(
        f"warning: Dagster's instance ({config.dagster_home_hint()}) may not show this run; the data is "
        "right. Fix the cause above, then `python -m pipeline run` again: it finds nothing to redo and "
        "records the release",
        file=sys.stderr,
    )
    if verbose and err is not None:
        traceback.print_exception(err)
    return EXIT_UNRECORDED


def _print_scan_notes(scan: rawfiles.RawScan, shown: int = 10) -> None:
    """Tell the user which raw entries were refused (quarantined, never read) and which hidden ones
    skipped."""
    for rel, reason in list(scan.refused.items())[:shown]:
        print(
            f"warning: {rawfiles.display_name(rel)!r} refused, quarantined (listing_lineage): {reason}",
            file=sys.stderr,
        )
    if len(scan.refused) > shown:
        print(
            f"warning: {len(scan.refused) - shown} more refused entries (see listing_lineage)",
            file=sys.stderr,
        )
    if scan.control_names:
        names = ", ".join(repr(n) for n in scan.control_names[:shown])
        more = " ..." if len(scan.control_names) > shown else ""
        print(
            f"warning: {len(scan.control_names)} raw entries have a control character in their name "
            f"(shown escaped): {names}{more}",
            file=sys.stderr,
        )
    if scan.hidden:
        names = ", ".join(repr(n) for n in scan.hidden[:shown]) + (" ..." if len(scan.hidden) > shown else "")
        print(
            f"note: {len(scan.hidden)} hidden entries (name starting with '.') skipped: {names}; rename a "
            "listing without the leading '.' to have it read"
        )


def _run(
    instance: dg.DagsterInstance,
    verbose: bool,
    before: int | None,
    allow_removal: bool = False,
    done: _Done | None = None,
) -> int:
    from pipeline.definitions import defs
    from pipeline.defs.partitions import stale_partitions, sync_partitions
    from pipeline.ingest.listings import contiguous_ranges, listing_name

    raw = config.raw_dir()
    current, added, removed, scan = sync_partitions(instance)
    stale = stale_partitions(current)
    # stale but not new: the file's bytes changed, or its rows were made by other rules (ANALYSIS_VERSION)
    redo = len(set(stale) - set(added))
    print(
        f"raw folder {raw}: {len(current)} listings ({len(added)} new, {redo} changed or made by other "
        "rules, "
        f"{len(removed)} removed)"
    )
    _print_scan_notes(scan)
    if not current:
        print("error: no listing files to process", file=sys.stderr)
        return 1
    # Dagster's console log only with -v (its errors come with tracebacks); without, the steps' warnings are
    # printed from the run's stored log (_print_run_warnings) and failures as one line each
    run_config = {"loggers": {"console": {"config": {"log_level": "INFO" if verbose else "CRITICAL"}}}}
    publish_config = {**run_config, "ops": {"release": {"config": {"allow_removal": allow_removal}}}}
    # one run per contiguous range of stale partitions; the last run also builds the tables and publishes
    # (one run fewer: each costs ~0.4 s of Dagster bookkeeping)
    ordered = list(instance.get_dynamic_partitions("listings"))
    ranges = contiguous_ranges(ordered, stale)
    result = None
    for i, (first, last) in enumerate(ranges):
        job = defs.resolve_job_def("main_job" if i == len(ranges) - 1 else "listing_job")
        tags = {"dagster/asset_partition_range_start": first, "dagster/asset_partition_range_end": last}
        result = job.execute_in_process(
            instance=instance,
            tags=tags,
            raise_on_error=False,
            run_config=run_config if job.name == "listing_job" else publish_config,
        )
        if not verbose:
            _print_run_warnings(instance, result.run_id)
        if not result.success and job.name == "listing_job":
            _print_step_failures(result)
            print(
                f"error: listing partitions {listing_name(first)!r}..{listing_name(last)!r} failed; nothing "
                "was published; rerun with -v for the log",
                file=sys.stderr,
            )
            return 1
    cli_inspect.print_listing_lines(stale)
    print(f"listings processed: {len(stale)} new or changed; {len(current) - len(stale)} unchanged, reused")
    if result is None:
        result = defs.resolve_job_def("publish_job").execute_in_process(
            instance=instance, run_config=publish_config, raise_on_error=False
        )
        if not verbose:
            _print_run_warnings(instance, result.run_id)
    _print_failed_checks(result)
    if not result.success:
        failures = _print_step_failures(result, quiet=_published_since(before) is not None)
        if _published_since(before) is not None:
            return _unrecorded(
                "; ".join(failures) or "a step failed after the release was committed", verbose
            )
        print(
            "error: the run failed (a listing step raised, a blocking check failed, or publishing raised); "
            "no release was made; rerun with -v for the log",
            file=sys.stderr,
        )
        return 1
    lines, number, quarantined = _print_summary(instance)
    if done is not None:
        done.listings, done.lines, done.release = dict(scan.listings), lines[:-1], number
        done.quarantined = quarantined
    return _print_quarantined(quarantined)


def _print_failed_checks(result) -> None:
    """One ``error:`` line per failed ERROR-severity asset check of a run result (``listings_read`` warns)."""
    import dagster as dg

    for ev in result.get_asset_check_evaluations():
        if not ev.passed and ev.severity == dg.AssetCheckSeverity.ERROR:
            print(
                f"error: asset check {ev.asset_key.to_user_string()}:{ev.check_name} failed: "
                f"{ {k: getattr(v, 'value', v) for k, v in ev.metadata.items()} }",
                file=sys.stderr,
            )


def _print_summary(instance: dg.DagsterInstance) -> tuple[list[str], int | None, list[tuple[str, str]]]:
    """Print what the run published: paragraphs by lineage status, listings by reader, and the release.
    Returns the lines printed (the release's last), the release number and the listings quarantined whole
    (pipeline.ingest.listings.quarantined_whole, not printed here: :func:`_print_quarantined`)."""
    from pipeline import release
    from pipeline.ingest.listings import LINEAGE_WHOLE, quarantined_whole

    wh = config.warehouse_dir()
    whole = quarantined_whole(release.read_table(wh, "listing_lineage", columns=list(LINEAGE_WHOLE)))
    meta = _latest_metadata(instance, "release")
    lineage = release.read_table(wh, "listing_lineage", columns=["status"])
    counts = dict(lineage.group_by("status").len().iter_rows()) if lineage is not None else {}
    rel = meta.get("release")
    lines = [
        f"abstracts: {lineage.height if lineage is not None else 0} paragraphs -> "
        f"{counts.get('published', 0)} published, {counts.get('duplicate', 0)} duplicate, "
        f"{counts.get('quarantined', 0)} quarantined"
    ]
    readers = (
        release.read_table(wh, "listing_lineage", columns=["listing", "reader"])
        if lineage is not None
        else None
    )
    if readers is not None:
        per: dict[str, int] = {}
        for reader in dict(readers.iter_rows()).values():  # listing -> reader (one reader per listing)
            per[reader or "none fits"] = per.get(reader or "none fits", 0) + 1
        lines.append("listings by reader: " + ", ".join(f"{r} {n}" for r, n in sorted(per.items())))
    where = release.release_dir(wh, rel) if rel is not None else wh
    if meta.get("created"):
        from pipeline.card.changelog import changes_sentence

        said = changes_sentence(meta.get("changes") or {}, meta.get("lineage_changes") or [])
        lines.append(f"release {rel} published: {said}; {where}")
    else:
        lines.append(
            f"release {rel} unchanged: the content equals the latest release, no new release; {where}"
        )
    for line in lines:
        print(line)
    return lines, rel, whole


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
        targets = (
            release.verify_targets(wh)
            if every
            else [number if number is not None else release.latest_release(wh)]
        )
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


def _print_step_failures(result, quiet: bool = False) -> list[str]:
    """One ``error:`` line per failed step of a Dagster run result: the step and its innermost cause (the
    Dagster instance's own errors told as :func:`describe` tells them). Returns the lines' text."""
    lines = []
    for ev in result.all_events:
        if ev.is_step_failure and ev.step_failure_data is not None and ev.step_failure_data.error is not None:
            info = ev.step_failure_data.error
            while info.cause is not None:
                info = info.cause
            message = info.message.strip()
            user = ev.step_failure_data.user_failure_data
            if (
                user is not None and user.description
            ):  # a dagster.Failure: its text names the file and what to do
                lines.append(f"step {ev.step_key} failed: {user.description}")
                continue
            if "sqlite3." in message or "sqlalchemy." in message:
                home = config.dagster_home_hint()
                what = (
                    f"Dagster's instance in {home} could not be written ({message.splitlines()[0]})"
                    f"{_low_on_space(home)}: free space there and run again"
                )
            else:
                what = message if message.startswith(f"{info.cls_name}:") else f"{info.cls_name}: {message}"
            lines.append(f"step {ev.step_key} failed: {what}")
    if not quiet:
        for line in lines:
            print(f"error: {line}", file=sys.stderr)
    return lines


def _print_run_warnings(instance: dg.DagsterInstance, run_id: str) -> None:
    """The warnings the steps logged in run ``run_id`` (from the instance's stored log), one line per
    warning, or per text said of several listings (pipeline.ingest.listings.group_warnings)."""
    import logging

    from pipeline.ingest import listings

    try:
        entries = instance.all_logs(run_id)
    except Exception:  # the instance could not be read: the failure itself is reported elsewhere
        return
    messages = []
    for entry in entries:
        # the steps' own warnings; not Dagster's notes on steps skipped after a failure (reported as errors)
        if (
            entry.dagster_event is None
            and isinstance(entry.level, int)  # Dagster's stored levels are logging's numbers
            and entry.level >= logging.WARNING
            and not entry.user_message.startswith("Dependencies for step")
        ):
            messages.append(entry.user_message)
    for message in listings.group_warnings(messages):
        print(f"warning: {message}", file=sys.stderr)


def _root(err: BaseException) -> BaseException:
    """The innermost cause of ``err`` (explicit causes, Dagster's wrapped user exceptions)."""
    seen = set()
    while id(err) not in seen:
        seen.add(id(err))
        inner = getattr(err, "user_exception", None) or err.__cause__
        if inner is None:
            break
        err = inner
    return err


def _low_on_space(path) -> str:
    try:
        free = shutil.disk_usage(path).free
    except OSError:
        return ""
    return f"; the disk holding it has {free // 1024} KiB free" if free < 16 * 1024 * 1024 else ""


def describe(err: BaseException) -> str:
    """One line for the user: what failed, naming the file, release or folder, and what to do."""
    root = _root(err)
    msg = str(root).strip().splitlines()[0] if str(root).strip() else type(root).__name__
    module = type(root).__module__
    if module.startswith(("sqlite3", "sqlalchemy", "alembic")):
        home = config.dagster_home_hint()
        return (
            f"Dagster's instance in {home} could not be read or written ({msg}){_low_on_space(home)}: "
            f"free space there and run again; if the error stays, move {home} away (a new instance is made; "
            "releases and work files are kept)"
        )
    if isinstance(root, OSError):
        where = root.filename if root.filename is not None else "?"
        if root.errno == errno.ENOSPC:
            return f"no space left on the device writing {where}: free space there, then run again"
        if root.errno == errno.ENAMETOOLONG:
            return f"file name too long: {where}: shorten the listing's name, then run again"
        return (
            f"{root.strerror or msg}: {where}: check that it exists and that this user may read and write "
            "it, then run again"
        )
    return f"{type(root).__name__}: {msg}"


@contextlib.contextmanager
def _progress(quiet: bool) -> Iterator[None]:
    """The steps' progress output (pipeline.runtime.progress) off for ``--quiet``, as before afterwards;
    a bad ``PIPELINE_PROGRESS`` raises ValueError naming it here, before the run starts."""
    before = os.environ.get("PIPELINE_PROGRESS")
    if not quiet:
        config.progress_mode()
    os.environ["PIPELINE_PROGRESS"] = "off" if quiet else (before or "auto")
    try:
        yield
    finally:
        if before is None:
            os.environ.pop("PIPELINE_PROGRESS", None)
        else:
            os.environ["PIPELINE_PROGRESS"] = before


def main(argv: list[str] | None = None) -> int:
    """Parse ``argv`` (default: sys.argv) and run its command; returns the exit status. Any error is reported
    as one ``error:`` line (:func:`describe`) with status 1; ``-v`` adds the traceback."""
    summary = " ".join(__doc__.split("\n\n")[0].split())  # the module docstring's first paragraph
    parser = argparse.ArgumentParser(prog="python -m pipeline", description=summary)
    sub = parser.add_subparsers(dest="command", required=True)
    p_run = sub.add_parser("run", help="materialise every asset over the raw folder into the warehouse")
    p_run.add_argument(
        "-v",
        "--verbose",
        action="store_true",
        help="show Dagster's INFO log of every step, and the traceback of an error",
    )
    p_run.add_argument(
        "--allow-removal",
        action="store_true",
        help="publish even if the release removes more than half of the latest release's papers",
    )
    p_run.add_argument(
        "-q", "--quiet", action="store_true", help="no progress lines or bars (PIPELINE_PROGRESS=off)"
    )
    p_verify = sub.add_parser("verify", help="re-check a release's files against its manifest")
    p_verify.add_argument("release", nargs="?", type=int, help="release number (default: LATEST)")
    p_verify.add_argument("--all", action="store_true", help="check every committed release")
    p_verify.add_argument("-v", "--verbose", action="store_true", help="show the traceback of an error")
    cli_releases.add_parsers(sub)
    cli_inspect.add_parser(sub)
    args = parser.parse_args(argv)
    try:
        if args.command == "run":
            try:
                workers = config.workers()
            except ValueError as err:
                print(f"error: {err}", file=sys.stderr)
                return 2
            with _progress(args.quiet):
                if (unchanged := run_if_unchanged()) is not None:  # nothing changed: no workers, no Dagster
                    return unchanged
                with parallel.started(workers, WARM_UPS):
                    return run(args.verbose, args.allow_removal, check_unchanged=False)
        if args.command == "verify":
            return verify(args.release, args.all)
        if args.command == "inspect":
            return cli_inspect.inspect(args.files)
        return cli_releases.dispatch(args)
    except KeyboardInterrupt:
        print(
            "interrupted: nothing was published by this run unless it said so; run again to finish",
            file=sys.stderr,
        )
        return 130
    except Exception as err:  # the one place errors reach the user: one line, traceback only with -v
        from pipeline.release.layout import ReleaseError

        if isinstance(err, ReleaseError) and not args.verbose:  # names the release, paper or file
            print(f"error: {err}", file=sys.stderr)
            return 1
        print(f"error: {describe(err)}", file=sys.stderr)
        if args.verbose:
            traceback.print_exception(err)
        else:
            print("(run again with -v for the traceback)", file=sys.stderr)
        return 1
