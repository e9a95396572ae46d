"""PDF first-page dumps (text extracted from the first page of each paper): title over one or more lines,
authors, affiliations and e-mails, then ``Abstract``/``Abstract.``/``Abstract:``/``Abstract—`` and the
abstract, which ends at ``Keywords``, ``Key words``, ``Index Terms``, ``CCS Concepts`` or the first section
heading (``1 Introduction``, ``1. Introduction``, ``I. INTRODUCTION``, ``Introduction``).

Several papers in one file are separated by form feeds (page breaks) or separator lines; each page with an
``Abstract`` marker is one record, a page without one is one record with the problem ``no_abstract_marker``.
Hyphenation at line ends inside the abstract (``learn-`` / ``ing``) is undone. Authors: the author-like lines
(:func:`pipeline.ingest.readers.base.looks_like_authors`) right before the first affiliation or e-mail line;
title: the lines before them (a wrapped title line such as ``Few-shot Learning`` may itself look like two
names); affiliations and e-mails are neither.
"""

from __future__ import annotations

import re

from pipeline.ingest.readers.base import (
    Record,
    control_problem,
    is_separator_line,
    looks_like_authors,
    split_authors,
)
from pipeline.ingest.readers.decoding import sanitise_line

NAME = "pdf_first_page"
ABSTRACT_MARKER = re.compile(
    r"^\s*(?:abstract|ABSTRACT|Abstract|A\s+B\s+S\s+T\s+R\s+A\s+C\s+T)"
    r"(?:\s*[.:—–\-]+\s*|\s*$|\s+(?=[A-Z]))(?P<rest>.*)$"
)
ABSTRACT_END = re.compile(
    r"^\s*(?:keywords?|key\s+words|index\s+terms|ccs\s+concepts|general\s+terms|categories\s+and\s+subject"
    r"|(?:1|I)\.?\s+introduction\b|introduction\s*$|1\s+(?:background|motivation|overview)\s*$)",
    re.IGNORECASE,
)
_EMAIL = re.compile(r"[\w.+\-]+@[\w\-]+(?:\.[\w\-]+)+|\{[\w.,\s]+\}@[\w.\-]+")
_AFFILIATION = re.compile(
    r"(?<![A-Za-z])(?:universit|institut|college\b|school\s+of|department|dept\.|laborator|"
    r"inc\.|corporation|academy|polytechn|google\b|microsoft\b|deepmind\b|openai\b|eth\s+z|"
    r"\bmit\b|epfl\b|inria\b|cnrs\b)",
    re.IGNORECASE,
)
#: A line listing several names or marked names (``A, B and C``, ``Jane Doe1*``); a line of capitalised words
#: (even with ``and``) without such marks may be the end of a wrapped title: an author line only right before
#: affiliations.
_NAME_LIST = re.compile(r",|\d|[*†‡∗⋆§¶]")
_HYPHEN_BREAK = re.compile(r"([\w\-]+)-\n([a-z]\w*)")
#: Prefixes written with a hyphen in compounds (``multi-task``, ``non-convex``): a line break after them keeps
#: it.
_COMPOUND_PREFIXES = {
    "multi",
    "non",
    "self",
    "semi",
    "co",
    "pre",
    "post",
    "sub",
    "cross",
    "well",
    "state",
    "least",
    "maximum",
    "minimum",
    "high",
    "low",
    "large",
    "small",
    "real",
    "long",
    "short",
    "end",
    "fine",
    "coarse",
    "zero",
    "few",
    "one",
    "two",
    "three",
    "data",
    "task",
    "model",
    "domain",
    "open",
    "closed",
    "inter",
    "intra",
    "over",
    "under",
    "anti",
    "meta",
    "hyper",
    "human",
    "single",
    "double",
    "first",
    "second",
    "higher",
    "lower",
    "sum",
    "mean",
    "point",
    "off",
    "on",
}


