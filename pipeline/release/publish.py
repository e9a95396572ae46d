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
from pipeline.card.changelog import changelog_markdown
from pipeline.release import layout, retention, writer
from pipeline.release.conform import conform
from pipeline.release.layout import (
    PARTITION_COLUMNS,
    STAGING_DIR,
    TABLES,
    ReleaseError,
    latest_release,
    list_releases,
    read_index,
    release_dir,
)
from pipeline.release.lock import publish_lock
from pipeline.release.manifest import FileEntry, Manifest, TableEntry, read_manifest, write_manifest
from pipeline.release.plan import ReleasePlan, check_current, plan_release, removal_guard
from pipeline.release.read import scan_verified, sha256_file, table_schema
from pipeline.release.verify import verify_tree
from pipeline.release.writer import TableParts
from pipeline.runtime import versions
from schemas import SCHEMA_VERSION

CHANGE_KINDS = ("added", "removed", "changed")


class ReleaseVerifyError(ReleaseError):
    """The staged release does not match its own manifest; nothing was committed."""


@dataclass(frozen=True)
class PublishResult:
    """What :func:`publish` did: ``release`` is the number now in LATEST; ``created`` is False when the
    content equalled the latest release; ``path`` the release folder; ``changes`` counts by kind;
    ``files_verified`` the files checked against the manifest before the commit (0 when nothing was
    written); ``warnings`` e.g. damaged parent files that were written anew instead of reused."""

    release: int
    created: bool
    release_id: str
    path: Path
    changes: dict
    files_verified: int = 0
    warnings: tuple[str, ...] = field(default=())


def publish(
    warehouse: Path,
    tables: Mapping[str, pl.DataFrame | TableParts],
    inputs: list[dict],
    keep_last: int | None = None,
    now: dt.datetime | None = None,
    plan: ReleasePlan | None = None,
    allow_removal: bool = False,
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
            result = _stage_and_commit(warehouse, plan, tables, inputs, index, now, allow_removal)
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
        index = index + [layout.index_entry(read_manifest(release_dir(warehouse, n))) for n in missing]
        layout.write_index(warehouse, index)
        index = read_index(warehouse)
    return index


def _stage_and_commit(
    warehouse: Path,
    plan: ReleasePlan,
    frames: Mapping[str, pl.DataFrame | TableParts],
    inputs: list[dict],
    index: list[dict],
    now: dt.datetime | None,
    allow_removal: bool,
) -> PublishResult:
    """Steps 2-6 of the commit protocol (module docstring), under the lock; see :func:`publish`."""
    parent, number = plan.parent, plan.number
    parent_manifest = plan.parent_manifest
    tables: dict[str, TableParts] = {}
    for name in TABLES:
        t = frames[name]
        if not isinstance(t, TableParts):
            pinned = table_schema(warehouse, name, parent) if parent is not None else {}
            t = TableParts.of_frame(conform(t, name, pinned), name)
        tables[name] = t
    parts = {name: list(tables[name].partitions) for name in TABLES}
    fingerprint = writer.content_fingerprint(parts)
    if (
        parent is not None
        and parent_manifest is not None
        and parent_manifest.content_fingerprint == fingerprint
    ):
        return PublishResult(
            parent, False, parent_manifest.release_id, release_dir(warehouse, parent), parent_manifest.changes
        )
    if plan.changes is None:  # planned here: the parent's papers, read verified, for the diff
        previous = plan.previous_papers
        if previous is None and parent is not None:
            previous = scan_verified(warehouse, parent, "papers", parent_manifest)
        plan = replace(plan, previous_papers=previous).with_changes(tables["papers"].scan().collect())
    if not allow_removal:
        removal_guard(plan, warehouse, tables["papers"].rows, tables["listing_lineage"].scan())
    changes = plan.changes
    assert changes is not None  # with_changes sets it
    # the card's statistics read a few columns: the papers' texts are left out (card.UNREAD_COLUMNS)
    card_tables = {
        name: tables[name].scan().drop(card.UNREAD_COLUMNS.get(name, ()), strict=False).collect()
        for name in TABLES
    }
    # a warm worker process draws the charts meanwhile when there is one (pipeline.runtime.parallel); else
    # they are drawn here when charts_done() is called
    charts_done = card.start_charts(card_tables)
    stage = warehouse / STAGING_DIR / f"{layout.RELEASE_DIR_PREFIX}{number}"
    stage.mkdir(parents=True)
    parent_root = release_dir(warehouse, parent) if parent is not None else None
    parent_files = parent_manifest.table_files() if parent_manifest is not None else {}
    written, warnings, linked = writer.write_tables(parts, stage, parent_root, parent_files, plan.verified)
    release_id = writer.content_digest(written)[:16]
    if parent is not None and parent_manifest is not None and parent_manifest.release_id == release_id:
        # same files (the fingerprint's polars version differed)
        return PublishResult(
            parent, False, release_id, release_dir(warehouse, parent), parent_manifest.changes
        )
    pngs = charts_done()
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
                PARTITION_COLUMNS,
                tuple((c, str(t)) for c, t in tables[name].schema.items()),
                tuple(written[name]),
            )
            for name in TABLES
        },
    )
    changes.write_parquet(stage / "changelog.parquet", compression="zstd")
    previous = plan.previous_papers
    if previous is None and parent is not None and changes.filter(pl.col("change") == "removed").height:
        previous = scan_verified(warehouse, parent, "papers", parent_manifest)  # names the removed papers
    (stage / "CHANGELOG.md").write_text(
        changelog_markdown(number, parent, changes, tables["papers"].scan(), previous)
    )
    files = [
        FileEntry(extra, rows, (stage / extra).stat().st_size, sha256_file(stage / extra))
        for extra, rows in (("changelog.parquet", changes.height), ("CHANGELOG.md", None))
    ]
    partial = Manifest(**{**manifest.__dict__, "files": tuple(files)})
    files += [
        FileEntry.from_dict(d)
        for d in card.write_release_documents(stage, card_tables, partial.to_dict(), changes, pngs)
    ]
    manifest = Manifest(**{**manifest.__dict__, "files": tuple(files)})
    write_manifest(stage, manifest)
    writer.fsync_tree(stage)
    problems = verify_tree(stage, manifest, linked)
    if problems:
        raise ReleaseVerifyError(
            f"release {number} was not published: its staged files fail verification "
            f"({len(problems)} problems, first: {problems[0]}). LATEST still names {parent}. Check the disk "
            "and the parent release (`python -m pipeline verify --all`), then run again."
        )
    os.rename(stage, release_dir(warehouse, number))
    layout.write_index(warehouse, [*index, layout.index_entry(manifest)])
    layout.write_atomic(warehouse / layout.LATEST_FILE, str(number))
    n_files = sum(len(t.files) for t in manifest.tables.values()) + len(manifest.files)
    return PublishResult(
        number, True, release_id, release_dir(warehouse, number), manifest.changes, n_files, tuple(warnings)
    )
