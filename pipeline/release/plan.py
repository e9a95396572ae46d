"""The release plan: what the next release is made against, decided once per run.

:func:`plan_release` reads the warehouse once: the parent (the release ``LATEST`` names), the next release
number, and the parent's ``papers`` and ``listing_lineage`` read verified (sha256 of every file). The
tables step takes the previous papers and lineage from the plan (stable ids) and stamps the papers' history
columns with :meth:`ReleasePlan.stamp`, which computes the diff against the parent, once; the publish step
takes the same plan (number, parent, diff) and re-checks it under the publish lock (:func:`check_current`).

Numbering: the next number is one above every number ever committed (the ``releases.json`` index, LATEST;
every release folder when there is no index), so after a rollback (an older number in LATEST,
:func:`pipeline.release.publish.rollback`) the next release gets a fresh number, its parent is the
rolled-back-to release, and every new or changed paper is stamped with the new number.

Removal guard: a release that would remove more than :data:`MAX_REMOVAL_SHARE` of the parent's papers, or
every one of them, is refused (:class:`RemovalGuardError`, naming the listings that vanished or became
empty) unless the caller allows it; so is a first release without any paper.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

import polars as pl

from pipeline.release.layout import (
    PARTITION_COLUMNS,
    ReleaseError,
    latest_release,
    list_releases,
    read_index,
    release_dir,
)
from pipeline.release.manifest import Manifest, read_manifest
from pipeline.release.read import FileIdentity, read_verified, scan_verified

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
    ``previous_papers`` / ``previous_lineage`` (the parent's tables, verified: lazy scans of exactly the
    files whose sha256 was checked, so a caller reads only the columns it needs; None without a parent,
    or when the plan was loaded back from its JSON form; tests may give DataFrames) and ``changes``: the
    changelog against the parent (paper_id, change, columns; see :func:`diff_papers`), None until
    :meth:`stamp` or :meth:`with_changes`;
    ``verified``: the parent's files whose sha256 was checked when the plan was made (path relative to the
    release folder → pipeline.release.read.FileIdentity), so the publish hard-links them unhashed while
    their identity is unchanged."""

    number: int
    parent: int | None
    parent_manifest: Manifest | None = field(default=None, repr=False)
    previous_papers: pl.DataFrame | pl.LazyFrame | None = field(default=None, repr=False)
    previous_lineage: pl.DataFrame | pl.LazyFrame | None = field(default=None, repr=False)
    changes: pl.DataFrame | None = field(default=None, repr=False)
    verified: dict[str, FileIdentity] = field(default_factory=dict, repr=False)

    def with_changes(self, papers: pl.DataFrame) -> ReleasePlan:
        """The plan with ``changes``: the diff of ``papers`` against the previous papers (computed here)."""
        return replace(self, changes=diff_papers(self.previous_papers, papers))

    def stamp(self, papers: pl.DataFrame) -> tuple[pl.DataFrame, ReleasePlan]:
        """Fill ``papers``' history columns and compute the diff, once (:class:`PaperDiff` over one part).

        ``papers`` has the published columns (``first_release`` / ``last_changed_release`` may hold
        anything: they are replaced in place, Int64). A paper unchanged against the parent keeps both; a
        changed one keeps first_release and gets ``number`` as last_changed_release; a new one gets
        ``number`` for both. Returns the stamped papers and the plan with ``changes``."""
        differ = self.differ()
        stamped = differ.stamp(papers)
        return stamped, replace(self, changes=differ.changes())

    def differ(self) -> PaperDiff:
        """A :class:`PaperDiff` of new papers against this plan's previous papers, stamping ``number``."""
        return PaperDiff(self.previous_papers, self.number)

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

    ``read_previous``: check the parent's papers and lineage files (sha256) and put their scans into the
    plan. Raises ReleaseError
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
        scan_verified(warehouse, latest, "papers", manifest, verified),
        scan_verified(warehouse, latest, "listing_lineage", manifest, verified),
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


def _hashed(column: str, dtype: pl.DataType) -> pl.Expr:
    """64-bit polars hash (seed 0) of ``column`` cast to ``dtype``, named ``column``."""
    return pl.col(column).cast(dtype, strict=False).hash(seed=0).alias(column)


