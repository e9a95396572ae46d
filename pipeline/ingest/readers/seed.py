"""The seed text shape: an optional header line ``<VENUE> <YEAR> <words>``, then one abstract per paragraph.

A paragraph is a run of non-blank lines; paragraphs are separated by one or more blank lines; a paragraph may
be hard-wrapped (its lines are kept joined by ``\\n``; cleaning joins them with a space). The first non-blank
line is the header when :func:`pipeline.ingest.readers.venues.parse_header` accepts it: it is metadata, never
a record. A later one-line paragraph that is a header naming a known venue (two listings concatenated) is kept
as a record (quarantined as ``header_repeated``) and switches venue/year for the records after it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pipeline.ingest.readers.base import Record, control_problem
from pipeline.ingest.readers.decoding import sanitise_line
from pipeline.ingest.readers.venues import canonical_venue, parse_header

NAME = "seed_text"


@dataclass(frozen=True)
class Paragraph:
    """One blank-line-separated paragraph: ``number`` (1-based, header not counted), ``line`` (1-based line
    of its first line in the file), ``text`` (its lines joined by ``\\n``, as stored in ``abstract_raw``)."""

    number: int
    line: int
    text: str


_INVISIBLE_OR_SPACE = re.compile("[\\s\u200b\u200c\u200d\u2060\ufeff\u00ad]*")


def is_blank(line: str) -> bool:
    """A line of whitespace, Unicode spaces or zero-width characters only."""
    return not line or line.isspace() or _INVISIBLE_OR_SPACE.fullmatch(line) is not None


def split_paragraphs(text: str, first_line: int = 1) -> list[Paragraph]:
    """Split decoded text (``\\n`` line ends) into paragraphs at blank (whitespace-only) lines.

    ``first_line`` is the file line number of ``text``'s first line. Paragraph numbers start at 1; each
    paragraph's text is its lines joined by ``\\n``, otherwise exactly as in the file (``abstract_raw``).
    A line of Unicode spaces only (NBSP, ideographic space, zero-width space) counts as blank.
    """
    paragraphs: list[Paragraph] = []
    current: list[str] = []
    start = 0
    for offset, line in enumerate(text.split("\n")):
        if is_blank(line):
            if current:
                paragraphs.append(Paragraph(len(paragraphs) + 1, start, "\n".join(current)))
                current = []
        else:
            if not current:
                start = first_line + offset
            current.append(line)
    if current:
        paragraphs.append(Paragraph(len(paragraphs) + 1, start, "\n".join(current)))
    return paragraphs


def read(text: str) -> tuple[str | None, list[Record]]:
    """Read decoded text of the seed shape; returns ``(header, records)``.

    ``header`` is the first non-blank line when it is a header (else ``None``); each record is one paragraph
    with ``position`` = ``line`` = its first line. A later one-line header paragraph naming a known venue sets
    ``venue_text`` for itself and every record after it (until the next one). Records holding a control
    character get it as ``problem`` (the raw line is checked before invisible characters are removed).
    """
    raw_lines = text.split("\n")
    lines = [sanitise_line(line) for line in raw_lines]
    header, body_start = None, 0
    first = next((i for i, line in enumerate(lines) if not is_blank(line)), None)
    if first is not None and parse_header(lines[first]):
        header, body_start = lines[first].strip().lstrip("\ufeff"), first + 1
    records: list[Record] = []
    current_venue = None
    for p in split_paragraphs("\n".join(lines[body_start:]), body_start + 1):
        if "\n" not in p.text and (parsed := parse_header(p.text)) and canonical_venue(parsed[0]):
            current_venue = p.text.strip()
        n_lines = p.text.count("\n") + 1
        problem = control_problem("\n".join(raw_lines[p.line - 1 : p.line - 1 + n_lines]))
        records.append(
            Record(
                position=p.line, line=p.line, abstract_raw=p.text, venue_text=current_venue, problem=problem
            )
        )
    return header, records
