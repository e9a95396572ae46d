"""Per-listing records: one listing file read into one row per record, as a pure function over bytes.

``listing_records(data, name, settings)`` reads one file with the reader of its shape
(pipeline.ingest.readers) into one row per record (:data:`RECORD_SCHEMA`). The ``listing_records`` Dagster
asset calls it and writes the result to ``<warehouse>/_work/listing_records/<partition key>.parquet``; the
per-abstract step (pipeline.analyse.abstracts) reads those rows.
"""

from __future__ import annotations

import hashlib
from typing import TYPE_CHECKING

import polars as pl

from pipeline.ingest.readers import EmptyListing, ListingDecodeError, ListingRead, ReaderError, read_listing
from pipeline.ingest.readers.venues import UNKNOWN_VENUE, UNKNOWN_YEAR
from pipeline.ingest.settings import SettingsSource

if TYPE_CHECKING:
    from polars._typing import PolarsDataType  # the dtype union polars' own signatures use

#: Columns and dtypes of :func:`listing_records`: one row per record a reader found (pipeline.ingest.readers).
RECORD_SCHEMA: dict[str, PolarsDataType] = {
    "listing": pl.String,  # file path relative to the raw folder
    "listing_sha256": pl.String,  # sha256 of the file's bytes
    "encoding": pl.String,  # codec that decoded it (+gzip when decompressed; null when undecodable)
    "reader": pl.String,  # the reader that read it (a readers.READERS key; null when none fits)
    "reader_coverage": pl.Float64,  # share of the file the reading explains (readers.sniff); null: unread
    "reader_runner_up": pl.String,  # the best other reading, "<reader> <coverage>"; null when none applied
    "venue": pl.String,
    "year": pl.Int64,
    "paragraph": pl.Int64,  # 1-based record number in the file; 0 for a whole listing that could not be read
    "line": pl.Int64,  # 1-based line where the record starts; 0 when unknown (JSON) or unreadable
    "position": pl.Int64,  # the reader's position: line (text, JSON Lines), data row (CSV/TSV), index (JSON)
    "raw_sha256": pl.String,  # sha256 of abstract_raw (UTF-8); of the file bytes when unreadable
    "abstract_raw": pl.String,  # the record's abstract as in the file, line ends normalised
    "title": pl.String,  # the record's title when the file gives one, else null
    "authors": pl.List(pl.String),  # author names when the file gives them, else null
    "source_id": pl.String,  # the record's own id in the file (OpenReview/arXiv/papercopilot id), else null
    "source_status": pl.String,  # Oral, Poster, Reject, ... when the file says, else null
    "source_urls": pl.List(pl.String),  # code/project links the file gives outside the abstract, else null
    "decode_error": pl.String,  # why the file (paragraph 0) or this record cannot be read, else null
}

#: What each column of :data:`RECORD_SCHEMA` holds: the column descriptions the Dagster UI shows for the
#: ``listing_records`` asset.
RECORD_DESCRIPTIONS = {
    "listing": "The listing file's path relative to the raw folder.",
    "listing_sha256": "sha256 of the listing file's bytes (hex).",
    "encoding": "The codec that decoded the file ('+gzip' when it was decompressed); null when undecodable.",
    "reader": "The reader that read the file (a pipeline.ingest.readers.READERS key); null when none fits.",
    "reader_coverage": "Share (0..1) of the file's text the reader's reading explains: on lines of its "
    "records or of parts it recognises as not records (pipeline.ingest.readers.sniff); null when the file "
    "was not read.",
    "reader_runner_up": "The best other reading of the file, as '<reader> <coverage>' (e.g. "
    "'seed_text 0.41'); null when no other reader applied or the file was not read.",
    "venue": "Canonical venue of the listing (settings file, header or file name); 'unknown' when none says.",
    "year": "Year of the listing (settings file, header or file name); 0 when unknown.",
    "paragraph": "1-based record number in the file; 0 for the one row of a listing that could not be read.",
    "line": "1-based line where the record starts; 0 when unknown (JSON) or the file is unreadable.",
    "position": "The reader's position of the record: its line (text, JSON Lines), data row (CSV/TSV) or "
    "index (JSON).",
    "raw_sha256": "sha256 of abstract_raw (UTF-8, hex); of the file's bytes when the file is unreadable.",
    "abstract_raw": "The record's abstract as in the file, line ends normalised to \\n.",
    "title": "The record's title when the file gives one, else null.",
    "authors": "Author names when the file gives them (in order), else null.",
    "source_id": "The record's own id in the file (OpenReview, arXiv or papercopilot id), else null.",
    "source_status": "Decision or presentation type the file gives (Oral, Poster, Reject, ...), else null.",
    "source_urls": "Code/project links the file gives outside the abstract, as written, else null.",
    "decode_error": "Why the file (paragraph 0) or this record cannot be read, else null.",
}


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def unreadable_listing(name: str, sha256: str, why: str) -> pl.DataFrame:
    """The one row (:data:`RECORD_SCHEMA`) standing for a whole listing that cannot be read: paragraph 0,
    ``sha256`` as listing and raw digest, ``decode_error`` = ``why`` (quarantined downstream with it)."""
    row = dict(
        listing=name,
        listing_sha256=sha256,
        encoding=None,
        reader=None,
        reader_coverage=None,
        reader_runner_up=None,
        venue=UNKNOWN_VENUE,
        year=UNKNOWN_YEAR,
        paragraph=0,
        line=0,
        position=0,
        raw_sha256=sha256,
        abstract_raw="",
        title=None,
        authors=None,
        source_id=None,
        source_status=None,
        source_urls=None,
        decode_error=why,
    )
    return pl.DataFrame([row], schema=RECORD_SCHEMA)


