"""CSV and TSV files with a header row (the stdlib ``csv`` module does the quoting: commas, quotes and
newlines inside quoted fields). The delimiter is the one of ``,`` ``\\t`` ``;`` ``|`` that splits the header
row into the most fields; the abstract column is found by name (pipeline.ingest.readers.fields), or named by a
settings file.

One record per data row; ``position`` is the 1-based data row (the header row not counted), ``line`` the file
line where the row starts. A row with more or fewer fields than the header is that row's problem; so is a row
whose quoting is broken (the strict csv parser refuses it, or its lines hold an odd number of ``"``): it is
quarantined alone with the reason and its lines, never published split at a guess, unless the row has exactly
one reading: the overflow rejoined into one free-text column gives a row whose every cell fits its column
(:func:`_repair_row`; ``Record.repair`` says so).
"""

from __future__ import annotations

import bisect
import csv
import re
from dataclasses import dataclass

from pipeline.ingest.readers.base import ReaderError, Record
from pipeline.ingest.readers.fields import map_columns, record_from_fields

NAME = "csv"
DELIMITERS = (",", "\t", ";", "|")


def header_columns(first_line: str) -> tuple[str, list[str]]:
    """``(delimiter, header names)`` for a header line: the delimiter of DELIMITERS giving the most fields."""
    best = max(
        DELIMITERS, key=lambda d: (len(next(csv.reader([first_line], delimiter=d), [])), -DELIMITERS.index(d))
    )
    return best, next(csv.reader([first_line], delimiter=best), [])


def read(text: str, name: str, columns: dict[str, str] | None = None) -> tuple[str | None, list[Record]]:
    """Read a CSV/TSV file; returns ``(None, records)``.

    Args:
        text: decoded text, ``\\n`` line ends.
        name: the file (for errors).
        columns: a settings file's field → column mapping (optional).

    Raises:
        ReaderError: no header row, or no abstract column (the message lists the header's columns).
    """
    lines = text.split("\n")
    first = next((i for i, x in enumerate(lines) if x.strip()), None)
    if first is None:
        return None, []
    delimiter, _ = header_columns(lines[first])
    feed = _Lines(lines, first)
    reader = csv.reader(feed, delimiter=delimiter, strict=True)
    header = next(reader)
    mapping = map_columns(header, columns)
    if "abstract" not in mapping:
        raise ReaderError(
            name,
            f"CSV/TSV header has no abstract column (columns: {header[:20]}); name it in a "
            f'settings file\'s [columns] abstract = "..."',
            first + 1,
        )
    data_at = feed.next_line
    rows = _parse_rows(feed, reader)
    n = len(header)
    if any(r is None or len(r) > n for _, _, r, _, _ in rows):
        good = [r for _, _, r, _, _ in rows if r is not None and len(r) == n]
        profiles = _profiles(good, header, mapping)
        if profiles is not None:
            # read again, repairing as it goes: a repaired row's end is where the next row starts
            good_starts = [b for b, _, r, _, _ in rows if r is not None and len(r) == n]

            def repair(start: int, end: int, broken: bool) -> tuple[list[str], int, int] | None:
                # a broken row may take in the lines up to the next well-formed row, never that row
                limit = end
                if broken:
                    at = bisect.bisect_left(good_starts, end)
                    limit = good_starts[at] if at < len(good_starts) else len(lines)
                return _repair_row(lines, start, end, limit, delimiter, n, profiles)

            feed = _Lines(lines, data_at)
            rows = _parse_rows(feed, csv.reader(feed, delimiter=delimiter, strict=True), repair, n)
    records: list[Record] = []
    for row_no, (start, end, row, error, column) in enumerate(rows, 1):
        if row is None:
            records.append(_broken_row(error, row_no, start, end))
            continue
        rec = record_from_fields(dict(zip(header, row)), mapping, row_no, start + 1)
        if column is not None:
            rec.repair = f"column {header[column]!r} rejoined (lines {_span(start, end)})"
            records.append(rec)
            continue
        quotes = sum(lines[i].count('"') for i in range(start, end))
        if rec.problem is None and quotes % 2:
            rec.problem = (
                f"malformed_row: unbalanced quote ({quotes} quote characters in lines {_span(start, end)})"
            )
        if len(row) != n and rec.problem is None:
            rec.problem = f"malformed_row: {len(row)} fields, the header has {n}"
        records.append(rec)
    return None, records