class PaperDiff:
    """The changelog of new papers against the parent's, fed one part (e.g. one partition) of the new papers
    at a time, and the new papers' history columns stamped on the way.

    The parent's papers are read partition by partition, for the partitions of the parts stamped (and the
    rows a paper left elsewhere), as ``paper_id``, the history columns and one 64-bit hash per compared
    column (polars ``hash``, seed 0, both sides cast to the new table's dtype): about 8 bytes per paper and
    column instead of the table; every parent paper's id is read once, for the removed ones. A column
    counts as changed when its hashes differ (two different values hash alike with probability 2^-64 per
    paper and column, against which the history is not guarded).
    Compared columns: those of the new papers that the parent has, except ``paper_id`` and the history
    columns (:func:`diff_papers`)."""

    def __init__(self, previous: pl.DataFrame | pl.LazyFrame | None, number: int):
        self.number = number
        self._previous = previous.lazy() if previous is not None else None
        self._ids_old: pl.Series | None = None
        self._whole: pl.DataFrame | None = None
        self._target: dict[str, pl.DataType] | None = None
        self._by_part = False
        self._compare: list[str] = []
        self._parts: list[pl.DataFrame] = []
        self._ids: list[pl.Series] = []

    def _hashes(self, rows: pl.LazyFrame, schema: pl.Schema) -> pl.DataFrame:
        """paper_id, ``_found``, prev_<history>, and the compared columns' hashes of the parent's ``rows``
        (the compared columns and their dtypes fixed by the first part's ``schema``)."""
        assert self._previous is not None
        old_schema = self._previous.collect_schema()
        if self._target is None:
            self._compare = [
                c for c in schema if c not in HISTORY_COLUMNS and c != "paper_id" and c in old_schema
            ]
            self._target = {c: old_schema[c] if schema[c] == pl.Null else schema[c] for c in self._compare}
            self._by_part = all(c in old_schema for c in PARTITION_COLUMNS)
        return rows.select(
            "paper_id",
            pl.lit(True).alias("_found"),
            *[pl.col(c).alias(f"prev_{c}") for c in HISTORY_COLUMNS if c in old_schema],
            *[_hashed(c, t) for c, t in self._target.items()],
        ).collect(engine="streaming")

    def _old_ids(self) -> pl.Series:
        """Every parent paper's id (read once, one column)."""
        if self._ids_old is None:
            assert self._previous is not None
            self._ids_old = self._previous.select("paper_id").collect()["paper_id"]
        return self._ids_old

    def _old_rows(self, papers: pl.DataFrame) -> pl.DataFrame:
        """The parent's rows (:meth:`_hashes`) of ``papers``' ids: read from the parent's partitions of the
        same venues and years (where a paper almost always stays), then, for the ids the parent has
        elsewhere, from the whole table; so each part costs about its own size, not the parent's, and a
        partition not stamped (taken from the parent: pipeline.release.reuse) costs nothing."""
        assert self._previous is not None
        if self._target is None:
            self._hashes(self._previous.head(0), papers.schema)
        if not self._by_part or not papers.height or not set(PARTITION_COLUMNS) <= set(papers.columns):
            if self._whole is None:
                self._whole = self._hashes(self._previous, papers.schema)
            return self._whole
        venue, year = (pl.col(c) for c in PARTITION_COLUMNS)
        keys = papers.select(PARTITION_COLUMNS).unique().iter_rows()
        local = self._hashes(
            self._previous.filter(pl.any_horizontal([(venue == v) & (year == y) for v, y in keys])),
            papers.schema,
        )
        ids = papers["paper_id"]
        elsewhere = ids.filter(ids.is_in(self._old_ids().implode()) & ~ids.is_in(local["paper_id"].implode()))
        if elsewhere.len():
            moved = self._previous.filter(pl.col("paper_id").is_in(elsewhere.implode()))
            local = pl.concat([local, self._hashes(moved, papers.schema)])
        return local

    def stamp(self, papers: pl.DataFrame) -> pl.DataFrame:
        """``papers`` (one part of the new table: unique ``paper_id``, the published columns) with
        ``first_release`` / ``last_changed_release`` (Int64) filled as :meth:`ReleasePlan.stamp` says; the
        part's added and changed papers are kept for :meth:`changes`. Same rows, same order."""
        new = pl.lit(self.number, pl.Int64)
        self._ids.append(papers["paper_id"])
        if self._previous is None:
            self._parts.append(
                papers.select("paper_id", change=pl.lit("added"), columns=pl.lit(None, pl.String))
            )
            return papers.with_columns(first_release=new, last_changed_release=new)
        old = self._old_rows(papers)
        assert self._target is not None  # set by the first _hashes
        hashed = papers.select("paper_id", *[_hashed(c, t) for c, t in self._target.items()])
        joined = hashed.join(old, on="paper_id", how="left", suffix="_old", maintain_order="left")
        columns = (
            pl.concat_list([pl.when(pl.col(c) != pl.col(f"{c}_old")).then(pl.lit(c)) for c in self._compare])
            .list.drop_nulls()
            .list.join(",")
            if self._compare
            else pl.lit("")
        )
        found = pl.col("_found").fill_null(False)
        verdict = joined.select(
            "paper_id",
            found.alias("found"),
            columns.alias("columns"),
            *[pl.col(f"prev_{c}") for c in HISTORY_COLUMNS if f"prev_{c}" in old.columns],
        )
        self._parts.append(
            pl.concat(
                [
                    verdict.filter(~pl.col("found")).select(
                        "paper_id", change=pl.lit("added"), columns=pl.lit(None, pl.String)
                    ),
                    verdict.filter(pl.col("found") & (pl.col("columns") != "")).select(
                        "paper_id", change=pl.lit("changed"), columns="columns"
                    ),
                ]
            )
        )
        changed = pl.col("found") & (pl.col("columns") != "")
        none = pl.lit(None, pl.Int64)
        first = pl.col("prev_first_release") if "prev_first_release" in verdict.columns else none
        last = pl.col("prev_last_changed_release") if "prev_last_changed_release" in verdict.columns else none
        hist = verdict.select(
            first_release=pl.coalesce(first, new),
            last_changed_release=pl.when(changed | last.is_null()).then(new).otherwise(last),
        )
        return papers.with_columns(hist["first_release"], hist["last_changed_release"])

    def keep(self, paper_ids: pl.Series) -> None:
        """Count papers taken from the parent as they are (pipeline.release.reuse): neither added nor
        changed, and not removed."""
        self._ids.append(paper_ids)

    def changes(self) -> pl.DataFrame:
        """The changelog (:data:`CHANGELOG_SCHEMA`) of every part stamped so far, plus the parent's papers
        that none of them has (``removed``). Sorted by change, paper_id."""
        parts = [p.cast(CHANGELOG_SCHEMA) for p in self._parts]
        if self._previous is not None:
            old_ids = self._old_ids()
            seen = pl.concat(self._ids) if self._ids else pl.Series("paper_id", [], pl.String)
            parts.append(
                old_ids.to_frame()
                .filter(~pl.col("paper_id").is_in(seen.implode()))
                .select("paper_id", change=pl.lit("removed"), columns=pl.lit(None, pl.String))
                .cast(CHANGELOG_SCHEMA)
            )
        return (
            pl.concat(parts, how="vertical")
            .select(list(CHANGELOG_SCHEMA))
            .cast(CHANGELOG_SCHEMA)
            .sort("change", "paper_id")
            if parts
            else pl.DataFrame(schema=CHANGELOG_SCHEMA)
        )


