"""``CHANGELOG.md`` of a release: each added, removed or changed paper named by its title (or the first words
of
its abstract when its listing gives no title) and its listing, with its paper_id.

Pure function of the changelog rows and the two ``papers`` tables; equal inputs give equal text.
"""

from __future__ import annotations

import re

import polars as pl

#: Words of the abstract shown for a paper whose listing has no title.
FIRST_WORDS = 12
#: Characters of a title shown (longer titles are cut with "…").
MAX_TITLE_CHARS = 160
_MD_SPECIAL = re.compile(r"([\\`*_\[\]<>|#])")


def _plain(text: str) -> str:
    """One line of markdown-safe text: control characters and line breaks become spaces, markdown specials
    (``*``, ``_``, backticks, brackets, ``<``, ``|``, ``#``) are escaped."""
    text = " ".join("".join(" " if ord(c) < 32 or 0x7F <= ord(c) < 0xA0 else c for c in text).split())
    return _MD_SPECIAL.sub(r"\\\1", text)


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


def _labels(papers: pl.DataFrame | pl.LazyFrame | None, ids: pl.Series) -> dict[str, tuple[str, str]]:
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
        papers.filter(pl.col("paper_id").is_in(ids.implode())).select("paper_id", *cols).collect().iter_rows()
    )
    return {pid: (paper_label(t, a), src or "?") for pid, t, a, src in rows}


def changelog_markdown(
    number: int,
    parent: int | None,
    changes: pl.DataFrame,
    papers: pl.DataFrame | pl.LazyFrame,
    previous_papers: pl.DataFrame | pl.LazyFrame | None,
) -> str:
    """The release's ``CHANGELOG.md``.

    Args:
        number/parent: this release and its parent (None for the first).
        changes: pipeline.release.diff_papers rows (paper_id, change, columns), sorted by change and id.
        papers: this release's ``papers`` (names added and changed papers); previous_papers: the parent's
            (names removed papers), or None.

    Returns one section per change kind (``## Added (n)``, ``## Removed (n)``, ``## Changed (n)``), one line
    per paper: ``- <title or first words> — `<listing>` (paper_id; changed columns)``.
    """
    ids = changes["paper_id"]
    new, old = _labels(papers, ids), _labels(previous_papers, ids)
    lines = [f"# Release {number}", "", f"Parent: {parent if parent is not None else 'none'}", ""]
    for kind in ("added", "removed", "changed"):
        part = changes.filter(pl.col("change") == kind)
        lines += [f"## {kind.capitalize()} ({part.height})", ""]
        names = old if kind == "removed" else new
        for pid, cols in part.select("paper_id", "columns").iter_rows():
            label, listing = names.get(pid) or old.get(pid) or ("(unknown paper)", "?")
            extra = f"; {cols}" if cols else ""
            lines.append(f"- {label} — `{_plain(listing).replace('`', '')}` ({pid}{extra})")
        lines.append("")
    return "\n".join(lines)
