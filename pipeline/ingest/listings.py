"""Listing files by name: the partition key of a listing path (reversible, filesystem- and Dagster-safe),
its display name, ranges of consecutive keys, and one listing read into its records.

Nothing here needs Dagster: the ``listings`` dynamic partitions (pipeline.defs.partitions) and the command
line (pipeline.cli) both use these.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, unquote_to_bytes

import polars as pl

from pipeline.ingest import rawfiles
from pipeline.ingest import records as ingest_records
from pipeline.ingest.deadline import BudgetExceeded, deadline
from pipeline.ingest.settings import find_settings, listing_digest
from pipeline.runtime import config


def partition_key(listing: str) -> str:
    """Filesystem- and Dagster-safe partition key of a listing path relative to the raw folder.

    Percent-encodes the path's bytes as the operating system names them (``os.fsencode``: a non-UTF-8 name
    works too) except ASCII letters, digits, ``-``, ``_``, ``.`` and ``~``, so ``/``, spaces, ``|`` (Dagster's
    multi-partition separator), ``,``, control characters and non-ASCII are encoded; ``..`` (part of
    Dagster's range separator ``...``) becomes ``.%2E``. Reversible with :func:`listing_path`. Keys of long
    names are long (up to 3 characters per byte); work-file names are bounded separately
    (pipeline.defs.io.work_file).
    """
    key = quote(os.fsencode(listing), safe="-_.")
    while ".." in key:
        key = key.replace("..", ".%2E")
    return key


def listing_path(key: str) -> str:
    """The listing path (relative to the raw folder, as the OS names it) of a partition key."""
    return os.fsdecode(unquote_to_bytes(key))


def listing_name(key: str) -> str:
    """The listing's name as shown and stored (the ``listing`` column): its path relative to the raw folder,
    valid UTF-8 (undecodable bytes of a non-UTF-8 name as ``\\xNN``,
    pipeline.ingest.rawfiles.display_name)."""
    return rawfiles.display_name(listing_path(key))


def contiguous_ranges(ordered: list[str], wanted: list[str]) -> list[tuple[str, str]]:
    """Cover ``wanted`` keys with as few ``(first, last)`` ranges of consecutive keys of ``ordered``."""
    want = set(wanted)
    ranges: list[tuple[str, str]] = []
    start: str | None = None
    prev = ""
    for key in ordered:
        if key in want:
            start = key if start is None else start
            prev = key
        elif start is not None:
            ranges.append((start, prev))
            start = None
    if start is not None:
        ranges.append((start, prev))
    return ranges


#: Warnings of a listing kept in its work file's sidecar for the run's line (all go to the log).
MAX_WARNINGS_KEPT = 3


#: A warning about one listing: "<listing file name>: <text>" (a name ending in an extension, no line break).
_LISTING_WARNING = re.compile(r"(?P<name>[^\n:]*?\.\w{1,8}): (?P<text>.+)", re.S)


def group_warnings(messages: list[str], shown: int = 3) -> list[str]:
    """``messages`` with the warnings that say the same of several listings as one line each.

    A warning about one listing reads ``"<listing>: <text>"`` (pipeline.ingest.readers). The same ``<text>``
    for several listings (30 per-paper files of one folder, each "no header line; venue 'COLT' and year 2022
    taken from the path (colt2022)") becomes ``"30 listings: <text> (a.md, b.md, c.md, …)"`` with the first
    ``shown`` names, at the place of the first. Any other message, and a text said of one listing only, stays
    as it is; an exact repeat of such a message is printed once. Order: first appearance."""
    groups: dict[str, list[str]] = {}
    first: dict[str, str] = {}
    for m in messages:
        hit = _LISTING_WARNING.fullmatch(m)
        key = hit.group("text") if hit else "\0" + m
        groups.setdefault(key, [])
        first.setdefault(key, m)
        if hit and hit.group("name") not in groups[key]:
            groups[key].append(hit.group("name"))
    out = []
    for key, names in groups.items():
        if len(names) < 2:
            out.append(first[key])
            continue
        more = ", …" if len(names) > shown else ""
        out.append(f"{len(names)} listings: {key} ({', '.join(names[:shown])}{more})")
    return out


def run_line(info: dict, quarantined: dict[str, int]) -> str:
    """The run's one line for a new or changed listing: its work sidecar's ``read_note`` (reader, coverage,
    runner-up, records, venue/year and where they came from: pipeline.ingest.records.reading_note),
    ``quarantined`` (reason → count of its rows quarantined) and its first warning with the count, without
    the listing's name the line starts with. E.g. ``listing a.txt: read by seed_text (utf-8), explaining 1.00
    ...; 2 quarantined (empty 1, too_short 1); WARNING (1): no header line; ...``."""
    note = info.get("read_note") or f"{info.get('listing', '?')}: refused or unreadable"
    n = sum(quarantined.values())
    why = ", ".join(f"{r} {k}" for r, k in sorted(quarantined.items(), key=lambda kv: (-kv[1], kv[0])))
    line = f"listing {note}; {n} quarantined" + (f" ({why})" if n else "")
    warnings = [w for w in info.get("warnings") or [] if w != note]  # an unreadable file's note is its error
    count = info.get("warning_count", 0) - (len(info.get("warnings") or []) - len(warnings))
    if count > 0 and warnings:
        first = str(warnings[0])
        own = f"{info.get('listing')}: "
        first = first[len(own) :] if first.startswith(own) else first  # the line names the listing already
        line += f"; WARNING ({count}): {' '.join(first.split())}"
    return line


@dataclass(frozen=True)
class ListingRead:
    """One listing file read: ``frame`` its records (pipeline.ingest.records.RECORD_SCHEMA), ``info`` its
    work-file sidecar (``listing``, ``listing_sha256``, ``paragraphs``), ``notes`` messages for the log
    (info level) and ``warnings`` the reader's warnings."""

    frame: pl.DataFrame
    info: dict
    notes: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def read_listing(raw_dir: Path, path: str) -> ListingRead:
    """The records of the listing ``path`` (relative to ``raw_dir``): decoded and split by
    pipeline.ingest.records.listing_records with the settings files that govern it
    (pipeline.ingest.settings). An entry pipeline.ingest.rawfiles refuses (a link out of the raw folder, a
    FIFO, a device...: never opened; a file over rawfiles.max_listing_bytes(): ``too_large``, never read)
    becomes one row with paragraph 0 and the reason, and its digest the refusal's
    (rawfiles.refusal_sha256). So does a listing whose reading (its settings files included) takes longer
    than the per-file budget, pipeline.runtime.config.read_budget_seconds: it is interrupted
    (pipeline.ingest.deadline) and quarantined ``too_slow`` with the budget (:func:`too_slow`). For a
    readable listing the reader's first message names the reader: it is a note, the others warnings. Raises
    nothing for a bad entry."""
    name = rawfiles.display_name(path)
    data, refused = rawfiles.read(raw_dir, path, max_bytes=rawfiles.max_listing_bytes())
    if refused is not None:
        frame = rawfiles.refused_records(name, refused)
        info = {
            "listing": name,
            "paragraphs": frame.height,
            "listing_sha256": rawfiles.refusal_sha256(refused),
        }
        return ListingRead(frame, info, notes=[f"listing {name!r} refused, quarantined: {refused}"])
    assert data is not None  # rawfiles.read gives the bytes whenever it refuses nothing
    budget = config.read_budget_seconds()
    try:
        with deadline(budget):
            frame, messages = ingest_records.listing_records(data, name, find_settings(raw_dir, path))
    except BudgetExceeded:
        why = too_slow(budget)
        frame = ingest_records.unreadable_listing(name, hashlib.sha256(data).hexdigest(), why)
        messages = [f"{name}: {why}; the listing is quarantined"]
    readable = frame.height > 0 and frame["reader"][0] is not None
    notes, warnings = (messages[:1], messages[1:]) if readable else ([], list(messages))
    info = {
        "listing": name,
        "listing_sha256": listing_digest(raw_dir, path, data),
        "paragraphs": frame.height,
        # how it was read, for the run's one line per listing (pipeline.cli): the reader's note, or why
        # nothing could read it, and its warnings
        "read_note": messages[0] if messages else "",
        "warnings": warnings[:MAX_WARNINGS_KEPT],
        "warning_count": len(warnings),
    }
    return ListingRead(frame, info, notes, warnings)


def too_slow(seconds: float) -> str:
    """The quarantine reason of a listing whose reading took longer than the per-file budget of ``seconds``
    (pipeline.runtime.config.read_budget_seconds). Names the budget, not the time taken, so that the reason
    (and the release) does not depend on how busy the machine was beyond crossing it."""
    return (
        f"too_slow: reading took longer than the per-file budget of {seconds:g} s "
        "(PIPELINE_READ_BUDGET_SECONDS); reading stopped"
    )


#: The ``listing_lineage`` columns :func:`quarantined_whole` reads.
LINEAGE_WHOLE = ("listing", "paragraph", "status", "reason")


def quarantined_whole(lineage: pl.DataFrame | None) -> list[tuple[str, str]]:
    """``(listing, reason)`` of every listing quarantined whole in a ``listing_lineage`` table (at least
    the columns :data:`LINEAGE_WHOLE`; None: no table, []): its one row with ``paragraph`` 0 (refused by
    the raw folder's rules, undecodable, empty, no reader fits, its reader failed, too large or too slow),
    sorted by listing. Records quarantined one by one (too short, a malformed row, ...) are not listed: the
    rest of their file is published."""
    if lineage is None:
        return []
    rows = lineage.filter((pl.col("paragraph") == 0) & (pl.col("status") == "quarantined"))
    return sorted((str(n), str(r)) for n, r in rows.select("listing", "reason").iter_rows())
