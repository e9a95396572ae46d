"""Publishing the next release: the commit protocol.

Under the publish lock:

1. repair and clean: a LATEST missing from ``releases.json`` is added to it; the debris of crashed runs
   is removed (:func:`pipeline.release.retention.clean_debris`); the plan is re-checked (its parent must
   still be LATEST, its number still free);
2. stage: every table file is written into ``_staging/release=N/`` (or hard-linked from the parent after
   its sha256 is checked, by the plan or here), then the changelog, the dataset card and ``manifest.json``
   last; fsync;
3. verify the staged release against its manifest (a file hard-linked in step 2 by its unchanged identity
   instead of a second hash of the same bytes); any problem refuses the publish (nothing committed);
4. rename ``_staging/release=N`` to ``release=N``;
5. add N to ``releases.json`` (atomic replace), so the index holds every release before it can be LATEST;
6. replace ``LATEST`` with N: the commit point;
7. retention (:func:`pipeline.release.retention.prune`), when configured.

:func:`rollback` makes an existing release the latest under the same protocol: under the lock, the index
repaired first (so it holds every release that was ever LATEST before LATEST moves), the release verified,
then ``LATEST`` replaced atomically.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

import polars as pl

from pipeline import card
from pipeline.build import benchmarks
from pipeline.card.changelog import RELEASE_LIST_LIMIT, changelog_markdown, lineage_changes
from pipeline.release import layout, retention, writer
from pipeline.release.conform import conform
from pipeline.release.history import release_manifest
from pipeline.release.layout import (
    GLOBAL_TABLES,
    STAGING_DIR,
    TABLES,
    ReleaseError,
    latest_release,
    list_releases,
    partition_columns,
    read_index,
    release_dir,
)
from pipeline.release.lock import publish_lock
from pipeline.release.manifest import FileEntry, Manifest, TableEntry, read_manifest, write_manifest
from pipeline.release.plan import ReleasePlan, check_current, plan_release, removal_guard
from pipeline.release.read import scan_table, scan_verified, sha256_file, table_schema
from pipeline.release.verify import verify, verify_tree
from pipeline.release.writer import TableParts
from pipeline.runtime import versions
from pipeline.runtime.progress import SILENT, Reporter
from schemas import SCHEMA_VERSION

CHANGE_KINDS = ("added", "removed", "changed")
#: Folder under the warehouse's work folder of the charts the last release drew (pipeline.card.chart_cache):
#: an unchanged chart is reused, not drawn again.
CHARTS_CACHE_DIR = "charts"


class ReleaseVerifyError(ReleaseError):
    """The staged release does not match its own manifest; nothing was committed."""


class RollbackRefusedError(ReleaseError):
    """The release to roll back to fails verification; LATEST was not changed."""


@dataclass(frozen=True)
class PublishResult:
    """What :func:`publish` did: ``release`` is the number now in LATEST; ``created`` is False when the
    content equalled the latest release; ``path`` the release folder; ``changes`` counts by kind;
    ``files_verified`` the files checked against the manifest before the commit (0 when nothing was
    written); ``warnings`` e.g. damaged parent files that were written anew instead of reused; ``lineage``
    the listings whose records changed status against the parent
    (:func:`pipeline.card.changelog.lineage_changes`; empty when nothing was written)."""

    release: int
    created: bool
    release_id: str
    path: Path
    changes: dict
    files_verified: int = 0
    warnings: tuple[str, ...] = field(default=())
    lineage: tuple[dict, ...] = field(default=())


def publish(
    warehouse: Path,
    tables: Mapping[str, pl.DataFrame | TableParts],
    inputs: list[dict],
    keep_last: int | None = None,
    now: dt.datetime | None = None,
    plan: ReleasePlan | None = None,
    allow_removal: bool = False,
    progress: Reporter = SILENT,
) -> PublishResult:
    """Publish ``tables`` as the next release unless their content equals the latest release.

    Args:
        warehouse: the warehouse folder.
        tables: one table per name in :data:`TABLES`, each with ``venue`` and ``year`` columns: a
            DataFrame (conformed to the parent's schema here), or a build's
            :class:`pipeline.release.writer.TableParts` (pipeline.release.build_files.read_tables: conformed
            when it was built against ``plan``'s parent; its partitions are read one at a time, only those not
            reused from the parent).
        inputs: the listings behind this release: dicts with ``listing`` and ``sha256``.
        keep_last: keep only the newest K releases (``None``: all); the release LATEST names is never pruned.
        now: the creation time recorded in the manifest (default: now, UTC).
        plan: the plan the tables were built with (:func:`pipeline.release.plan.plan_release`, with
            ``changes``); re-checked under the lock. ``None``: planned here, under the lock.
        allow_removal: publish even when the removal guard (:func:`pipeline.release.plan.removal_guard`)
            would refuse.
        progress: counts the ``files written`` of the tables (pipeline.release.writer.write_tables).

    Returns:
        a :class:`PublishResult`.

    Raises:
        PublishInProgressError: another publisher holds the lock; nothing was written.
        PlanOutdatedError: LATEST moved since ``plan`` was made.
        RemovalGuardError: too many papers would be removed; LATEST unchanged.
        ReleaseVerifyError: the staged release failed verification; nothing committed.
        ReleaseError: LATEST, releases.json or the parent release is unreadable or damaged.
        SchemaDriftError: a column would lose data or disappear.
        KeyError: a table of :data:`TABLES` is missing.
    """
    warehouse = Path(warehouse)
    warehouse.mkdir(parents=True, exist_ok=True)
    with publish_lock(warehouse):
        index = _repaired_index(warehouse)
        _, index = retention.clean_debris(warehouse, index)
        if plan is None:
            plan = plan_release(warehouse, read_previous=False)
        check_current(plan, warehouse, index)
        try:
            result = _stage_and_commit(warehouse, plan, tables, inputs, index, now, allow_removal, progress)
        finally:
            shutil.rmtree(warehouse / STAGING_DIR, ignore_errors=True)
        if keep_last and result.created:
            retention.prune(warehouse, keep_last)
        return result


def _repaired_index(warehouse: Path) -> list[dict]:
    """releases.json, with the release LATEST names added when it is missing (a publish of an earlier
    version of this code died between LATEST and the index, or LATEST was edited by hand), and rebuilt from
    the folders' manifests when the file is absent but releases exist."""
    index = read_index(warehouse)
    latest = latest_release(warehouse)
    known = {e["release"] for e in index}
    missing = [
        n
        for n in (list_releases(warehouse) if not index else [latest])
        if n is not None and n not in known and (release_dir(warehouse, n) / layout.MANIFEST_FILE).exists()
    ]
    if missing:
        index = index + [
            layout.index_entry(
                read_manifest(release_dir(warehouse, n)),
                sha256_file(release_dir(warehouse, n) / layout.MANIFEST_FILE),
            )
            for n in missing
        ]
        layout.write_index(warehouse, index)
        index = read_index(warehouse)
    return index


@dataclass(frozen=True)
class Staged:
    """A release written and verified in ``folder`` (``_staging/release=N``), ready to commit: its
    ``manifest``, the ``warnings`` of the table writes, ``files_verified`` (table files + extra files) and
    the ``lineage`` changes its changelog lists."""

    folder: Path
    manifest: Manifest
    warnings: tuple[str, ...]
    files_verified: int
    lineage: tuple[dict, ...] = ()


def _stage_and_commit(
    warehouse: Path,
    plan: ReleasePlan,
    frames: Mapping[str, pl.DataFrame | TableParts],
    inputs: list[dict],
    index: list[dict],
    now: dt.datetime | None,
    allow_removal: bool,
    progress: Reporter = SILENT,
) -> PublishResult:
    """Steps 2-6 of the commit protocol (module docstring), under the lock; see :func:`publish`. No new
    release (the parent's result) when the content equals the parent's."""
    parent, parent_manifest = plan.parent, plan.parent_manifest
    tables = _conformed(warehouse, plan, frames)
    parts = {name: list(tables[name].partitions) for name in TABLES}
    fingerprint = writer.content_fingerprint(parts)
    if (
        parent is not None
        and parent_manifest is not None
        and parent_manifest.content_fingerprint == fingerprint
    ):
        return _unchanged(warehouse, plan, parent_manifest.release_id)
    if plan.changes is None:  # planned here: the parent's papers, read verified, for the diff
        previous = plan.previous_papers
        if previous is None and parent is not None:
            previous = scan_verified(warehouse, parent, "papers", parent_manifest)
        plan = replace(plan, previous_papers=previous).with_changes(tables["papers"].scan().collect())
    if not allow_removal:
        removal_guard(plan, warehouse, tables["papers"].rows, tables["listing_lineage"].scan())
    staged = _stage(warehouse, plan, tables, fingerprint, inputs, now, progress)
    if isinstance(staged, str):  # same files as the parent's (the fingerprint's polars version differed)
        return _unchanged(warehouse, plan, staged)
    return _commit(warehouse, index, staged)


def _conformed(
    warehouse: Path, plan: ReleasePlan, frames: Mapping[str, pl.DataFrame | TableParts]
) -> dict[str, TableParts]:
    """Every table of :data:`TABLES` as TableParts; a DataFrame conformed to the parent's schema first. The
    global tables (:data:`GLOBAL_TABLES`), when ``frames`` lacks them, are computed from its paper_metrics
    and papers (pipeline.build.benchmarks.from_tables, what the dataset step computes from its build).
    Raises KeyError when a per-paper table is missing, SchemaDriftError when a column would lose data."""
    frames = dict(frames)
    if any(name not in frames for name in GLOBAL_TABLES):
        derived = benchmarks.from_tables(*(_frame(frames[n]) for n in ("paper_metrics", "papers")))
        frames = {**derived, **frames}
    tables: dict[str, TableParts] = {}
    for name in TABLES:
        t = frames[name]
        if not isinstance(t, TableParts):
            pinned = table_schema(warehouse, name, plan.parent) if plan.parent is not None else {}
            t = TableParts.of_frame(conform(t, name, pinned), name)
        tables[name] = t
    return tables


def _frame(t: pl.DataFrame | TableParts) -> pl.DataFrame:
    """A table given as a DataFrame or as TableParts, collected."""
    return t.scan().collect() if isinstance(t, TableParts) else t


def _unchanged(warehouse: Path, plan: ReleasePlan, release_id: str) -> PublishResult:
    """The result of a publish whose content equals the parent release: no new release."""
    assert plan.parent is not None and plan.parent_manifest is not None
    return PublishResult(
        plan.parent, False, release_id, release_dir(warehouse, plan.parent), plan.parent_manifest.changes
    )


def _stage(
    warehouse: Path,
    plan: ReleasePlan,
    tables: dict[str, TableParts],
    fingerprint: str,
    inputs: list[dict],
    now: dt.datetime | None,
    progress: Reporter = SILENT,
) -> Staged | str:
    """Steps 2-3: write the release into ``_staging/release=N`` (table files, changelog, card, manifest
    last; fsync) and verify it against its manifest. Returns the :class:`Staged` release, or the parent's
    release_id when the written files equal the parent's (nothing to commit). Raises ReleaseVerifyError."""
    parent, number, parent_manifest = plan.parent, plan.number, plan.parent_manifest
    changes = plan.changes
    assert changes is not None  # with_changes sets it
    # the card's statistics read a few columns: the papers' texts are left out (card.UNREAD_COLUMNS)
    card_tables = {
        name: tables[name].scan().drop(card.UNREAD_COLUMNS.get(name, ()), strict=False).collect()
        for name in TABLES
    }
    # a warm worker process draws the charts meanwhile when there is one (pipeline.runtime.parallel); else
    # they are drawn here when charts_done() is called
    charts_done = card.start_charts(card_tables, warehouse / retention.WORK_DIR / CHARTS_CACHE_DIR)
    stage = warehouse / STAGING_DIR / f"{layout.RELEASE_DIR_PREFIX}{number}"
    stage.mkdir(parents=True)
    parent_root = release_dir(warehouse, parent) if parent is not None else None
    parent_files = parent_manifest.table_files() if parent_manifest is not None else {}
    parts = {name: list(tables[name].partitions) for name in TABLES}
    written, warnings, linked = writer.write_tables(
        parts, stage, parent_root, parent_files, plan.verified, progress
    )
    release_id = writer.content_digest(written)[:16]
    if parent is not None and parent_manifest is not None and parent_manifest.release_id == release_id:
        return release_id
    manifest = Manifest(
        release=number,
        release_id=release_id,
        parent=parent,
        created_at=(now or dt.datetime.now(dt.UTC)).isoformat(timespec="seconds"),
        code_version=versions.pipeline_version(),
        schema_version=SCHEMA_VERSION,
        inputs=tuple(sorted(inputs, key=lambda d: d["listing"])),
        changes={k: changes.filter(pl.col("change") == k).height for k in CHANGE_KINDS},
        content_fingerprint=fingerprint,
        tables={
            name: TableEntry(
                tables[name].rows,
                partition_columns(name),
                tuple((c, str(t)) for c, t in tables[name].schema.items()),
                tuple(written[name]),
            )
            for name in TABLES
        },
    )
    # the charts are waited for last, once the changelog and the other documents are made
    manifest, lineage, note = _write_documents(
        warehouse, stage, plan, manifest, tables, card_tables, charts_done
    )
    warnings = [*warnings, *([note] if note else [])]
    problems = verify_tree(stage, manifest, linked)
    if problems:
        raise ReleaseVerifyError(
            f"release {number} was not published: its staged files fail verification "
            f"({len(problems)} problems, first: {problems[0]}). LATEST still names {parent}. Check the disk "
            "and the parent release (`python -m pipeline verify --all`), then run again."
        )
    n_files = sum(len(t.files) for t in manifest.tables.values()) + len(manifest.files)
    return Staged(stage, manifest, tuple(warnings), n_files, tuple(lineage))


def _write_documents(
    warehouse: Path,
    stage: Path,
    plan: ReleasePlan,
    manifest: Manifest,
    tables: dict[str, TableParts],
    card_tables: dict[str, pl.DataFrame],
    pngs,
) -> tuple[Manifest, list[dict], str | None]:
    """Write the changelog (``changelog.parquet``, ``CHANGELOG.md``), the dataset card's documents and
    ``manifest.json`` (last) into ``stage``, fsync it; returns the manifest with its extra files, the
    lineage changes against the parent the changelog lists, and a warning when the parent's lineage could
    not be read (the changelog then says so instead of listing them)."""
    parent, changes = plan.parent, plan.changes
    assert changes is not None
    changes.write_parquet(stage / "changelog.parquet", compression="zstd")
    previous = plan.previous_papers
    if previous is None and parent is not None and changes.filter(pl.col("change") == "removed").height:
        previous = scan_verified(
            warehouse, parent, "papers", plan.parent_manifest
        )  # names the removed papers
    note = None
    try:
        lineage = lineage_changes(_parent_lineage(warehouse, plan), tables["listing_lineage"].scan())
    except (OSError, pl.exceptions.PolarsError) as err:  # a damaged parent file (written anew by the writer)
        lineage = []
        note = (
            f"the changes of the lineage against release {parent} are not listed in CHANGELOG.md: its "
            f"listing_lineage could not be read ({str(err).splitlines()[0]})"
        )
    # the papers it names are read from the staged Parquet files (compressed, read by row group), not from
    # the build's Arrow files: their texts would be mapped in whole (1.1 GB at a million papers)
    staged_papers = (
        pl.scan_parquet(stage / "papers" / "**" / "*.parquet", hive_partitioning=True)
        if any((stage / "papers").glob("**/*.parquet"))
        else tables["papers"].scan()
    )
    text = changelog_markdown(
        plan.number, parent, changes, staged_papers, previous, lineage, limit=RELEASE_LIST_LIMIT
    )
    (stage / "CHANGELOG.md").write_text(text + (f"Lineage: {note}.\n" if note else ""))
    files = [
        FileEntry(extra, rows, (stage / extra).stat().st_size, sha256_file(stage / extra))
        for extra, rows in (("changelog.parquet", changes.height), ("CHANGELOG.md", None))
    ]
    partial = replace(manifest, files=tuple(files))
    files += [
        FileEntry.from_dict(d)
        for d in card.write_release_documents(stage, card_tables, partial.to_dict(), changes, pngs)
    ]
    manifest = replace(manifest, files=tuple(files))
    write_manifest(stage, manifest)
    writer.fsync_tree(stage)
    return manifest, lineage, note


def _parent_lineage(warehouse: Path, plan: ReleasePlan) -> pl.DataFrame | pl.LazyFrame | None:
    """The parent's ``listing_lineage`` (listing, status, reason) for the changelog's lineage section: the
    plan's verified scan, else read from the parent's folder; None for a first release."""
    if plan.parent is None:
        return None
    if plan.previous_lineage is not None:
        return plan.previous_lineage
    return scan_table(warehouse, "listing_lineage", plan.parent)


def _commit(warehouse: Path, index: list[dict], staged: Staged) -> PublishResult:
    """Steps 4-6, the commit: rename the staged folder to ``release=N``; add N to ``releases.json`` (so the
    index holds every release before it can be LATEST); replace ``LATEST`` with N, the commit point."""
    number = staged.manifest.release
    os.rename(staged.folder, release_dir(warehouse, number))
    manifest_sha = sha256_file(release_dir(warehouse, number) / layout.MANIFEST_FILE)
    layout.write_index(warehouse, [*index, layout.index_entry(staged.manifest, manifest_sha)])
    layout.write_atomic(warehouse / layout.LATEST_FILE, str(number))
    return PublishResult(
        number,
        True,
        staged.manifest.release_id,
        release_dir(warehouse, number),
        staged.manifest.changes,
        staged.files_verified,
        staged.warnings,
        staged.lineage,
    )


def rollback(warehouse: Path, number: int) -> tuple[int | None, int]:
    """Make release ``number`` the latest: under the publish lock, repair the index (every release that was
    ever LATEST in ``releases.json``, as :func:`publish` does), check that ``number`` is a release of the
    index and that it verifies against its manifest (:func:`pipeline.release.verify.verify`), then replace
    ``LATEST`` atomically (:func:`pipeline.release.layout.write_atomic`). Newer releases stay (hidden from
    all-release reads); the next publish takes the next unused number with ``number`` as its parent
    (:func:`pipeline.release.plan.next_number`).

    Returns (the release LATEST named before, ``number``); nothing is written when it already named it.
    Raises PublishInProgressError while a publish (or another rollback) holds the lock; UnknownReleaseError
    (pipeline.release.history) when ``number`` is no release; RollbackRefusedError naming the first problem
    when it fails verification; ReleaseError when LATEST or releases.json is unreadable. LATEST is unchanged
    on every error."""
    warehouse = Path(warehouse)
    with publish_lock(warehouse):
        _repaired_index(warehouse)
        release_manifest(warehouse, number)
        before = latest_release(warehouse)
        problems = verify(warehouse, number)
        if problems:
            raise RollbackRefusedError(
                f"release {number} fails verification ({len(problems)} problems, first: {problems[0]}); "
                f"LATEST still names {before}. `python -m pipeline verify --all` shows which releases are "
                "intact."
            )
        if before != number:
            layout.write_atomic(warehouse / layout.LATEST_FILE, str(number))
        return before, number
