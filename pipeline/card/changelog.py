"""``CHANGELOG.md`` of a release: each added, removed or changed paper named by its title (or the first words
of its abstract when its listing gives no title) and its listing, with its paper_id; and, when the records of
a listing changed status (a new listing, a listing gone, records newly quarantined or duplicated), one line
per such listing (:func:`lineage_changes`), so a release whose only change is in the lineage says so.

Pure functions of the changelog rows, the two ``papers`` tables and the two ``listing_lineage`` tables; equal
inputs give equal text.
"""

from __future__ import annotations

import re

import polars as pl

#: Words of the abstract shown for a paper whose listing has no title.
FIRST_WORDS = 12
#: Characters of a title shown (longer titles are cut with "…").
MAX_TITLE_CHARS = 160
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#])")
#: The record statuses of ``listing_lineage``, in the order they are told (schemas/models.py).
STATUSES = ("published", "duplicate", "quarantined")
#: Papers a release's ``CHANGELOG.md`` names per change kind; the rest of a larger change is counted in one
#: line that points to ``changelog.parquet``, which lists every change. A first build of a million abstracts
#: named every paper: a 136 MB file that took 24 s and 1.7 GB to write (the labels of every paper read). Ten
#: thousand covers the largest single listings (a conference's full accepted list, a few thousand papers).
RELEASE_LIST_LIMIT = 10_000


def _plain(text: str) -> str:
    """One line of markdown-safe text: control characters and line breaks become spaces, markdown specials
    (``*``, ``_``, backticks, brackets, ``<``, ``|``, ``#``) are escaped."""
    text = " ".join("".join(" " if ord(c) < 32 or 0x7F <= ord(c) < 0xA0 else c for c in text).split())
    return _MD_SPECIAL.sub(r"\\\1", text)


def _code(text: str) -> str:
    """One line for a markdown code span: control characters and line breaks become spaces and backticks
    are dropped; nothing is escaped, since a code span shows backslashes as they are."""
    return " ".join(
        "".join(" " if ord(c) < 32 or 0x7F <= ord(c) < 0xA0 else c for c in text).split()
    ).replace("`", "")


def paper_label(title: str | None, abstract: str | None) -> str:
    """How the changelog names a paper: its title, else ``“first words …”`` of its abstract, else ``(no
    text)``."""
    if title and title.strip():
        t = " ".join(title.split())
        return _plain(t if len(t) <= MAX_TITLE_CHARS else t[: MAX_TITLE_CHARS - 1] + "…")
    words = (abstract or "").split()
    if not words:
        return "(no text)"
    return "“" + _plain(" ".join(words[:FIRST_WORDS])) + (" …”" if len(words) > FIRST_WORDS else "”")


def paper_labels(papers: pl.DataFrame | pl.LazyFrame | None, ids: pl.Series) -> dict[str, tuple[str, str]]:
    """paper_id → (label, source listing) of the papers of a papers table (which may predate the title
    column; a lazy scan is read for these papers and columns only) whose id is in ``ids``: only the papers
    the changelog names are labelled, so its cost follows the changes, not the table."""
    if papers is None or ids.len() == 0:
        return {}
    papers = papers.lazy()
    names = papers.collect_schema().names()
    cols = [
        pl.col(c) if c in names else pl.lit(None, pl.String).alias(c)
        for c in ("title", "abstract", "source_listing")
    ]
    rows = (
        papers.filter(pl.col("paper_id").is_in(ids.implode()))
        .select("paper_id", *cols)
        .collect(engine="streaming")  # the texts stream through the filter: only the named papers' are held
        .iter_rows()
    )
    return {pid: (paper_label(t, a), src or "?") for pid, t, a, src in rows}


def _status_counts(lineage: pl.DataFrame | pl.LazyFrame) -> dict[str, dict[str, int]]:
    """listing → {status: records, "reason:<code>": quarantined records with that reason code} of a
    ``listing_lineage`` table (only ``listing``, ``status`` and ``reason`` are read; a table without
    ``status`` counts every record as published, one without ``reason`` gives no codes)."""
    lineage = lineage.lazy()
    names = lineage.collect_schema().names()
    status = pl.col("status") if "status" in names else pl.lit("published")
    reason = pl.col("reason") if "reason" in names else pl.lit(None, pl.String)
    code = reason.str.split(":").list.first().str.strip_chars()
    rows = (
        lineage.select(
            "listing", status.alias("status"), pl.when(status == "quarantined").then(code).alias("code")
        )
        .group_by("listing", "status", "code")
        .len()
        .collect()
        .iter_rows()
    )
    out: dict[str, dict[str, int]] = {}
    for listing, status, reason, n in rows:
        counts = out.setdefault(listing, {})
        counts[status] = counts.get(status, 0) + n
        if reason is not None:
            counts[f"reason:{reason}"] = counts.get(f"reason:{reason}", 0) + n
    return out