#: Fewest well-formed rows whose columns say what each column holds (:func:`_profiles`); with fewer, no row
#: is repaired.
MIN_PROFILE_ROWS = 5
#: A repaired row may take in at most this many lines after the ones the parser stopped at (an abstract's
#: line breaks inside a field whose quoting broke).
MAX_REPAIR_LINES = 40
_NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


@dataclass(frozen=True)
class _Profile:
    """What a column's values look like in the well-formed rows: ``empty_ok`` (some are empty), ``number``
    (all non-empty ones are numbers), ``spaceless`` (none holds whitespace: ids, links, keys), ``words``
    (the fewest and most words of a non-empty value), ``text`` (a free-text column: the title or abstract
    column, or a median of 5+ words)."""

    empty_ok: bool
    number: bool
    spaceless: bool
    words: tuple[int, int]
    text: bool

    def fits(self, value: str) -> bool:
        """``value`` could be this column's: empty only where values are empty, a number where all are,
        no whitespace where none has any, and a word count within half the fewest .. 1.5 times the most
        plus 3 (a looser value is a sign of a wrong split)."""
        if not value.strip():
            return self.empty_ok
        n = len(value.split())
        lo, hi = self.words
        return (
            (not self.number or bool(_NUMBER.fullmatch(value.strip())))
            and (not self.spaceless or n == 1)
            and lo / 2 <= n <= hi * 1.5 + 3
        )


