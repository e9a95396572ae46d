"""CSV and TSV files with a header row (the stdlib ``csv`` module does the quoting: commas, quotes and
newlines inside quoted fields). The delimiter is the one of ``,`` ``\\t`` ``;`` ``|`` that splits the header
row into the most fields; the abstract column is found by name (pipeline.ingest.readers.fields), or named by a
settings file.

One record per data row; ``position`` is the 1-based data row (the header row not counted), ``line`` the file
line where the row starts. A row with more or fewer fields than the header is that row's problem.
"""

from __future__ import annotations

import csv
import io

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
    reader = csv.reader(io.StringIO("\n".join(lines[first:])), delimiter=delimiter)
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
    prev_end = reader.line_num
    row_no = 0
    for row in reader:
        start = prev_end + 1
        prev_end = reader.line_num
        if not any(cell.strip() for cell in row):
            continue
        row_no += 1
        obj = dict(zip(header, row))
        rec = record_from_fields(obj, mapping, row_no, first + start)
        if len(row) != len(header) and rec.problem is None:
            rec.problem = f"malformed_row: {len(row)} fields, the header has {len(header)}"
        records.append(rec)
    return None, records