def lineage_changes(
    previous: pl.DataFrame | pl.LazyFrame | None, lineage: pl.DataFrame | pl.LazyFrame
) -> list[dict]:
    """What became of each listing's records between two releases' ``listing_lineage`` tables (``previous``:
    the older one, None for a first release: then nothing is reported, every listing being new).

    Returns one dict per listing whose counts differ, sorted by listing: ``listing`` (str), ``change``
    (``new``, ``gone`` or ``changed``), ``before`` and ``after`` (status → records, :data:`STATUSES`) and
    ``reasons`` (reason code → how many more records are quarantined for it than before; the code is the
    ``reason`` up to its first colon, e.g. ``undecodable``). JSON-ready."""
    if previous is None:
        return []
    old, new = _status_counts(previous), _status_counts(lineage)
    out = []
    for listing in sorted(set(old) | set(new)):
        a, b = old.get(listing, {}), new.get(listing, {})
        if a == b:
            continue
        codes = sorted({k for k in (*a, *b) if k.startswith("reason:")})
        out.append(
            {
                "listing": listing,
                "change": "new" if not a else "gone" if not b else "changed",
                "before": {s: a.get(s, 0) for s in STATUSES},
                "after": {s: b.get(s, 0) for s in STATUSES},
                "reasons": {
                    k.removeprefix("reason:"): b.get(k, 0) - a.get(k, 0)
                    for k in codes
                    if b.get(k, 0) > a.get(k, 0)
                },
            }
        )
    return out


def lineage_line(change: dict) -> str:
    """One line for a :func:`lineage_changes` entry, e.g. ``broken.txt (new listing): 1 record: 1
    quarantined (undecodable 1)`` or ``a.txt: published 19 → 18, quarantined 0 → 1 (too_short 1)``."""
    listing = change["listing"]
    before, after = change["before"], change["after"]
    reasons = ", ".join(f"{code} {n}" for code, n in change["reasons"].items())
    why = f" ({reasons})" if reasons else ""
    if change["change"] in ("new", "gone"):
        counts = after if change["change"] == "new" else before
        total = sum(counts.values())
        parts = ", ".join(f"{counts[s]} {s}" for s in STATUSES if counts[s])
        kind = "new listing" if change["change"] == "new" else "listing gone"
        return f"{listing} ({kind}): {total} record{'s' if total != 1 else ''}: {parts}{why}"
    parts = ", ".join(f"{s} {before[s]} → {after[s]}" for s in STATUSES if before[s] != after[s])
    return f"{listing}: {parts}{why}"


def changes_sentence(counts: dict, lineage: list[dict]) -> str:
    """The release's changes in words: ``6 papers added, 0 changed, 0 removed`` (``counts``: change kind →
    papers), followed, when only the lineage changed, by what did (``no paper added, changed or removed;
    lineage only: <n> listings: ...``, each listing as :func:`lineage_line` tells it)."""
    added, changed, removed = (counts.get(k, 0) for k in ("added", "changed", "removed"))
    papers = f"{added} papers added, {changed} changed, {removed} removed"
    if added or changed or removed or not lineage:
        return papers
    n = len(lineage)
    return (
        f"no paper added, changed or removed; lineage only ({n} listing{'s' if n != 1 else ''}): "
        + "; ".join(lineage_line(c) for c in lineage)
    )


def changelog_markdown(
    number: int,
    parent: int | None,
    changes: pl.DataFrame,
    papers: pl.DataFrame | pl.LazyFrame,
    previous_papers: pl.DataFrame | pl.LazyFrame | None,
    lineage: list[dict] | None = None,
    title: str | None = None,
    limit: int | None = None,
) -> str:
    """The release's ``CHANGELOG.md``.

    Args:
        number/parent: this release and its parent (None for the first).
        changes: pipeline.release.diff_papers rows (paper_id, change, columns), sorted by change and id.
        papers: this release's ``papers`` (names added and changed papers); previous_papers: the parent's
            (names removed papers), or None.
        lineage: :func:`lineage_changes` against the parent (None or []: no ``## Lineage`` section).
        title: the first line (default ``# Release <number>``; ``python -m pipeline diff`` names both).
        limit: papers named per change kind (the first by paper_id), the others counted in one line that
            points to ``changelog.parquet``; None: every paper (a release's own file uses
            :data:`RELEASE_LIST_LIMIT`).

    Returns one section per change kind (``## Added (n)``, ``## Removed (n)``, ``## Changed (n)``), one line
    per paper: ``- <title or first words> — `<listing>` (paper_id; changed columns)``; when no paper changed
    but the lineage did, a sentence saying so first; then ``## Lineage (n listings)``, one line per listing
    whose records changed status (:func:`lineage_line`).
    """
    parts = {kind: changes.filter(pl.col("change") == kind) for kind in ("added", "removed", "changed")}
    shown = {kind: part if limit is None else part.head(limit) for kind, part in parts.items()}
    ids = pl.concat([part["paper_id"] for part in shown.values()])
    new, old = paper_labels(papers, ids), paper_labels(previous_papers, ids)
    lines = [title or f"# Release {number}", "", f"Parent: {parent if parent is not None else 'none'}", ""]
    if lineage and not changes.height:
        lines += [
            "No paper was added, removed or changed: this release differs from its parent in the lineage "
            "only (see Lineage).",
            "",
        ]
    for kind, part in parts.items():
        lines += [f"## {kind.capitalize()} ({part.height})", ""]
        names = old if kind == "removed" else new
        for pid, cols in shown[kind].select("paper_id", "columns").iter_rows():
            label, listing = names.get(pid) or old.get(pid) or ("(unknown paper)", "?")
            extra = f"; {cols}" if cols else ""
            lines.append(f"- {label} — `{_code(listing)}` ({pid}{extra})")
        if part.height > shown[kind].height:
            lines.append(
                f"- … and {part.height - shown[kind].height} more {kind} papers: every change is in "
                "`changelog.parquet`"
            )
        lines.append("")
    if lineage:
        lines += [f"## Lineage ({len(lineage)} listing{'s' if len(lineage) != 1 else ''})", ""]
        lines += [f"- {_plain(lineage_line(c))}" for c in lineage]
        lines.append("")
    return "\n".join(lines)
