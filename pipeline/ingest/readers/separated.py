"""Text dumps of records separated by a line of one repeated character (``*``, ``=``, ``-``, ``_``, ``~``,
``#``; at least 10 of them): each record is a title line, an author line, then the abstract (possibly
hard-wrapped, possibly holding blank lines).

Labelled dumps without separator lines (``Title: ...`` / ``Authors: ...`` / ``Abstract: ...`` records one
after another, blank lines between them or not) are the same shape: a record starts at each line carrying
the label that opens the file's first record (``Title:``, or ``ID:`` when every record starts with its id;
:func:`opening_label`). So are dumps of blank-line paragraphs that open with a title (``1. Title`` allowed)
and an author line (:func:`record_paragraphs`).

Lines before the first separator are the preamble: a header (``NeurIPS 2016 papers``) is metadata, anything
else (``Sign in to GitHub · GitHub``) becomes one record with the problem ``preamble`` so it is accounted for
and never published. A title wrapped over two lines is recognised by the author line after it
(:func:`pipeline.ingest.readers.base.looks_like_authors`); labelled lines (``Title:``, ``Authors:``,
``Abstract:``) are read by their labels (any name pipeline.ingest.readers.fields gives a record field: ``Paper
ID``, ``Summary``, ``Comments``...).
"""

from __future__ import annotations

import re
from functools import lru_cache

from pipeline.ingest.readers.base import (
    Record,
    control_problem,
    is_separator_line,
    looks_like_authors,
    split_authors,
)
from pipeline.ingest.readers.decoding import sanitise_line
from pipeline.ingest.readers.fields import fold, map_columns, record_from_fields
from pipeline.ingest.readers.venues import parse_header

NAME = "separated_text"
#: A record needs at least this many separator lines in the file to be read as this shape (the sniffer's
#: rule).
MIN_SEPARATORS = 2
#: A labelled line: ``Title: ...``, ``Paper ID: 7``, ``AUTHORS: ...``, ``Abstract:`` (value on the next
#: lines). The label is a record field only when pipeline.ingest.readers.fields names it (:func:`label_of`).
_LABEL = re.compile(r"^\s*(?P<label>[A-Za-z][A-Za-z ._/\-]{0,30}?)\s*[:：]\s*(?P<value>.*)$")
#: Field names of pipeline.ingest.readers.fields that also open ordinary lines of an abstract (``Note: ...``,
#: ``Description: ...``, ``Type: ...``): in a text dump they are not labels.
_NOT_LABELS = frozenset({"name", "description", "note", "key", "number", "abs", "type", "journal", "award"})
#: At most this many lines of a record may be its title (wrapped titles are rare beyond 3).
MAX_TITLE_LINES = 3


def label_of(line: str) -> str | None:
    """The record field a labelled line gives (``title``, ``authors``, ``abstract``, ``source_id``,
    ``source_status``, ``code``, ``project``, ``comment``, ``year``:
    pipeline.ingest.readers.fields.FIELD_NAMES,
    e.g. ``Summary:`` -> ``abstract``, ``Paper ID:`` -> ``source_id``), else ``None``."""
    m = _LABEL.match(line)
    return _field_of(m["label"]) if m else None


@lru_cache(maxsize=4096)
def _field_of(label: str) -> str | None:
    if fold(label) in _NOT_LABELS:
        return None
    return next(iter(map_columns([label])), None)


def opening_label(lines: list[str]) -> str | None:
    """For a labelled dump without separator lines: the label of the first labelled line when the file has
    ``Title:`` and ``Abstract:``/``Summary:`` labels and that label opens at least as many records as there
    are abstracts, else ``None`` (a file with separator lines is cut at those)."""
    if sum(1 for x in lines if is_separator_line(x)) >= MIN_SEPARATORS:
        return None
    labels = [lab for x in lines if (lab := label_of(x))]
    if "title" not in labels or "abstract" not in labels:
        return None
    first = labels[0]
    return first if labels.count(first) >= labels.count("abstract") else None


_ENUMERATOR = re.compile(r"^\s*\d{1,4}[.)]\s+")


def _title_like(line: str) -> bool:
    words = _ENUMERATOR.sub("", line).split()
    return 0 < len(words) <= 25 and not line.rstrip().endswith(".") and not looks_like_authors(line)


def record_paragraphs(lines: list[str]) -> set[int] | None:
    """For a dump of blank-line paragraphs without separator lines or labels: the indexes of the lines that
    open a record (a paragraph of 3+ lines whose first 1-MAX_TITLE_LINES lines are a title, ``1. Title``
    allowed, followed by an author line), when at least two paragraphs do and they are at least half of
    the paragraphs after the first (the others: abstracts' own blank-line paragraphs); else ``None``."""
    if sum(1 for x in lines if is_separator_line(x)) >= MIN_SEPARATORS or opening_label(lines):
        return None
    starts: set[int] = set()
    paragraphs = 0
    i, n = 0, len(lines)
    while i < n:
        if not lines[i].strip():
            i += 1
            continue
        j = i
        while j < n and lines[j].strip():
            j += 1
        paragraphs += 1
        for k in range(1, min(MAX_TITLE_LINES, j - i - 2) + 1):
            if all(_title_like(x) for x in lines[i : i + k]) and looks_like_authors(lines[i + k]):
                starts.add(i)
                break
        i = j
    return starts if len(starts) >= 2 and 2 * len(starts) >= paragraphs - 1 else None


def blocks(lines: list[str]) -> list[tuple[int, list[str]]]:
    """``lines`` cut at separator lines (dropped), before each line of the :func:`opening_label` in a
    labelled dump, or before each record's paragraph (:func:`record_paragraphs`): ``(index of the block's
    first line, its lines)``, blank lines at the ends of each block dropped, empty blocks skipped; the first
    block is the preamble when it comes before the first record (its index is then 0 even when it is
    empty)."""
    out: list[tuple[int, list[str]]] = []
    start = 0
    cur: list[str] = []
    opening = opening_label(lines)
    opens = record_paragraphs(lines) if opening is None else None
    for i, line in enumerate(lines):
        if is_separator_line(line):
            out.append((start, cur))
            start, cur = i + 1, []
        elif (opening is not None and label_of(line) == opening) or (opens and i in opens):
            out.append((start, cur))
            start, cur = i, [line]
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
    if any(label_of(x) == "abstract" for x in block):
        fields: dict[str, list[str]] = {}
        key = None
        for x in block:
            if got := label_of(x):
                key = got
                fields.setdefault(key, []).append(_LABEL.match(x)["value"])  # type: ignore[index]
            elif key is not None:
                fields[key].append(x)
        obj = {k: "\n".join(v) for k, v in fields.items()}
        return record_from_fields(obj, {k: k for k in obj}, line, line)
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
    title = _ENUMERATOR.sub("", " ".join(" ".join(block[:n_title]).split()))
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
