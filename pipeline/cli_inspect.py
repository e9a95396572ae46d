"""How each listing was read: the run's one line per new or changed listing, and ``python -m pipeline inspect
FILE...``, which reads files the way the run does and writes nothing.

``inspect`` prints per file: the reader and its coverage, the runner-up and every candidate, the records,
venue/year and where each came from, the first records (title, first words of the abstract) and what would
be quarantined and why (the per-listing quarantine rules, pipeline.analyse; a duplicate of another listing's
paper is found only by a run). A file inside the raw folder is named and governed by settings files as the
run names and governs it (pipeline.ingest.settings); a file elsewhere by the settings files of its own folder.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

#: Records shown per file by ``inspect``, and the words of each abstract shown.
SHOWN_RECORDS = 3
SHOWN_WORDS = 12


def quarantined_by_reason(frame) -> dict[str, int]:
    """Reason (the part of ``quarantine_reason`` before ``:``) → rows, of an abstracts frame
    (pipeline.analyse.abstracts.ABSTRACT_SCHEMA)."""
    out: dict[str, int] = {}
    for reason in frame["quarantine_reason"].drop_nulls().to_list():
        key = reason.split(":", 1)[0]
        out[key] = out.get(key, 0) + 1
    return out


def print_listing_lines(keys: list[str]) -> None:
    """The run's line per listing of ``keys`` (partition keys just processed), from their work files
    (pipeline.ingest.listings.run_line), in key order."""
    import polars as pl

    from pipeline.defs.io import work_file, work_info
    from pipeline.ingest.listings import run_line

    for key in sorted(keys):
        info = work_info("listing_records", key)
        path = work_file("abstracts", key)
        quarantined = {}
        if path.exists():
            quarantined = quarantined_by_reason(pl.read_parquet(path, columns=["quarantine_reason"]))
        print(run_line(info, quarantined))


def _name_and_settings(path: Path, raw: Path):
    from pipeline.ingest.settings import find_settings

    try:
        rel = path.resolve().relative_to(raw.resolve())
        return rel.as_posix(), find_settings(raw, rel.as_posix())
    except ValueError:
        return path.name, find_settings(path.parent, path.name)


def inspect_file(path: Path, raw: Path) -> list[str]:
    """The lines ``inspect`` prints for one file (module docstring). Writes nothing."""
    from pipeline.analyse.abstracts import abstract_rows
    from pipeline.ingest import records as ingest_records
    from pipeline.ingest.listings import run_line

    name, settings = _name_and_settings(path, raw)
    try:
        data = path.read_bytes()
    except OSError as e:
        return [f"{path}: cannot be read: {e.strerror or e}"]
    frame, messages = ingest_records.listing_records(data, name, settings)
    rows = abstract_rows(frame)
    unread = frame.height > 0 and frame["reader"][0] is None  # one row standing for the whole file
    warnings = messages if unread else messages[1:]
    info = {
        "listing": name,
        "read_note": messages[0] if messages else "",
        "warnings": warnings,
        "warning_count": len(warnings),
    }
    out = [run_line(info, quarantined_by_reason(rows))]
    out += [f"  warning: {w}" for w in warnings[1:]]
    shown = rows.filter(rows["quarantine_reason"].is_null()).head(SHOWN_RECORDS)
    for r in shown.iter_rows(named=True):
        words = " ".join((r["abstract"] or "").split()[:SHOWN_WORDS])
        out.append(
            f"  record {r['paragraph']} (line {r['line']}): {r['title'] or '(no title)'!s} | {words} …"
        )
    bad = rows.filter(rows["quarantine_reason"].is_not_null())
    for r in bad.iter_rows(named=True):
        out.append(f"  quarantined: record {r['paragraph']} (line {r['line']}): {r['quarantine_reason']}")
    return out


def inspect(files: list[str]) -> int:
    """``python -m pipeline inspect FILE...``: the lines of :func:`inspect_file` per file; exit status 0, or
    2 when a file does not exist (the others are still inspected)."""
    from pipeline.runtime import config

    raw = config.raw_dir()
    status = 0
    for f in files:
        path = Path(f)
        if not path.is_file():
            print(f"error: {f}: no such file", file=sys.stderr)
            status = 2
            continue
        for line in inspect_file(path, raw):
            print(line)
    return status


def add_parser(sub: argparse._SubParsersAction) -> None:
    """The ``inspect`` subcommand."""
    p = sub.add_parser(
        "inspect",
        help="read listing files as the run would and say how (reader, coverage, records, venue/year, "
        "quarantine); writes nothing",
    )
    p.add_argument("files", nargs="+", metavar="FILE", help="listing files (inside the raw folder or not)")