def dehyphenate(text: str) -> str:
    """Undo line-end hyphenation of a PDF text: ``learn-`` / ``ing`` → ``learning``; the hyphen stays (the
    line break goes) when it joins a compound: the part before already holds a hyphen (``state-of-the-``), is
    a compound prefix (_COMPOUND_PREFIXES: ``multi-``/``non-``), or the part after occurs as a word of its own
    elsewhere in the text (``locally-`` / ``trained``)."""
    if "-\n" not in text:
        return text
    counts: dict[str, int] = {}
    for w in re.findall(r"(?<![-\w])[a-z]\w*", text):
        counts[w] = counts.get(w, 0) + 1

    def join(m: re.Match) -> str:
        before, after = m.group(1), m.group(2)
        keep = "-" in before or before.lower() in _COMPOUND_PREFIXES or counts.get(after, 0) > 1
        return f"{before}-{after}" if keep else f"{before}{after}"

    return _HYPHEN_BREAK.sub(join, text)


def pages(lines: list[str]) -> list[tuple[int, list[str]]]:
    """``lines`` cut at form feeds and separator lines: ``(index of the first line, lines)`` per page."""
    out, start, cur = [], 0, []
    for i, line in enumerate(lines):
        if "\x0c" in line:
            before, _, after = line.partition("\x0c")
            if before.strip():
                cur.append(before)
            out.append((start, cur))
            start, cur = i, ([after] if after.strip() else [])
        elif is_separator_line(line):
            out.append((start, cur))
            start, cur = i + 1, []
        else:
            cur.append(line)
    out.append((start, cur))
    return [(s, p) for s, p in out if any(x.strip() for x in p)]


def parse_page(page: list[str], line: int) -> Record:
    """One first page → one record (see the module docstring)."""
    hit = next(((i, m) for i, x in enumerate(page) if (m := ABSTRACT_MARKER.match(x))), None)
    if hit is None:
        return Record(
            position=line,
            line=line,
            abstract_raw="\n".join(page).strip(),
            problem="no_abstract_marker: a page without 'Abstract'",
        )
    at, marker = hit
    rest = marker["rest"]
    body = ([rest] if rest.strip() else []) + page[at + 1 :]
    end = next((i for i, x in enumerate(body) if ABSTRACT_END.match(x)), len(body))
    abstract = dehyphenate("\n".join(body[:end]).strip("\n "))
    front = [x.strip() for x in page[:at] if x.strip()]
    # authors: the author-like lines right before the first affiliation/e-mail line (else before the marker);
    # the title: every line before them (a wrapped title line may itself look like two names)
    stop = next(
        (i for i, x in enumerate(front) if i and (_EMAIL.search(x) or _AFFILIATION.search(x))), len(front)
    )
    first_author = stop
    while (
        first_author - 1 >= 1
        and looks_like_authors(front[first_author - 1])
        and (_NAME_LIST.search(front[first_author - 1]) or first_author == stop)
    ):
        first_author -= 1
    if first_author == stop:  # no author line right before: the first author-like line after the first line
        first_author = next((i for i in range(1, stop) if looks_like_authors(front[i])), stop)
        stop = first_author + 1 if first_author < stop else stop
    title_lines = front[:first_author]
    authors = [a for x in front[first_author:stop] for a in split_authors(x)]
    title = " ".join(" ".join(title_lines).split()) or None
    return Record(position=line, line=line, abstract_raw=abstract, title=title, authors=authors)


def read(text: str) -> tuple[str | None, list[Record]]:
    """Read a PDF first-page dump; returns ``(None, records)``, ``position`` = ``line`` = the page's first
    line."""
    raw_lines = text.split("\n")
    lines = [x if "\x0c" in x else sanitise_line(x) for x in raw_lines]
    records = []
    for start, page in pages(lines):
        first = start + next((i for i, x in enumerate(page) if x.strip()), 0)
        rec = parse_page([sanitise_line(x) for x in page], first + 1)
        rec.problem = rec.problem or control_problem("\n".join(raw_lines[start : start + len(page)]))
        records.append(rec)
    return None, records
