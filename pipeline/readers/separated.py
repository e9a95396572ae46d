"""Text dumps of records separated by a line of one repeated character (``*``, ``=``, ``-``, ``_``, ``~``,
``#``;
at least 10 of them): each record is a title line, an author line, then the abstract (possibly hard-wrapped,
possibly holding blank lines).

Lines before the first separator are the preamble: a header (``NeurIPS 2016 papers``) is metadata, anything
else (``Sign in to GitHub · GitHub``) becomes one record with the problem ``preamble`` so it is accounted for
and never published. A title wrapped over two lines is recognised by the author line after it
(:func:`pipeline.readers.base.looks_like_authors`); labelled lines (``Title:``, ``Authors:``, ``Abstract:``)
are read by their labels.
"""

from __future__ import annotations

import re

from pipeline.readers.base import (
    Record,
    control_problem,
    is_separator_line,
    looks_like_authors,
    split_authors,
)
from pipeline.readers.decoding import sanitise_line
from pipeline.readers.venues import parse_header

NAME = "separated_text"
#: A record needs at least this many separator lines in the file to be read as this shape (the sniffer's
#: rule).
MIN_SEPARATORS = 2
_LABEL = re.compile(
    r"^\s*(title|authors?|abstract|summary|id|status|decision)\s*[:：]\s*(.*)$", re.IGNORECASE
)
#: At most this many lines of a record may be its title (wrapped titles are rare beyond 3).
MAX_TITLE_LINES = 3


def blocks(lines: list[str]) -> list[tuple[int, list[str]]]:
    """``lines`` cut at separator lines: ``(index of the block's first line, its lines)``, blank lines at the
    ends of each block dropped, empty blocks skipped; the first block is the preamble when it comes before
    the first separator (its index is then 0 even when it is empty)."""
    out: list[tuple[int, list[str]]] = []
    start = 0
    cur: list[str] = []
    for i, line in enumerate(lines):
        if is_separator_line(line):
            out.append((start, cur))
            start, cur = i + 1, []
        else:
            cur.append(line)
    out.append((start, cur))
    trimmed = []
    for k, (s, block) in enumerate(out):
        lead = next((j for j, line in enumerate(block) if line.strip()), len(block))
        tail = len(block) - next((j for j, line in enumerate(reversed(block)) if line.strip()), len(block))
        if lead < tail or k == 0:
            trimmed.append((s + lead if lead < tail else s, block[lead:tail]))
    return trimmed


def parse_block(block: list[str], line: int) -> Record:
    """One separated record: labelled fields when the block has ``Title:``/``Abstract:`` labels, else title
    line(s) up to the author line, the author line, then the abstract (the rest, blank lines kept)."""
    labelled = [(_LABEL.match(x), x) for x in block]
    if any(m and m.group(1).lower() in ("abstract", "summary") for m, _ in labelled):
        fields: dict[str, list[str]] = {}
        key = None
        for m, x in labelled:
            if m:
                key = m.group(1).lower().rstrip("s").replace("summary", "abstract")
                fields.setdefault(key, []).append(m.group(2))
            elif key is not None:
                fields[key].append(x)
        title = " ".join(" ".join(fields.get("title", [])).split()) or None
        abstract = "\n".join(fields.get("abstract", [])).strip("\n ")
        return Record(
            position=line,
            line=line,
            abstract_raw=abstract,
            title=title,
            authors=split_authors(" ".join(fields.get("author", []))) if "author" in fields else [],
            source_id=" ".join(fields.get("id", [])).strip() or None,
            source_status=" ".join(fields.get("statu", fields.get("decision", []))).strip() or None,
        )
    first_blank = next((j for j, x in enumerate(block) if not x.strip()), len(block))
    head = block[:first_blank]
    n_title = 1
    for k in range(1, min(MAX_TITLE_LINES, len(head) - 1) + 1):
        if looks_like_authors(head[k]):
            n_title = k
            break
    if len(head) < 2 or not block[n_title].strip():
        # no author line: the block is a title and an abstract, or an abstract alone
        if len(head) >= 2 and len(block[0].split()) <= 25 and not block[0].rstrip().endswith("."):
            return Record(
                position=line,
                line=line,
                abstract_raw="\n".join(block[1:]).strip("\n "),
                title=" ".join(block[0].split()),
            )
        return Record(position=line, line=line, abstract_raw="\n".join(block).strip("\n "))
    title = " ".join(" ".join(block[:n_title]).split())
    authors = split_authors(block[n_title])
    abstract = "\n".join(block[n_title + 1 :]).strip("\n ")
    return Record(position=line, line=line, abstract_raw=abstract, title=title or None, authors=authors)


def read(text: str) -> tuple[str | None, list[Record]]:
    """Read a separated text dump; returns ``(header, records)`` (``position`` = ``line`` = the record's first
    line, 1-based)."""
    raw_lines = text.split("\n")
    lines = [sanitise_line(x) for x in raw_lines]
    header = None
    records: list[Record] = []
    for k, (start, block) in enumerate(blocks(lines)):
        raw_block = "\n".join(raw_lines[start : start + len(block)])
        if k == 0 and not is_separator_line(lines[0] if lines else ""):
            nonblank = [x.strip() for x in block if x.strip()]
            if not nonblank:
                continue
            if len(nonblank) == 1 and parse_header(nonblank[0]):
                header = nonblank[0]
                continue
            if len(nonblank) <= 3 and sum(len(x.split()) for x in nonblank) < 40:
                records.append(
                    Record(
                        position=start + 1,
                        line=start + 1,
                        abstract_raw="\n".join(block),
                        problem="preamble: lines before the first record separator",
                    )
                )
                continue
        if not block:
            continue
        rec = parse_block(block, start + 1)
        rec.problem = control_problem(raw_block)
        records.append(rec)
    return header, records