#: Characters of an exception's message kept in a ``reader_failed`` reason (a parser may quote a whole field).
MAX_FAILURE_MESSAGE = 300


def reader_failure(error: BaseException) -> str:
    """The ``decode_error`` (quarantine reason) of a listing whose reading raised an unexpected ``error``
    (a ``RecursionError`` of a deeply nested JSON or TOML file, a ``csv.Error`` of a field over the parser's
    limit, a ``MemoryError``, a reader's own bug): ``reader_failed: <error class>: <message>`` (the class
    with its module unless built in: ``_csv.Error``), the message on
    one line and cut to :data:`MAX_FAILURE_MESSAGE` characters."""
    message = " ".join(str(error).split())
    if len(message) > MAX_FAILURE_MESSAGE:
        message = message[: MAX_FAILURE_MESSAGE - 1] + "…"
    kind = type(error).__qualname__
    module = type(error).__module__
    head = f"reader_failed: {kind if module == 'builtins' else f'{module}.{kind}'}"
    return f"{head}: {message}" if message else head


#: Longest record (characters of its ``abstract_raw``) handed to the per-abstract analysis: a longer one is
#: quarantined ``too_long`` at once, with its length, so a huge single record (a whole file in one paragraph,
#: 30 MB) is never cleaned, detected and scanned, each of which copies it. 100,000 characters is 6x the
#: longest abstract of the 58,671 of the dev corpus (16,262; 99.99 % are under 3,400) and 4x the length of
#: pipeline.analyse.quarantine.MAX_WORDS (3,500) words of average length, over which a record is
#: ``too_long`` anyway.
MAX_RECORD_CHARS = 100_000


def too_long(chars: int) -> str:
    """The ``decode_error`` (quarantine reason) of a record of ``chars`` characters, over
    :data:`MAX_RECORD_CHARS`."""
    return f"too_long: {chars} characters, over the limit of {MAX_RECORD_CHARS} for one record"


def _problem(record) -> str | None:
    """A record's ``decode_error``: the reader's problem, else ``too_long`` past :data:`MAX_RECORD_CHARS`."""
    if record.problem is None and len(record.abstract_raw) > MAX_RECORD_CHARS:
        return too_long(len(record.abstract_raw))
    return record.problem