def _profiles(good: list[list[str]], header: list[str], mapping: dict[str, str]) -> list[_Profile] | None:
    """Per column, a :class:`_Profile` from the well-formed rows ``good``; None with fewer than
    MIN_PROFILE_ROWS of them (too little evidence to tell a column's shape)."""
    if len(good) < MIN_PROFILE_ROWS:
        return None
    texts = {mapping.get("abstract"), mapping.get("title")}
    out = []
    for j, name in enumerate(header):
        values = [r[j] for r in good]
        full = [v for v in values if v.strip()]
        counts = sorted(len(v.split()) for v in full) or [0]
        out.append(
            _Profile(
                empty_ok=len(full) < len(values),
                number=bool(full) and all(_NUMBER.fullmatch(v.strip()) for v in full),
                spaceless=bool(full) and all(len(v.split()) == 1 for v in full),
                words=(counts[0], counts[-1]),
                text=name in texts or counts[len(counts) // 2] >= 5,
            )
        )
    return out


def _field(piece: str, lenient: bool) -> str | None:
    """One field's text as written between delimiters, unquoted: ``"..."`` with ``""`` for a quote (lenient:
    a lone ``"`` inside is kept as it is), or bare text without quotes or line breaks (lenient: quotes
    allowed after its first character); None when it is no field."""
    if len(piece) >= 2 and piece[0] == piece[-1] == '"':
        inner = piece[1:-1]
        if not lenient and inner.replace('""', "").count('"'):
            return None
        return inner.replace('""', '"')
    if "\n" in piece or (('"' in piece) if not lenient else piece.startswith('"')):
        return None
    return piece


def _split_with_overflow(
    text: str, delimiter: str, n: int, profiles: list[_Profile]
) -> tuple[list[str], int] | None:
    """``(cells, column)`` when exactly one text column can take the pieces of ``text`` (split at every
    delimiter) beyond ``n`` so that every cell is a field (:func:`_field`) that fits its column's profile;
    None when no column or more than one can (ambiguous)."""
    pieces = text.split(delimiter)
    extra = len(pieces) - n
    if extra < 0:
        return None
    found = []
    for c, prof in enumerate(profiles):
        if not prof.text:
            continue
        group = delimiter.join(pieces[c : c + extra + 1])
        raw = [*pieces[:c], group, *pieces[c + extra + 1 :]]
        cells = [_field(x, lenient=j == c) for j, x in enumerate(raw)]
        ok = [x for x in cells if x is not None]
        if len(ok) == n and all(p.fits(x) for p, x in zip(profiles, ok)):
            found.append((ok, c))
    return found[0] if len(found) == 1 else None


def _repair_row(
    lines: list[str],
    start: int,
    end: int,
    limit: int,
    delimiter: str,
    n: int,
    profiles: list[_Profile] | None,
) -> tuple[list[str], int, int] | None:
    """A row with more fields than the header, or one the strict parser refuses (an unescaped ``"`` inside a
    quoted field), repaired when unambiguous: ``(cells, end line, column)``.

    The row's text (its lines ``start``..``end``, or, when a quoted field broke before its end, up to
    MAX_REPAIR_LINES more but never past line ``limit``, where the next well-formed row starts: the first
    end that gives a row wins) is split at every delimiter, and the pieces beyond
    the header's ``n`` are joined back, with the delimiter, into the one text column where that gives a
    valid row (:func:`_split_with_overflow`). None when there is too little evidence (``profiles`` None)
    or no unique repair."""
    if profiles is None:
        return None
    for stop in range(end, min(limit, end + MAX_REPAIR_LINES) + 1):
        text = "\n".join(lines[start:stop]).rstrip("\r")
        if not text.strip():
            continue
        got = _split_with_overflow(text, delimiter, n, profiles)
        if got is not None:
            return got[0], stop, got[1]
    return None


_Row = tuple[int, int, "list[str] | None", "csv.Error | None", "int | None"]


def _parse_rows(feed: _Lines, reader, repair=None, n: int = 0) -> list[_Row]:
    """The data rows as ``(first line, end line, cells or None, csv error or None, repaired column or
    None)`` (0-based lines, end exclusive); blank rows left out. A row the strict parser refuses has no
    cells: when the refused quote opens the line it stopped on (a row that begins ``"Title",...`` after a
    row whose opening quote was never closed), that line is read again as the next row. With ``repair``
    (``(start, end, broken) -> (cells, end, column) | None``), a refused row or one of more than ``n`` fields
    is offered to it first; a repaired row ends where it says and the parser goes on from there. A field
    over the csv module's size limit is not a quoting problem: the error propagates and the whole file is
    quarantined."""
    rows: list[_Row] = []
    while True:
        start = feed.next_line
        try:
            row, error = next(reader), None
        except StopIteration:
            return rows
        except csv.Error as e:
            if "field larger than field limit" in str(e):
                raise
            row, error = None, e
        if repair is not None and (row is None or len(row) > n):
            fixed = repair(start, feed.next_line, row is None)
            if fixed is not None:
                feed.again(fixed[1])
                rows.append((start, fixed[1], fixed[0], None, fixed[2]))
                continue
        if row is None:
            stop = feed.next_line - 1
            if stop > start and feed.lines[stop].startswith('"'):
                feed.again(stop)
            rows.append((start, feed.next_line, None, error, None))
        elif any(cell.strip() for cell in row):
            rows.append((start, feed.next_line, row, None, None))


class _Lines:
    """The file's lines from ``first`` on, for csv.reader (each with its ``\\n`` but the last); ``next_line``
    is the 0-based index of the line it gives next; :meth:`again` gives line ``i`` once more."""

    def __init__(self, lines: list[str], first: int):
        self.lines, self.next_line = lines, first

    def __iter__(self):
        return self

    def __next__(self) -> str:
        i = self.next_line
        if i >= len(self.lines):
            raise StopIteration
        self.next_line += 1
        return self.lines[i] + ("\n" if i + 1 < len(self.lines) else "")

    def again(self, i: int) -> None:
        self.next_line = i


def _span(start: int, end: int) -> str:
    return f"{start + 1}-{end}" if end > start + 1 else str(start + 1)


def _broken_row(error: csv.Error | None, row_no: int, start: int, end: int) -> Record:
    """The record of a row the strict csv parser refuses (a quoted field whose closing quote is followed by
    text, or a quoted field still open at the end of the file) and :func:`_repair_row` cannot repair,
    quarantined alone: never split at a guess. A field over the csv module's size limit is not a quoting
    problem: the caller lets that error propagate and the whole file is quarantined."""
    return Record(
        row_no, start + 1, "", problem=f"malformed_row: broken quoting ({error}) in lines {_span(start, end)}"
    )
