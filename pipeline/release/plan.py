"""The release plan: what the next release is made against, decided once per run.

:func:`plan_release` reads the warehouse once: the parent (the release ``LATEST`` names), the next release
number, and the parent's ``papers`` and ``listing_lineage`` read verified (sha256 of every file). The
tables step takes the previous papers and lineage from the plan (stable ids) and stamps the papers' history
columns with :meth:`ReleasePlan.stamp`, which computes the diff against the parent, once; the publish step
takes the same plan (number, parent, diff) and re-checks it under the publish lock (:func:`check_current`).

Numbering: the next number is one above every number ever committed (the ``releases.json`` index, LATEST;
every release folder when there is no index), so after a rollback (an older number written into LATEST)
the next release gets a fresh number, its parent is the rolled-back-to release, and every new or changed
paper is stamped with the new number.

Removal guard: a release that would remove more than :data:`MAX_REMOVAL_SHARE` of the parent's papers, or
every one of them, is refused (:class:`RemovalGuardError`, naming the listings that vanished or became
empty) unless the caller allows it; so is a first release without any paper.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import polars as pl

from pipeline.release.layout import ReleaseError, latest_release, list_releases, read_index, release_dir
from pipeline.release.manifest import Manifest, read_manifest
from pipeline.release.read import FileIdentity, read_verified

#: Columns not compared when deciding whether a paper changed (they record history, not content).
HISTORY_COLUMNS = ("first_release", "last_changed_release")
CHANGELOG_SCHEMA = pl.Schema({"paper_id": pl.String, "change": pl.String, "columns": pl.String})
#: A release may remove at most this share of the parent release's papers without confirmation (and
#: never all of them). Half: losing more than half of a dataset between two releases has, in practice,
#: meant files moved away, a wrong raw folder or an empty stray file, not an edit; removing one listing of
#: several stays below it.
MAX_REMOVAL_SHARE = 0.5


class PlanOutdatedError(ReleaseError):
    """LATEST moved (another publish, or a rollback) since the plan was made."""


class RemovalGuardError(ReleaseError):
    """The release would remove too many of the latest release's papers; nothing was published."""


@dataclass(frozen=True)
class ReleasePlan:
    """The next release: ``number`` (int), ``parent`` (int or None), the parent's ``parent_manifest``,
    ``previous_papers`` / ``previous_lineage`` (the parent's tables, read verified; None without a parent,
    or when the plan was loaded back from its JSON form) and ``changes``: the changelog against the parent
    (paper_id, change, columns; see :func:`diff_papers`), None until :meth:`stamp` or :meth:`with_changes`;
    ``verified``: the parent's files whose sha256 was checked when the plan was made (path relative to the
    release folder → pipeline.release.read.FileIdentity), so the publish hard-links them unhashed while
    their identity is unchanged."""

    number: int
    parent: int | None
    parent_manifest: Manifest | None = field(default=None, repr=False)
    previous_papers: pl.DataFrame | None = field(default=None, repr=False)
    previous_lineage: pl.DataFrame | None = field(default=None, repr=False)
    changes: pl.DataFrame | None = field(default=None, repr=False)
    verified: dict[str, FileIdentity] = field(default_factory=dict, repr=False)

    def with_changes(self, papers: pl.DataFrame) -> ReleasePlan:
        """The plan with ``changes``: the diff of ``papers`` against the previous papers (computed here)."""
        return replace(self, changes=diff_papers(self.previous_papers, papers))

    def stamp(self, papers: pl.DataFrame) -> tuple[pl.DataFrame, ReleasePlan]:
        """Fill ``papers``' history columns and compute the diff, once.

        ``papers`` has the published columns (``first_release`` / ``last_changed_release`` may hold
        anything: they are replaced in place, Int64). A paper unchanged against the parent keeps both; a
        changed one keeps first_release and gets ``number`` as last_changed_release; a new one gets
        ``number`` for both. Returns the stamped papers and the plan with ``changes``."""
        plan = self.with_changes(papers)
        new = pl.lit(self.number, pl.Int64)
        if self.previous_papers is None:
            return papers.with_columns(first_release=new, last_changed_release=new), plan
        assert plan.changes is not None  # with_changes sets it
        changed = plan.changes.filter(pl.col("change") == "changed")["paper_id"]
        hist = self.previous_papers.select(
            "paper_id", *[pl.col(c).alias(f"prev_{c}") for c in HISTORY_COLUMNS]
        )
        stamped = (
            papers.join(hist, on="paper_id", how="left", maintain_order="left")
            .with_columns(
                first_release=pl.coalesce("prev_first_release", new),
                last_changed_release=pl.when(
                    pl.col("paper_id").is_in(changed.implode())
                    | pl.col("prev_last_changed_release").is_null()
                )
                .then(new)
                .otherwise(pl.col("prev_last_changed_release")),
            )
            .select(papers.columns)
        )
        return stamped, plan

    def to_json(self) -> dict:
        """``number``, ``parent`` and the parent's ``release_id`` (what the publish step re-checks), and
        ``verified`` (path → the five integers of its identity)."""
        return {
            "number": self.number,
            "parent": self.parent,
            "parent_release_id": self.parent_manifest.release_id if self.parent_manifest else None,
            "verified": {rel: list(ident) for rel, ident in sorted(self.verified.items())},
        }

    @classmethod
    def from_json(cls, d: dict, changes: pl.DataFrame | None, warehouse: Path) -> ReleasePlan:
        """The plan saved by :meth:`to_json` and its changes; raises PlanOutdatedError when the parent's
        release_id differs (the parent folder was replaced since)."""
        parent = d["parent"]
        manifest = read_manifest(release_dir(warehouse, parent)) if parent is not None else None
        if manifest is not None and manifest.release_id != d.get("parent_release_id"):
            raise PlanOutdatedError(
                f"release {parent} is not the release the tables were built against "
                f"(release_id {manifest.release_id}, expected {d.get('parent_release_id')}); "
                f"{_REBUILD}"
            )
        verified = {rel: tuple(ident) for rel, ident in d.get("verified", {}).items()}
        return cls(d["number"], parent, manifest, changes=changes, verified=verified)


