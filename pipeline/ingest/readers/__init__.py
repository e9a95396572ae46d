"""Reading listing files of every common shape into records: sniff the content, run one reader, resolve
venue/year.

:func:`read_listing` is the one entry point: bytes (gzip-compressed or not) → :class:`ListingRead`, one
:class:`~pipeline.ingest.readers.base.Record` per paper. Modules, one per concern:

==================
============================================================================================
``decoding``        bytes → text (BOMs, strict UTF-8, detected codecs, damaged UTF-8, line ends)
``sniff``           which reader reads the text: the reading that explains most of it (the registry)
``coverage``        how much of a file one reading explains
``seed``            header line + one abstract per blank-line paragraph
``separated``       records between lines of ``*``/``=``/``-`` (title, authors, abstract)
``pdf_page``        PDF first-page dumps (``Abstract.`` ... ``Keywords``)
``table``           CSV/TSV with a header row
``json_records``    JSON (array, ``{"papers": [...]}``, objects keyed by id) and JSON Lines
``markdown``        markdown schedules (``### Title``, ``**Authors:**``, ``<details>``) and markdown tables
``bibtex``          BibTeX entries with ``abstract``
``feed``            Atom/RSS feeds (arXiv API), one record per entry
``xml_records``     other XML documents of paper records (ACL Anthology volumes), one record per element
``yaml_records``    per-paper posts with YAML front matter (one record per file) and YAML paper lists
``fields``          which column/key holds what (names as data)
``settings``        per-folder / per-file settings files
``venues``          venue/year from settings, header, records, path; aliases
==================
============================================================================================

Pure functions; no Dagster.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import hashlib
import re
import zlib
from dataclasses import dataclass, field

from pipeline.ingest.rawfiles import max_listing_bytes
from pipeline.ingest.readers import bibtex, seed, sniff, xml_records
from pipeline.ingest.readers.base import EmptyListing, ReaderError, Record
from pipeline.ingest.readers.decoding import ListingDecodeError, decode_listing
from pipeline.ingest.readers.venues import (
    UNKNOWN_VENUE,
    UNKNOWN_YEAR,
    acronym_venue,
    canonical_venue,
    parse_header,
    plausible_year,
    venue_year_from_path,
    venue_year_of_text,
)
from pipeline.ingest.settings import Settings, SettingsError, SettingsSource, parse_settings

RULES_VERSION = "9"  # all of readers/ but decoding; bump when outputs change (docs/execution.md)

#: Reader name → function ``(text, name, columns) -> (header, records)``, in the sniffer's tie order
#: (pipeline.ingest.readers.sniff.REGISTRY: a new reader is registered there).
READERS = {spec.name: spec.read for spec in sniff.REGISTRY}
_UNICODE_CODECS = ("utf-8", "utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be", "gb18030")


@dataclass
class ListingRead:
    """One listing file read.

    ``name``: path relative to the raw folder; ``sha256``: of the file's bytes as stored; ``encoding``: the
    codec (``+gzip`` when decompressed); ``reader``: the reader used (a :data:`READERS` key); ``header``: the
    header line, if any; ``venue``/``year``: the file-level resolution (see pipeline.ingest.readers.venues);
    ``records`` with per-record ``venues``/``years`` (equal to the file's unless a record or a later header
                says otherwise);
    ``warnings``: notes for the run log; ``coverage``: the share of the file the reading explains (0..1,
    pipeline.ingest.readers.sniff), ``runner_up``/``runner_up_coverage``: the best other reading (None
    when no other reader applied), ``unexplained``: 1-based line ranges the reading does not explain;
    ``venue_sources``: where the file-level venue and year came from (keys ``venue``, ``year``; ``records``
    when some records' own venue/year differ; a key is missing when nothing said it).
    """

    name: str
    sha256: str
    encoding: str
    reader: str
    header: str | None
    venue: str
    year: int
    records: list[Record]
    venues: list[str] = field(default_factory=list)
    years: list[int] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    coverage: float = 1.0
    venue_sources: dict[str, str] = field(default_factory=dict)
    runner_up: str | None = None
    runner_up_coverage: float | None = None
    unexplained: list[tuple[int, int]] = field(default_factory=list)


def _never(text: str, lines: list[str], low_name: str) -> bool:
    return False


def gunzip(data: bytes, name: str, max_bytes: int | None = None) -> bytes:
    """Decompressed bytes of a gzip file (several members allowed), decompressed as a stream that stops
    once it has given ``max_bytes`` + 1 bytes (default: the size every listing is held to,
    pipeline.ingest.rawfiles.max_listing_bytes), so a gzip bomb never costs more than that.

    Raises:
        ListingDecodeError: a corrupt or truncated gzip stream, or more than ``max_bytes`` decompressed
            (``too_large: gzip: ...``).
    """
    cap = max_listing_bytes() if max_bytes is None else max_bytes
    try:
        d = zlib.decompressobj(wbits=31)
        out = bytearray()
        rest = data
        while rest:
            out += d.decompress(rest, cap + 1 - len(out))
            if len(out) > cap:
                raise ListingDecodeError(name, -1, f"too_large: gzip: more than {cap} bytes decompressed")
            if d.unconsumed_tail:
                continue
            if not d.eof:
                raise ListingDecodeError(name, len(data), "gzip: truncated stream")
            rest = d.unused_data
            if not rest.strip(b"\0"):
                break
            d = zlib.decompressobj(wbits=31)
        return bytes(out)
    except zlib.error as e:
        raise ListingDecodeError(name, 0, f"gzip: corrupt stream: {e}") from None


def read_listing(
    data: bytes,
    name: str,
    settings: Settings | list[SettingsSource] | None = None,
    today: _dt.date | None = None,
    stray_nul_ok: bool = True,
) -> ListingRead:
    """Read one listing file into records.

    Args:
        data: the file's bytes (``.gz`` content is recognised by its magic bytes and decompressed).
        name: the file's path relative to the raw folder (POSIX); used in errors and for venue/year.
        settings: :class:`Settings`, or the settings files' ``(path, bytes)`` (pipeline.ingest.settings).
        today: the date bounding plausible years (next year at most); defaults to today.
        stray_nul_ok: a few NUL characters in a UTF-8 file are the problem of the records holding them
            (True, the pipeline) or reject the file (False: the strict seed-shape behaviour).

    Returns:
        a :class:`ListingRead`; records a reader repaired (``Record.repair``) get one warning for the file.
        Venue/year per record: settings, else the record's own text or the header
        above it, else the file's header, else the path (file name, then folders), else ``unknown``/``0``
        with a warning; an unknown venue token or an implausible year also warns.

    Raises:
        ListingDecodeError: undecodable bytes (or a corrupt gzip stream).
        ReaderError: no text (:class:`EmptyListing`, :func:`empty_reason`), no reader fits, the chosen reader
            cannot read the file (no abstract column, invalid JSON), no reading explains enough of it
            (``unexplained``: pipeline.ingest.readers.sniff), or a bad settings file.
    """
    sha = hashlib.sha256(data).hexdigest()
    try:
        conf = settings if isinstance(settings, Settings) else parse_settings(settings or [], tuple(READERS))
    except SettingsError as e:
        raise ReaderError(name, str(e)) from None
    gz = data[:2] == b"\x1f\x8b"
    body = gunzip(data, name) if gz else data
    text, codec = decode_listing(body, name, conf.encoding, stray_nul_ok=stray_nul_ok)
    _refuse_empty(name, text, len(body), gz)
    warnings: list[str] = []
    if codec not in _UNICODE_CODECS and not conf.encoding:
        warnings.append(f"{name}: not UTF-8; decoded as {codec} (detected by charset-normalizer)")
    inner = name[:-3] if gz and name.lower().endswith(".gz") else name
    forced = None
    if conf.reader is not None:  # READERS' function: the registry's unless replaced (tests do)
        spec = sniff.SPECS.get(conf.reader) or sniff.ReaderSpec(conf.reader, READERS[conf.reader], _never)
        forced = dataclasses.replace(spec, read=READERS[conf.reader])
    got = sniff.read_best(text, name, conf.columns, forced=forced, shape_name=inner)
    reader, header, records = got.reader, got.header, got.records
    if (low := sniff.unexplained_warning(got, name)) is not None:
        warnings.append(low)
    sources: dict[str, str] = {}
    said = _header_source(reader, header)
    venue, year, venues, years = _resolve(name, header, records, conf, warnings, today, sources, said)
    if any(v != venue for v in venues) or any(y != year for y in years):
        sources["records"] = "some records say otherwise"
    if (note := _repaired_note(name, records)) is not None:
        warnings.append(note)
    if not records:
        warnings.append(
            f"{name}: no abstracts ({'only a header line' if header else 'no records'}); "
            "nothing from this listing is published"
        )
    return ListingRead(
        name,
        sha,
        codec + ("+gzip" if gz else ""),
        reader,
        header,
        venue,
        year,
        records,
        venues,
        years,
        warnings,
        got.coverage,
        sources,
        got.runner_up,
        got.runner_up_coverage,
        got.unexplained,
    )


def _refuse_empty(name: str, text: str, size: int, gz: bool) -> None:
    """Raise :class:`EmptyListing` for a listing without text (:func:`empty_reason`)."""
    if (why := empty_reason(text, size, gz)) is not None:
        raise EmptyListing(name, why)


def empty_reason(text: str, size: int, gz: bool = False) -> str | None:
    """Why a listing whose decoded ``text`` comes from ``size`` bytes (decompressed when ``gz``) holds no
    text, else None: ``the file has 0 bytes``, or ``only whitespace or invisible characters (N bytes), no
    text`` when every line is blank (pipeline.ingest.readers.seed.is_blank: Unicode spaces, zero-width
    characters; a byte order mark is gone after decoding)."""
    after = " after gzip decompression" if gz else ""
    if size == 0:
        return f"the file has 0 bytes{after}"
    if all(seed.is_blank(line) for line in text.split("\n")):
        return f"only whitespace or invisible characters ({size} bytes{after}), no text"
    return None


@dataclass(frozen=True)
class Listing:
    """A seed-shape listing (:func:`parse_listing`): ``name``, ``sha256`` (of the bytes), ``encoding``,
    ``venue``/``year`` (file level), ``header`` (or ``None``), ``paragraphs`` (seed.Paragraph),
    ``warnings``."""

    name: str
    sha256: str
    encoding: str
    venue: str
    year: int
    header: str | None
    paragraphs: list[seed.Paragraph]
    warnings: list[str] = field(default_factory=list)


def parse_listing(
    data: bytes, name: str, today: _dt.date | None = None, encoding: str | None = None
) -> Listing:
    """Read ``data`` strictly as the seed shape (header + paragraphs): :func:`read_listing` with the seed
    reader and NUL characters rejecting the file.

    Raises:
        ListingDecodeError: undecodable bytes or a NUL character (see decoding.decode_listing).
        EmptyListing: no text (:func:`empty_reason`).
    """
    conf = Settings(reader=seed.NAME, encoding=encoding)
    got = read_listing(data, name, conf, today, stray_nul_ok=False)
    paragraphs = [seed.Paragraph(i, r.line, r.abstract_raw) for i, r in enumerate(got.records, 1)]
    return Listing(name, got.sha256, got.encoding, got.venue, got.year, got.header, paragraphs, got.warnings)


def _canonical(token: str | None, name: str, where: str, warnings: list[str]) -> str | None:
    """The venue ``token`` (from ``where``) publishes under: its canonical spelling, or an acronym outside
    the table as written (readers.venues.acronym_venue, with a warning), else ``None`` with a warning."""
    if token is None:
        return None
    venue = acronym_venue(token)
    if venue is None:
        warnings.append(
            f"{name}: unknown venue {token!r} in {where} (not in readers.venues.KNOWN_VENUES); "
            f"venue={UNKNOWN_VENUE!r}"
        )
    else:
        _note_outside_table(venue, name, where, warnings)
    return venue


def _note_outside_table(venue: str | None, name: str, where: str, warnings: list[str]) -> None:
    if venue is not None and canonical_venue(venue) is None:
        note = (
            f"{name}: venue {venue!r} ({where}) is not in readers.venues.KNOWN_VENUES; published as written"
        )
        if note not in warnings:
            warnings.append(note)


def _repaired_note(name: str, records: list[Record]) -> str | None:
    """The file's one warning for the records its reader repaired (Record.repair), else None."""
    repaired = [r.repair for r in records if r.repair]
    if not repaired:
        return None
    return (
        f"{name}: {len(repaired)} record(s) repaired, broken in the file with one reading: "
        + "; ".join(repaired[:5])
        + ("; ..." if len(repaired) > 5 else "")
    )


#: What a reader's header is, as a run names the source of a venue/year taken from it (reading_note):
#: the XML reader's header is its volume metadata (an ACL Anthology ``<volume>``'s booktitle/year, or the
#: root's collection id), the BibTeX reader's the ``@proceedings`` entry; any other reader's a header line.
HEADER_SOURCES = {xml_records.NAME: "the XML volume metadata", bibtex.NAME: "the @proceedings entry"}


def _header_source(reader: str, header: str | None) -> str:
    """How a run names ``reader``'s ``header`` as a source (:data:`HEADER_SOURCES`); an XML header built from
    the root's ACL Anthology collection id (``"... (collection 2021.eacl)"``) is named so."""
    if reader == xml_records.NAME and header and (m := re.search(r"\(collection ([^)]+)\)$", header)):
        return f"the XML collection id {m.group(1)}"
    return HEADER_SOURCES.get(reader, "the header")


def _resolve(
    name, header, records, conf: Settings, warnings, today, sources: dict[str, str], said: str = "the header"
):
    """File-level and per-record venue/year (see :func:`read_listing`); appends warnings; ``sources`` gets
    where the file's ``venue`` and ``year`` came from (``settings file ...``, ``the header``, ``the path
    (...)``)."""
    venue = year = None
    if conf.venue is not None:
        venue = _canonical(conf.venue, name, f"settings file {conf.sources[-1]}", warnings) or UNKNOWN_VENUE
        sources["venue"] = f"settings file {conf.sources[-1]}"
    if conf.year is not None:
        year = conf.year
        sources["year"] = f"settings file {conf.sources[-1]}"
    if header:
        hv, hy = venue_year_of_text(header, today)
        parsed = parse_header(header)
        if venue is None and hv is not None:
            venue = hv
            _note_outside_table(hv, name, said, warnings)
            sources["venue"] = said
        elif venue is None and parsed is not None:
            venue = _canonical(parsed[0], name, said, warnings) or UNKNOWN_VENUE
            sources["venue"] = said
        if year is None and hy is not None:
            year = hy
            sources["year"] = said
    path_venue, path_year, where = venue_year_from_path(name, today)
    taken = []
    venue_from_path = venue is None and path_venue is not None
    if venue_from_path:
        venue = path_venue
        taken.append(f"venue {path_venue!r}")
        sources["venue"] = f"the path ({where})"
    if year is None and path_year is not None:
        year = path_year
        taken.append(f"year {path_year}")
        sources["year"] = f"the path ({where})"
    if taken:
        lead = "no header line; " if not header else ""
        warnings.append(f"{name}: {lead}{' and '.join(taken)} taken from the path ({where})")
    file_venue = venue or UNKNOWN_VENUE
    file_year = year if year is not None else UNKNOWN_YEAR
    venues, years = [], []
    for r in records:
        v, y = (None, None) if conf.venue is not None else venue_year_of_text(r.venue_text, today, field=True)
        if conf.venue is None:
            _note_outside_table(v, name, "the records' venue field", warnings)
        if v is None and file_year != UNKNOWN_YEAR:
            y = None  # free text naming a year but no venue ("10 pages, 2019") does not beat the file's year
        own_year = int(r.year_text) if r.year_text and re.fullmatch(r"(?:19|20)\d\d", r.year_text) else None
        venues.append(v or file_venue)
        if conf.year is not None:
            years.append(file_year)
        else:
            years.append(y if y is not None else own_year if own_year is not None else file_year)
    if venue_from_path and (path_venue in venues or not records):
        _note_outside_table(path_venue, name, f"the path ({where})", warnings)
    n_unknown = sum(v == UNKNOWN_VENUE for v in venues)
    if venue is None and (n_unknown or not records):
        what = "" if n_unknown == len(records) else f" for {n_unknown} of {len(records)} records"
        warnings.append(
            f"{name}: no header line '<VENUE> <YEAR> ...', no settings file and no venue in the records "
            f"or the file and folder names{what}; venue={UNKNOWN_VENUE!r}, year={UNKNOWN_YEAR}; to name "
            "them, write venue = \"...\" and year = ... into '<file name>.listing.toml' beside the file or "
            "'listing.toml' in its folder"
        )
    max_year = (today or _dt.date.today()).year + 1
    bad_years = sorted({y for y in [file_year, *years] if y != UNKNOWN_YEAR and not plausible_year(y, today)})
    for y in bad_years:
        warnings.append(f"{name}: year {y} outside 1980..{max_year}; year={UNKNOWN_YEAR}")
    years = [UNKNOWN_YEAR if y in bad_years else y for y in years]
    return file_venue, (UNKNOWN_YEAR if file_year in bad_years else file_year), venues, years


__all__ = [
    "READERS",
    "EmptyListing",
    "Listing",
    "ListingDecodeError",
    "ListingRead",
    "ReaderError",
    "Record",
    "Settings",
    "gunzip",
    "parse_listing",
    "read_listing",
]
