"""CSV and TSV files with a header row (the stdlib ``csv`` module does the quoting: commas, quotes and
newlines inside quoted fields). The delimiter is the one of ``,`` ``\\t`` ``;`` ``|`` that splits the header
row into the most fields; the abstract column is found by name (pipeline.ingest.readers.fields), or named by a
settings file.

One record per data row; ``position`` is the 1-based data row (the header row not counted), ``line`` the file
line where the row starts. A row with more or fewer fields than the header is that row's problem; so is a row
whose quoting is broken (the strict csv parser refuses it, or its lines hold an odd number of ``"``): it is
quarantined alone with the reason and its lines, never published split at a guess.
"""

from __future__ import annotations

import csv

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
    records: list[Record] = []
    row_no = 0
    while True:
        start = feed.next_line
        try:
            row = next(reader)
        except StopIteration:
            break
        except csv.Error as e:
            row_no += 1
            records.append(_broken_row(e, row_no, start, feed))
            continue
        if not any(cell.strip() for cell in row):
            continue
        row_no += 1
        rec = record_from_fields(dict(zip(header, row)), mapping, row_no, start + 1)
        quotes = sum(lines[i].count('"') for i in range(start, feed.next_line))
        if rec.problem is None and quotes % 2:
            rec.problem = (
                f"malformed_row: unbalanced quote ({quotes} quote characters in lines {_span(start, feed)})"
            )
        if len(row) != len(header) and rec.problem is None:
            rec.problem = f"malformed_row: {len(row)} fields, the header has {len(header)}"
        records.append(rec)
    return None, records


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


def _span(start: int, feed: _Lines) -> str:
    last = feed.next_line
    return f"{start + 1}-{last}" if last > start + 1 else str(start + 1)


def _broken_row(error: csv.Error, row_no: int, start: int, feed: _Lines) -> Record:
    """The record of a row the strict csv parser refuses (a quoted field whose closing quote is followed by
    text, or a quoted field still open at the end of the file), quarantined alone: never split at a guess.
    When the refused quote opens the line it stops on (a row that begins ``"Title",...`` after a row whose
    opening quote was never closed), that line is read again as the next row. A field over the csv module's
    size limit is not a quoting problem: the error propagates and the whole file is quarantined."""
    if "field larger than field limit" in str(error):
        raise error
    where = _span(start, feed)
    stop = feed.next_line - 1
    if stop > start and feed.lines[stop].startswith('"'):
        feed.again(stop)
        where = _span(start, feed)
    return Record(row_no, start + 1, "", problem=f"malformed_row: broken quoting ({error}) in lines {where}")