_REBUILD = (
    "rebuild the tables: rerun `python -m pipeline run`, or materialise the dataset group "
    "(tables and release) again"
)


def next_number(warehouse: Path, index: list[dict], latest: int | None) -> int:
    """One above every number committed so far: the index's, LATEST's, and every release folder's when
    there is no index (a warehouse whose index was lost keeps all its folders)."""
    known = {e["release"] for e in index} | ({latest} if latest is not None else set())
    if not index:
        known |= set(list_releases(warehouse, complete=False))
    return max(known, default=0) + 1


def plan_release(warehouse: Path, read_previous: bool = True) -> ReleasePlan:
    """The plan for the next release of ``warehouse`` (see the module docstring).

    ``read_previous``: read the parent's papers and lineage (verified) into the plan. Raises ReleaseError
    when LATEST or releases.json is unreadable, or a file of the parent's papers or lineage is damaged."""
    warehouse = Path(warehouse)
    latest = latest_release(warehouse)
    number = next_number(warehouse, read_index(warehouse), latest)
    if latest is None:
        return ReleasePlan(number, None)
    manifest = read_manifest(release_dir(warehouse, latest))
    if not read_previous:
        return ReleasePlan(number, latest, manifest)
    verified: dict[str, FileIdentity] = {}
    return ReleasePlan(
        number,
        latest,
        manifest,
        read_verified(warehouse, latest, "papers", manifest, verified),
        read_verified(warehouse, latest, "listing_lineage", manifest, verified),
        verified=verified,
    )


def check_current(plan: ReleasePlan, warehouse: Path, index: list[dict]) -> None:
    """Under the publish lock: the plan's parent is still LATEST and its number still free.

    Raises PlanOutdatedError saying what moved and what to do."""
    latest = latest_release(warehouse)
    if latest != plan.parent:
        raise PlanOutdatedError(
            f"the tables were built for release {plan.number} on top of release {plan.parent}, but "
            f"{Path(warehouse) / 'LATEST'} now names {latest} (another publish or a rollback happened "
            f"meanwhile); {_REBUILD}"
        )
    taken = next_number(warehouse, index, latest)
    if plan.number < taken:
        raise PlanOutdatedError(
            f"release number {plan.number} was taken meanwhile (next free: {taken}); {_REBUILD}"
        )