def diff_papers(old: pl.DataFrame | pl.LazyFrame | None, new: pl.DataFrame) -> pl.DataFrame:
    """Changelog rows between two ``papers`` tables: ``paper_id``, ``change`` (added / removed / changed),
    ``columns`` (comma-separated names of the changed columns, null unless changed). Sorted by change, id.
    History columns (first_release, last_changed_release) are not compared, nor columns absent from ``old``
    (a column new in this release is a schema change, listed in the manifest, not a change of every paper).
    Compared by 64-bit hashes (:class:`PaperDiff`)."""
    differ = PaperDiff(old, 0)
    differ.stamp(new)
    return differ.changes()


def removal_guard(
    plan: ReleasePlan, warehouse: Path, papers: int, lineage: pl.DataFrame | pl.LazyFrame
) -> None:
    """Refuse a release that removes more than :data:`MAX_REMOVAL_SHARE` of the parent's papers, or all, and
    a first release with no paper at all (a raw folder of empty or unreadable files is not a dataset).

    ``papers``: the new release's paper count; ``lineage``: its lineage (``listing`` and ``status`` are
    read, only when the release is refused); ``plan.changes`` must be set. Raises
    RemovalGuardError naming the removed share, the listings of the parent that vanished or now publish no
    paper (from the parent's lineage, read only then), and how to confirm."""
    if plan.parent_manifest is None:
        if papers == 0:
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
    if before == 0 or (removed <= MAX_REMOVAL_SHARE * before and papers > 0):
        return
    assert plan.parent is not None  # a parent manifest is the parent's
    old = (
        plan.previous_lineage.lazy().select("listing", "status").collect()
        if plan.previous_lineage is not None
        else read_verified(warehouse, plan.parent, "listing_lineage", plan.parent_manifest).select(
            "listing", "status"
        )
    )
    had = set(old.filter(pl.col("status") != "quarantined")["listing"].unique())
    now = lineage.lazy().select("listing", "status").collect()
    now_all = set(now["listing"].unique())
    now_kept = set(now.filter(pl.col("status") != "quarantined")["listing"].unique())
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
        f"{', and never all' if papers == 0 else ''}). {names or 'No listing vanished.'} "
        "LATEST is unchanged. If this is intended, rerun with `python -m pipeline run --allow-removal` "
        "(`make run ALLOW_REMOVAL=1`; in Dagster: run config `ops: "
        "{release: {config: {allow_removal: true}}}`); "
        "otherwise put the listing files back into the raw folder."
    )