def listing_records(
    data: bytes, name: str, settings: list[SettingsSource] | None = None
) -> tuple[pl.DataFrame, list[str]]:
    """Read one listing file into one row per record (pipeline.ingest.readers.read_listing).

    Args:
        data: the file's bytes; name: its path relative to the raw folder; settings: the settings files that
            apply to it (pipeline.ingest.settings.find_settings), ``(path, bytes)`` farthest first.

    Returns ``(frame, warnings)``: the frame has :data:`RECORD_SCHEMA`; a header is not a row. A file that
    cannot be read (undecodable bytes, no text: ``empty_file: ...``, no reader fits, its reader fails, a bad
    settings file) gives a single
    row with ``paragraph`` 0 and ``decode_error`` set (it is quarantined whole downstream, never dropped); so
    does any other exception raised while reading it or its settings (:func:`reader_failure`): one file
    fails alone, the others are read. A
    record that alone cannot be read (a control character, a malformed row) has ``decode_error`` set and is
    quarantined alone, and so is a record over :data:`MAX_RECORD_CHARS` (:func:`too_long`, never analysed).
    ``warnings`` are messages for the run log; the first names the reader used.
    """
    file_sha = hashlib.sha256(data).hexdigest()
    try:
        got = read_listing(data, name, settings)
    except EmptyListing as e:  # its own reason, no reader advice
        why = f"{e.kind}: {e.reason}"
        return unreadable_listing(name, file_sha, why), [f"{name}: {why}; the listing is quarantined"]
    except (ListingDecodeError, ReaderError) as e:
        why = (
            f"undecodable: {e.reason} (byte offset {e.offset})"
            if isinstance(e, ListingDecodeError)
            else f"{e.kind}: {e.reason}{e.where}"
        )
        return unreadable_listing(name, file_sha, why), [str(e)]
    except Exception as e:  # any other failure of one file quarantines that file alone
        why = reader_failure(e)
        return unreadable_listing(name, file_sha, why), [f"{name}: {why}; the listing is quarantined"]
    recs = got.records
    n = len(recs)
    frame = pl.DataFrame(
        {
            "listing": [name] * n,
            "listing_sha256": [got.sha256] * n,
            "encoding": [got.encoding] * n,
            "reader": [got.reader] * n,
            "reader_coverage": [round(got.coverage, 4)] * n,
            "reader_runner_up": [runner_up(got)] * n,
            "venue": got.venues,
            "year": got.years,
            "paragraph": list(range(1, n + 1)),
            "line": [r.line for r in recs],
            "position": [r.position for r in recs],
            "raw_sha256": [_sha256(r.abstract_raw) for r in recs],
            "abstract_raw": [r.abstract_raw for r in recs],
            "title": [r.title for r in recs],
            "authors": [r.authors or None for r in recs],
            "source_id": [r.source_id for r in recs],
            "source_status": [r.source_status for r in recs],
            "source_urls": [r.source_urls or None for r in recs],
            "decode_error": [_problem(r) for r in recs],
        },
        schema=RECORD_SCHEMA,
    )
    return frame, [reading_note(got, frame["decode_error"].count()), *got.warnings]


#: At most this many venue/year pairs are named in a reading's note (the rest are counted).
MAX_VENUES_SHOWN = 4


def reading_note(got: ListingRead, problems: int | None = None) -> str:
    """One line saying how a listing was read: reader, codec, coverage, runner-up, records (and how many the
    reader itself found unreadable), venue/year and where they came from. E.g. ``a.txt: read by seed_text
    (utf-8), explaining 1.00 of the file (runner-up separated_text 0.12): 38 records; venue/year ICML 2026
    (venue: the header; year: the header)``. ``problems``: the records quarantined alone by the
    reading (default: those the reader found unreadable; listing_records also counts those over
    MAX_RECORD_CHARS)."""
    n = len(got.records)
    if problems is None:
        problems = sum(r.problem is not None for r in got.records)
    second = runner_up(got)
    pairs: dict[tuple[str, int], int] = {}
    for v, y in zip(got.venues, got.years):
        pairs[(v, y)] = pairs.get((v, y), 0) + 1
    if len(pairs) <= 1:
        said = f"{got.venue} {got.year}"
    else:
        ranked = sorted(pairs.items(), key=lambda kv: (-kv[1], kv[0]))
        said = ", ".join(f"{v} {y} ({k})" for (v, y), k in ranked[:MAX_VENUES_SHOWN])
        said += f" and {len(ranked) - MAX_VENUES_SHOWN} more" if len(ranked) > MAX_VENUES_SHOWN else ""
    src = got.venue_sources
    where = "; ".join(
        f"{what}: {src[what]}" if what in src else f"{what}: nothing says" for what in ("venue", "year")
    ) + (f"; records: {src['records']}" if "records" in src else "")
    return (
        f"{got.name}: read by {got.reader} ({got.encoding}), explaining {got.coverage:.2f} of the file"
        + (f" (runner-up {second})" if second else "")
        + f": {n} records"
        + (f", {problems} of them unreadable alone (quarantined)" if problems else "")
        + f"; venue/year {said} ({where})"
    )


def runner_up(got: ListingRead) -> str | None:
    """``"<reader> <coverage>"`` of the best other reading of a listing (``seed_text 0.41``), else None."""
    if got.runner_up is None or got.runner_up_coverage is None:
        return None
    return f"{got.runner_up} {got.runner_up_coverage:.2f}"
