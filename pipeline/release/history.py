"""What a warehouse's releases hold, for people and scripts: the list of releases, the changes between any
two, and one paper through every release (``python -m pipeline releases``, ``diff A B``, ``show PAPER_ID``).

Read-only, from ``releases.json``, ``LATEST``, the manifests and the tables; pure functions of the files.
The changes between two releases are computed as a publish computes its changelog
(:func:`pipeline.release.plan.diff_papers`, :func:`pipeline.card.changelog.lineage_changes`), so ``diff P C``
of a parent P and its child C gives the content of C's ``CHANGELOG.md``. Errors are
:class:`UnknownReleaseError` / :class:`BadPaperIdError` (one line naming the release or id and the warehouse).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import polars as pl

from pipeline.card.changelog import changelog_markdown, lineage_changes
from pipeline.release.layout import (
    ReleaseError,
    committed_releases,
    latest_release,
    list_releases,
    read_index,
    release_dir,
)
from pipeline.release.manifest import Manifest, read_manifest
from pipeline.release.plan import diff_papers
from pipeline.release.read import read_table, scan_table
from schemas.models import PAPER_ID_PATTERN


class UnknownReleaseError(ReleaseError):
    """The release number names no release of the warehouse."""


class BadPaperIdError(ReleaseError):
    """The text is not a paper id, or the paper is in no committed release."""


def known_releases(warehouse: Path) -> list[int]:
    """Every release a user may name: those in ``releases.json``, the one ``LATEST`` names, and (without an
    index) every complete folder; ascending. Raises ReleaseError when LATEST or the index is unreadable."""
    index = read_index(warehouse)
    latest = latest_release(warehouse)
    known = {e["release"] for e in index} | ({latest} if latest is not None else set())
    if not index:
        known |= set(list_releases(warehouse))
    return sorted(known)


def release_manifest(warehouse: Path, number: int) -> Manifest:
    """The manifest of release ``number``. Raises UnknownReleaseError naming the releases there are when
    ``number`` is not one of :func:`known_releases` or its folder is gone; ReleaseError when its manifest is
    damaged."""
    known = known_releases(warehouse)
    if number not in known or not release_dir(warehouse, number).is_dir():
        there = _ranges(known) or "none (nothing published)"
        raise UnknownReleaseError(f"unknown release {number} in {warehouse}: releases are {there}")
    return read_manifest(release_dir(warehouse, number))


def _ranges(numbers: list[int]) -> str:
    """``1-3, 5`` for [1, 2, 3, 5]."""
    out: list[str] = []
    for n in numbers:
        if out and n == int(out[-1].split("-")[-1]) + 1:
            out[-1] = f"{out[-1].split('-')[0]}-{n}"
        else:
            out.append(str(n))
    return ", ".join(out)


def release_rows(warehouse: Path) -> list[dict]:
    """One dict per release of :func:`known_releases`, ascending: ``release``, ``created_at`` (ISO-8601),
    ``parent`` (int or None), ``papers`` (rows), ``added``, ``changed``, ``removed`` (papers against its
    parent), ``release_id``, ``latest`` (bool: the one LATEST names) and ``state``: ``latest``,
    ``committed`` (below LATEST), ``rolled back over`` (above LATEST: kept, hidden from all-release reads) or
    ``missing`` (in the index, folder or manifest gone: ``python -m pipeline verify --all``)."""
    latest = latest_release(warehouse)
    index = {e["release"]: e for e in read_index(warehouse)}
    rows = []
    for n in known_releases(warehouse):
        try:
            m: Manifest | None = read_manifest(release_dir(warehouse, n))
        except ReleaseError:
            m = None
        entry = index.get(n, {})
        state = (
            "missing"
            if m is None
            else "latest"
            if n == latest
            else "committed"
            if latest is not None and n < latest
            else "rolled back over"
        )
        rows.append(
            {
                "release": n,
                "created_at": m.created_at if m else entry.get("created_at"),
                "parent": m.parent if m else entry.get("parent"),
                "papers": m.tables["papers"].rows if m else None,
                **{k: (m.changes.get(k, 0) if m else None) for k in ("added", "changed", "removed")},
                "release_id": m.release_id if m else entry.get("release_id"),
                "latest": n == latest,
                "state": state,
            }
        )
    return rows


@dataclass(frozen=True)
class ReleaseDiff:
    """The changes from release ``old`` to release ``new``: ``changes`` (paper_id, change, columns, as
    ``changelog.parquet``), both ``papers`` tables, and ``lineage`` (listings whose records changed status,
    :func:`pipeline.card.changelog.lineage_changes`)."""

    old: int
    new: int
    changes: pl.DataFrame
    old_papers: pl.DataFrame
    new_papers: pl.DataFrame
    lineage: list[dict]

    def markdown(self) -> str:
        """The changes as ``CHANGELOG.md`` tells them (the same sections and lines), titled with both
        releases."""
        return changelog_markdown(
            self.new,
            self.old,
            self.changes,
            self.new_papers,
            self.old_papers,
            self.lineage,
            title=f"# Changes from release {self.old} to release {self.new}",
        )

    def to_json(self) -> dict:
        """``from``, ``to``, ``counts`` (added, removed, changed), ``added`` / ``removed`` / ``changed``: one
        object per paper (paper_id, title (or null), listing; changed: ``columns``, a list), and
        ``lineage``."""
        out: dict = {"from": self.old, "to": self.new, "counts": {}}
        for kind in ("added", "removed", "changed"):
            part = self.changes.filter(pl.col("change") == kind)
            papers = self.old_papers if kind == "removed" else self.new_papers
            names = papers.filter(pl.col("paper_id").is_in(part["paper_id"].implode())).select(
                "paper_id", "title", listing="source_listing"
            )
            rows = part.join(names, on="paper_id", how="left").sort("paper_id")
            out["counts"][kind] = rows.height
            out[kind] = [
                {"paper_id": pid, "title": title, "listing": listing}
                | ({"columns": cols.split(",")} if kind == "changed" else {})
                for pid, cols, title, listing in rows.select(
                    "paper_id", "columns", "title", "listing"
                ).iter_rows()
            ]
        out["lineage"] = self.lineage
        return out


def diff_releases(warehouse: Path, old: int, new: int) -> ReleaseDiff:
    """The changes from release ``old`` to release ``new`` (any two releases, either order), computed as a
    publish computes its changelog. Raises UnknownReleaseError for a number that is no release."""
    for n in (old, new):
        release_manifest(warehouse, n)
    papers = [read_table(warehouse, "papers", n) for n in (old, new)]
    lineage = [scan_table(warehouse, "listing_lineage", n) for n in (old, new)]
    assert papers[0] is not None and papers[1] is not None
    return ReleaseDiff(
        old,
        new,
        diff_papers(papers[0], papers[1]),
        papers[0],
        papers[1],
        lineage_changes(lineage[0], lineage[1]),
    )


def show_paper(warehouse: Path, paper_id: str) -> dict:
    """One paper across the committed releases: ``paper_id``; ``releases`` (the committed releases whose
    ``papers`` hold it, ascending); ``release`` (the newest of them, which the rest is read from); ``paper``
    (its ``papers`` row, column → value); ``urls`` and ``metrics`` (its ``paper_urls`` / ``paper_metrics``
    rows); ``lineage`` (its ``listing_lineage`` rows: the listing records it was published from and their
    duplicates). JSON-ready (lists, numbers, strings, None).

    Raises BadPaperIdError when ``paper_id`` is not ``p`` + 16 hex digits (schemas/models.py
    ``PAPER_ID_PATTERN``) or is in no committed release."""
    if not re.fullmatch(PAPER_ID_PATTERN, paper_id):
        raise BadPaperIdError(
            f"{paper_id!r} is not a paper id: a paper id is 'p' and 16 hex digits, e.g. p0123456789abcdef "
            "(papers.paper_id)"
        )
    releases = committed_releases(warehouse)
    found = [n for n in releases if _has_paper(warehouse, n, paper_id)]
    if not found:
        raise BadPaperIdError(
            f"paper {paper_id} is in no committed release of {warehouse} "
            f"(releases {_ranges(releases) or 'none: nothing published'})"
        )
    n = found[-1]

    def rows(table: str) -> list[dict]:
        frame = read_table(warehouse, table, n)
        assert frame is not None
        return frame.filter(pl.col("paper_id") == paper_id).to_dicts()

    return {
        "paper_id": paper_id,
        "releases": found,
        "release": n,
        "paper": rows("papers")[0],
        "urls": rows("paper_urls"),
        "metrics": rows("paper_metrics"),
        "lineage": rows("listing_lineage"),
    }


def _has_paper(warehouse: Path, number: int, paper_id: str) -> bool:
    root = release_dir(warehouse, number) / "papers"
    if not root.is_dir():
        return False
    hits = (
        pl.scan_parquet(root / "**" / "*.parquet", hive_partitioning=True)
        .select("paper_id")
        .filter(pl.col("paper_id") == paper_id)
        .head(1)
        .collect()
    )
    return hits.height > 0