def diff_papers(old: pl.DataFrame | None, new: pl.DataFrame) -> pl.DataFrame:
    """Changelog rows between two ``papers`` tables: ``paper_id``, ``change`` (added / removed / changed),
    ``columns`` (comma-separated names of the changed columns, null unless changed). Sorted by change, id.
    History columns (first_release, last_changed_release) are not compared, nor columns absent from ``old``
    (a column new in this release is a schema change, listed in the manifest, not a change of every paper)."""
    if old is None:
        return (
            new.select("paper_id", change=pl.lit("added"), columns=pl.lit(None, pl.String))
            .cast(CHANGELOG_SCHEMA)
            .sort("paper_id")
        )
    compare = [c for c in new.columns if c not in HISTORY_COLUMNS and c != "paper_id" and c in old.columns]
    joined = old.select("paper_id", *compare).join(
        new.select("paper_id", *compare), on="paper_id", how="full", suffix="_new", coalesce=False
    )
    added = joined.filter(pl.col("paper_id").is_null()).select(pl.col("paper_id_new").alias("paper_id"))
    removed = joined.filter(pl.col("paper_id_new").is_null()).select("paper_id")
    both = joined.filter(pl.col("paper_id").is_not_null() & pl.col("paper_id_new").is_not_null())
    diffs = both.select(
        "paper_id",
        pl.concat_list([pl.when(pl.col(c).ne_missing(pl.col(f"{c}_new"))).then(pl.lit(c)) for c in compare])
        .list.drop_nulls()
        .list.join(",")
        .alias("columns"),
    ).filter(pl.col("columns") != "")
    return (
        pl.concat(
            [
                added.with_columns(change=pl.lit("added"), columns=pl.lit(None, pl.String)),
                removed.with_columns(change=pl.lit("removed"), columns=pl.lit(None, pl.String)),
                diffs.with_columns(change=pl.lit("changed")).select("paper_id", "change", "columns"),
            ]
        )
        .select(list(CHANGELOG_SCHEMA))
        .cast(CHANGELOG_SCHEMA)
        .sort("change", "paper_id")
    )


def removal_guard(plan: ReleasePlan, warehouse: Path, papers: pl.DataFrame, lineage: pl.DataFrame) -> None:
    """Refuse a release that removes more than :data:`MAX_REMOVAL_SHARE` of the parent's papers, or all, and
    a first release with no paper at all (a raw folder of empty or unreadable files is not a dataset).

    ``papers`` / ``lineage``: the new release's tables; ``plan.changes`` must be set. Raises
    RemovalGuardError naming the removed share, the listings of the parent that vanished or now publish no
    paper (from the parent's lineage, read only then), and how to confirm."""
    if plan.parent_manifest is None:
        if papers.height == 0:
            raise RemovalGuardError(
                f"not published: the first release of {warehouse} would hold no paper (no listing in the raw "
                "folder gave one: each file's records are empty, quarantined or duplicates; the run's "
                "per-listing lines say why). Nothing was written. Put listing files with abstracts into the "
                "raw folder, or rerun with `python -m pipeline run --allow-removal` to publish an empty "
                "release anyway."
            )
        return
    if plan.changes is None:
        return
    before = plan.parent_manifest.tables["papers"].rows
    removed = plan.changes.filter(pl.col("change") == "removed").height
    if before == 0 or (removed <= MAX_REMOVAL_SHARE * before and papers.height > 0):
        return
    assert plan.parent is not None  # a parent manifest is the parent's
    old = (
        plan.previous_lineage.select("listing", "status")
        if plan.previous_lineage is not None
        else read_verified(warehouse, plan.parent, "listing_lineage", plan.parent_manifest).select(
            "listing", "status"
        )
    )
    had = set(old.filter(pl.col("status") != "quarantined")["listing"].unique())
    now_all = set(lineage["listing"].unique())
    now_kept = set(lineage.filter(pl.col("status") != "quarantined")["listing"].unique())
    vanished = sorted(had - now_all)
    emptied = sorted((had & now_all) - now_kept)
    names = "; ".join(
        part
        for part in (
            f"listings gone from the raw folder: {', '.join(vanished[:20])}" if vanished else "",
            f"listings that publish no paper any more: {', '.join(emptied[:20])}" if emptied else "",
        )
        if part
    )
    raise RemovalGuardError(
        f"not published: this release would remove {removed} of the {before} papers of release "
        f"{plan.parent} ({removed / before:.0%}; at most {MAX_REMOVAL_SHARE:.0%} may go without confirmation"
        f"{', and never all' if papers.height == 0 else ''}). {names or 'No listing vanished.'} "
        "LATEST is unchanged. If this is intended, rerun with `python -m pipeline run --allow-removal` "
        "(`make run ALLOW_REMOVAL=1`; in Dagster: run config `ops: "
        "{release: {config: {allow_removal: true}}}`); "
        "otherwise put the listing files back into the raw folder."
    )
