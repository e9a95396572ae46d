"""Which reader reads a decoded listing: every reader that could apply reads it, and the reading that explains
the most of the file wins. A pattern inside one record (a quoted BibTeX entry, a ``---`` line, a heading, a
CSV line) never decides the shape of a whole file.

**Coverage** of a reading: the share of the file's text (characters of its non-blank lines, blank lines not
counted) on lines that the reading puts in a record or recognises as not a record. A record explains the lines
from its ``line`` to its ``end_line`` (pipeline.ingest.readers.base.Record; when a reader leaves ``end_line``
0, to the line before the next record, the last record to the end of the file). Also explained: separator
lines (pipeline.ingest.readers.base.is_separator_line), the line holding the reading's header, and what the
reader's ``non_records`` hook names (a CSV header row, a markdown table's header and rule rows). Never
explained:

- a record whose abstract holds more than MAX_RECORD_WORDS words (the bound of the ``too_long`` quarantine
  rule, pipeline.analyse.quarantine.MAX_WORDS): one giant record is a reading that failed, not a record;
- for a *prose* reader (the seed shape, separated text, PDF pages), a record of two or more non-blank lines
  more than half of which are markup of another shape (:data:`MARKUP_LINE`: a BibTeX ``@type{`` or
  ``field = {`` line, a YAML/JSON ``key: value`` line, a markdown table row, an XML element on its line).
  Such a record of the winning reading is quarantined alone (``foreign_markup``), never published;
- a record the reader itself calls malformed (``problem`` ``malformed_row``/``malformed_record``: a CSV row
  whose fields do not fit the header, a JSON Lines line that is not an object);
- for a prose reader, a record spanning more than MAX_RECORD_PARAGRAPHS blank-line paragraphs: several
  records glued together (a quoted label or heading that opened a record, every paragraph after it in it);
- for a *document* reader (JSON, XML, feeds, YAML paper lists: the whole text parses or the reader raises),
  coverage is 1.0 when it gives a record, else 0.0; a text that parses as JSON, or is JSON Lines, is never
  read as YAML. A per-paper file of YAML front matter is not a document: its one record spans the front
  matter (and the body when that is the abstract), so a ``---`` block inside a dump explains only itself,
  and a page whose front matter is not one paper (a listing page) is refused by that reader.

**Choice** (:func:`read_best`): the candidates are the readers whose cheap ``applies`` test holds (most
readers need a sign of their shape, see each :data:`REGISTRY` entry); a document reader that applies is the
only candidate (JSON, XML and feeds come first in the order and explain all or raise). Candidates are read
in REGISTRY order (specific shapes first, the seed shape last): the first reads the whole file, the others a
bounded sample (the first SAMPLE_CHARS characters, cut at the last blank line, else line end, before it: the
file whole when shorter); a reader that raises is out. The winner is the first candidate whose coverage is at
least the best coverage minus MARGIN, so reading stops once a candidate explains ``1 - MARGIN`` of the file
(no later one could win); the runner-up is the best of the other candidates read. A winner read on the
sample then reads the whole file; its coverage over the whole file is what the lineage records.

**Thresholds**: a best reading explaining less than WARN_COVERAGE of the file gets a warning naming the
unexplained line ranges; one explaining less than MIN_COVERAGE (malformed and over-long records counted:
they are quarantined alone) is no reading: the file is quarantined with the reason ``unexplained``
(pipeline.ingest.records: one row, never the reason a run fails). A settings file that names a reader skips
the choice (its coverage is still measured and warned about).

**Adding a reader**: write ``read(text, name, columns) -> (header, records)`` (raise ReaderError when the
file is not of its shape), set each record's ``line`` (and ``end_line`` when a record can be followed by text
that is not its own), and add one :class:`ReaderSpec` to :data:`REGISTRY` at its place in the tie order, with
an ``applies(text, lines, low_name)`` test that is cheap and only *necessary* (the coverage decides);
``prose=True`` for a free-text shape, ``non_records`` for the parts it recognises that are not records, and
``document=True`` for a reader that parses the whole text or raises. Nothing else
chooses a reader; pipeline.ingest.readers.READERS and the settings files' reader names come from
:data:`REGISTRY`.

Pure functions.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field

from pipeline.ingest.readers import (
    bibtex,
    feed,
    json_records,
    markdown,
    pdf_page,
    seed,
    separated,
    table,
    xml_records,
    yaml_records,
)
from pipeline.ingest.readers.base import ReaderError, Record, is_separator_line
from pipeline.ingest.readers.coverage import coverage, mark_markup
from pipeline.ingest.readers.fields import map_columns

#: At most this many non-blank lines of title/authors/affiliations before a PDF page's ``Abstract`` marker.
MAX_FRONT_LINES = 40
#: Front-matter lines (title, authors, affiliations) are short; a longer line before the marker is prose.
MAX_FRONT_WORDS = 30
#: Candidates read at most this many characters each to be compared (about 60 abstracts): a bounded share of
#: a run however large the file (the winner alone reads the whole file).
SAMPLE_CHARS = 65_536
#: A later reader in REGISTRY order wins only when it explains more than this share of the file beyond an
#: earlier one (differences below it are noise: a header line, a trailing note).
MARGIN = 0.02
#: A best reading explaining less than this share of the file gets a warning naming the unexplained lines.
WARN_COVERAGE = 0.9
#: A best reading explaining less than this share is no reading: the file is quarantined ``unexplained``.
MIN_COVERAGE = 0.5
#: A record whose abstract holds more words than this explains nothing (pipeline.analyse.quarantine.MAX_WORDS,
#: the ``too_long`` rule: no abstract is that long).
MAX_RECORD_WORDS = 3500
#: A prose record spanning more paragraphs than this explains nothing: 10 of the 58,671 dev-corpus
#: abstracts hold more than 5 blank-line paragraphs (14 hold 4, 5 hold 5); a seed listing's record holds one.
MAX_RECORD_PARAGRAPHS = 5
#: At most this many unexplained line ranges are named in a warning (the rest are counted).
MAX_RANGES_SHOWN = 5
#: A line of markup of a structured shape: a BibTeX entry opening or ``field = {``/``"`` line, a YAML or JSON
#: ``key: value`` line (a short key, at most 100 characters of line: the sections of a structured abstract,
#: ``Results: ...``, are longer), a YAML document fence (``---``, ``...``) or short list item (``- 2022``), a
#: markdown table row, an XML element alone on its line. Measured on the dev corpus: 10 of its 67,274
#: abstract lines match (``Video: https://...``), and no abstract has more than half of its lines matching.
MARKUP_LINE = re.compile(
    r"^\s*(?:@[A-Za-z]+\s*[{(]"
    r"|[A-Za-z][\w\-]*\s*=\s*[{\"]"
    r"|(?=.{0,100}$)-?\s*\"?[A-Za-z_][\w\-]{0,30}\"?\s*:(?:\s|$)"
    r"|(?:---|\.\.\.)\s*$"
    r"|-\s+(?=.{0,40}$)\S"
    r"|\|.*\|\s*$"
    r"|</?[A-Za-z][\w:.\-]*(?:\s[^<>]*)?/?>\s*$)"
)
_FEED = re.compile(rf"^{xml_records.PROLOG}<(?:\w+:)?(?:feed|rss|rdf:RDF)\b", re.DOTALL)
_XML = re.compile(rf"^{xml_records.PROLOG}<[A-Za-z_][\w.:\-]*[\s>]", re.DOTALL)
_HTML = re.compile(r"^\s*(?:<!doctype\s+html|<html\b)", re.IGNORECASE)
_MD_FIELD = re.compile(r"^\s*(?:\*\*|__)?(?:authors?|abstract)\b|<details", re.IGNORECASE | re.MULTILINE)
_BIB_ABSTRACT = re.compile(r"^\s*abstract\s*=", re.IGNORECASE | re.MULTILINE)
#: File name endings that say a structured format: the seed shape is never a reading of such a file (the
#: format's reader says what is wrong with it instead).
STRUCTURED_NAMES = (".json", ".jsonl", ".ndjson", ".csv", ".tsv", ".xml", ".bib", ".yml", ".yaml")

ReadFn = Callable[[str, str, "dict[str, str] | None"], "tuple[str | None, list[Record]]"]


@dataclass(frozen=True)
class ReaderSpec:
    """One reader as the sniffer sees it.

    ``name``: the reader's name (lineage, settings files); ``read(text, name, columns)``: ``(header,
    records)``, raises ReaderError when the file is not of its shape; ``applies(text, lines, low_name)``: a
    cheap necessary test (``lines`` = ``text.split("\\n")``, ``low_name`` the lower-cased file name);
    ``document``: the reader parses the whole text or raises (coverage 1.0 with a record, no sampling);
    ``prose``: its records are free text (the markup rule of the module docstring applies); ``non_records``:
    ``(lines, records) -> [(first, last)]`` 1-based line ranges the reader recognises as not records.
    """

    name: str
    read: ReadFn
    applies: Callable[[str, list[str], str], bool]
    document: bool = False
    prose: bool = False
    non_records: Callable[[list[str], list[Record]], list[tuple[int, int]]] | None = None


@dataclass
class Reading:
    """A file read by one reader: ``reader``, ``header``, ``records``, ``coverage`` (0..1, module docstring),
    ``unexplained`` (1-based ``(first, last)`` line ranges of text the reading does not explain),
    ``runner_up``/``runner_up_coverage`` (the best other candidate, None when there was none) and
    ``candidates`` (every candidate's coverage on the sample, or its error, in REGISTRY order);
    ``accounted``: the coverage counting malformed and over-long records too (quarantined alone, never the
    whole file)."""

    reader: str
    header: str | None
    records: list[Record]
    coverage: float
    unexplained: list[tuple[int, int]] = field(default_factory=list)
    runner_up: str | None = None
    runner_up_coverage: float | None = None
    candidates: list[tuple[str, float | str]] = field(default_factory=list)
    accounted: float = 1.0


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
        return True
    except ValueError:
        return False


def _cut_json(text: str) -> bool:
    """True when ``text`` is a JSON document cut off before its end (json_records.ends_early)."""
    try:
        json.loads(text)
    except json.JSONDecodeError as e:
        return json_records.ends_early(e, text)
    except ValueError:
        return False
    return False


def _jsonl_like(lines: list[str]) -> bool:
    heads = [x for x in lines if x.strip()][:5]
    ok = 0
    for x in heads:
        try:
            ok += isinstance(json.loads(x), dict)
        except ValueError:
            pass
    return bool(heads) and ok >= max(1, len(heads) - 1)


def _starts_structured(text: str) -> str:
    return text.lstrip("\ufeff \t\n")[:1]


def _json_applies(text: str, lines: list[str], low: str) -> bool:
    s = text.lstrip("\ufeff \t\n")
    if s[:1] not in ("[", "{"):
        return False
    # a ``.json`` file that does not parse, or any text that is a JSON document cut off before its end, is
    # still read as JSON: the reader says where it is invalid (and that it looks truncated)
    if _is_json(s):
        return True
    return (low.endswith(".json") or _cut_json(s)) and not _jsonl_like(lines)


def _jsonl_applies(text: str, lines: list[str], low: str) -> bool:
    # a text that is one JSON document has the JSON reader as its only candidate (:func:`candidates`)
    return _starts_structured(text) == "{" and _jsonl_like(lines)


def _xml_applies(text: str, lines: list[str], low: str) -> bool:
    s = text.lstrip("\ufeff \t\n")
    return not _FEED.match(s) and not _HTML.match(s) and bool(_XML.match(s))


def _bibtex_applies(text: str, lines: list[str], low: str) -> bool:
    return bool(bibtex.ENTRY.search(text)) and bool(_BIB_ABSTRACT.search(text))


def _md_table_applies(text: str, lines: list[str], low: str) -> bool:
    rows = markdown._table_rows(lines[:400])
    return rows is not None and "abstract" in map_columns(rows[1])


def _markdown_applies(text: str, lines: list[str], low: str) -> bool:
    is_md = low.endswith((".md", ".markdown"))
    levels = [h[0] for x in lines if (h := markdown.heading(x))]
    if levels:
        top = max(set(levels), key=levels.count)
        if levels.count(top) >= 2 and (is_md or _MD_FIELD.search(text)):
            return True
    return bool(levels or "](http" in text or is_md) and markdown.list_papers(lines[:20000]) is not None


def _csv_applies(text: str, lines: list[str], low: str) -> bool:
    first = next((x for x in lines if x.strip()), "")
    _, header = table.header_columns(first)
    return len(header) >= 2 and ("abstract" in map_columns(header) or low.endswith((".csv", ".tsv")))


def _labelled_or_paragraphs(lines: list[str]) -> bool:
    head = lines[:20000]
    return separated.opening_label(head) is not None or bool(separated.record_paragraphs(head))


def _separated_applies(text: str, lines: list[str], low: str) -> bool:
    return _labelled_or_paragraphs(lines) or (
        sum(1 for x in lines if is_separator_line(x)) >= separated.MIN_SEPARATORS
    )


def _pdf_applies(text: str, lines: list[str], low: str) -> bool:
    # a labelled text dump (``Abstract:`` lines) is separated text, not PDF pages
    return _pdf_like(lines) and not _labelled_or_paragraphs(lines)


def _seed_applies(text: str, lines: list[str], low: str) -> bool:
    return _starts_structured(text) not in ("[", "{", "<") and not low.endswith(STRUCTURED_NAMES)


def _first_line(lines: list[str], records: list[Record]) -> list[tuple[int, int]]:
    """The first non-blank line (a CSV/TSV header row)."""
    first = next((i for i, x in enumerate(lines) if x.strip()), None)
    return [] if first is None else [(first + 1, first + 1)]


def _table_head(lines: list[str], records: list[Record]) -> list[tuple[int, int]]:
    """A markdown table's header and rule rows: the two lines above its first row."""
    if not records or records[0].line < 3:
        return []
    return [(records[0].line - 2, records[0].line - 1)]


def front_matter_applies(text: str, lines: list[str], low: str) -> bool:
    """The front-matter reader's test: the first non-blank line is ``---``. The reading then competes by
    coverage like any other: it explains the front matter (and the body when that is the abstract), so a
    ``---`` block that is one record of a dump explains only that record."""
    first = next((x for x in lines[:50] if x.strip()), "")
    return first.lstrip("\ufeff").rstrip() == "---"


def yaml_applies(text: str, lines: list[str], low: str) -> bool:
    """The YAML list reader's test: a ``.yml``/``.yaml`` name, or a JSON-like text that is not JSON, not JSON
    Lines, not named ``.json`` and at most MAX_SNIFF_YAML_CHARS long, that YAML parses into paper mappings."""
    # after JSON in the order: a text that is a JSON document, or JSON Lines, is never read as YAML
    s = text.lstrip("\ufeff \t\n")
    yaml_name = low.endswith(yaml_records.YAML_SUFFIXES)
    if s[:1] in ("[", "{"):
        if _is_json(s) or _jsonl_like(lines) or low.endswith(".json"):
            return False
        return (yaml_name or len(text) <= yaml_records.MAX_SNIFF_YAML_CHARS) and yaml_records.yaml_papers(
            text
        )
    return yaml_name and yaml_records.yaml_papers(text)


#: Every reader, in tie order (specific shapes first, the seed shape last).
REGISTRY: tuple[ReaderSpec, ...] = (
    ReaderSpec(json_records.NAME_JSON, json_records.read_json, _json_applies, document=True),
    ReaderSpec(json_records.NAME_JSONL, json_records.read_jsonl, _jsonl_applies),
    ReaderSpec(
        feed.NAME,
        lambda text, name, columns: feed.read(text, name),
        lambda text, lines, low: bool(_FEED.match(text.lstrip("\ufeff \t\n"))),
        document=True,
    ),
    ReaderSpec(xml_records.NAME, xml_records.read, _xml_applies, document=True),
    ReaderSpec(yaml_records.NAME_YAML, yaml_records.read_yaml, yaml_applies, document=True),
    ReaderSpec(yaml_records.NAME_FRONT_MATTER, yaml_records.read_front_matter, front_matter_applies),
    ReaderSpec(bibtex.NAME, bibtex.read, _bibtex_applies),
    ReaderSpec(markdown.NAME_TABLE, markdown.read_table, _md_table_applies, non_records=_table_head),
    ReaderSpec(markdown.NAME, lambda text, name, columns: markdown.read(text, name), _markdown_applies),
    ReaderSpec(table.NAME, table.read, _csv_applies, non_records=_first_line),
    ReaderSpec(pdf_page.NAME, lambda text, name, columns: pdf_page.read(text), _pdf_applies, prose=True),
    ReaderSpec(
        separated.NAME, lambda text, name, columns: separated.read(text), _separated_applies, prose=True
    ),
    ReaderSpec(seed.NAME, lambda text, name, columns: seed.read(text), _seed_applies, prose=True),
)
#: Reader name → spec.
SPECS = {s.name: s for s in REGISTRY}
_NOT_PROSE = ReaderSpec("", lambda text, name, columns: (None, []), lambda text, lines, low: False)


def _pdf_like(lines: list[str]) -> bool:
    """At least half of the pages (form feeds / separator lines) have an ``Abstract`` marker after at most
    MAX_FRONT_LINES non-blank lines, and at least one page does."""
    pages = pdf_page.pages(lines)
    hits = 0
    for _, page in pages:
        front = 0
        for x in page:
            if pdf_page.ABSTRACT_MARKER.match(x):
                hits += front >= 1
                break
            front += bool(x.strip())
            if front > MAX_FRONT_LINES or len(x.split(maxsplit=MAX_FRONT_WORDS)) > MAX_FRONT_WORDS:
                break
    return hits >= 1 and hits * 2 >= len(pages)


def sample_of(text: str) -> str:
    """The first SAMPLE_CHARS characters of ``text`` cut at the last blank line before that (else the last
    line end; the whole text when shorter)."""
    if len(text) <= SAMPLE_CHARS:
        return text
    cut = text.rfind("\n\n", 0, SAMPLE_CHARS)
    if cut < SAMPLE_CHARS // 2:
        cut = text.rfind("\n", 0, SAMPLE_CHARS)
    return text[: cut if cut > 0 else SAMPLE_CHARS]


def measure(spec: ReaderSpec, text: str, name: str, columns: dict[str, str] | None) -> Reading:
    """``spec``'s reading of ``text`` with its coverage and unexplained ranges (module docstring).

    Raises:
        ReaderError: (and whatever else the reader raises) when ``text`` is not of its shape.
    """
    header, records = spec.read(text, name, columns)
    lines = text.split("\n")
    share, accounted, unexplained = coverage(
        lines,
        header,
        records,
        document=spec.document,
        prose_markup=MARKUP_LINE if spec.prose else None,
        non_records=spec.non_records(lines, records) if spec.non_records else [],
        max_words=MAX_RECORD_WORDS,
        max_paragraphs=MAX_RECORD_PARAGRAPHS,
    )
    return Reading(spec.name, header, records, share, unexplained, accounted=accounted)


def candidates(text: str, name: str) -> list[ReaderSpec]:
    """The readers of :data:`REGISTRY` (in its order) whose ``applies`` test holds for ``text``; when a
    document reader applies (the text is a JSON/XML document or a feed), it alone: it comes before every
    other reader, and its reading either explains the whole text or raises."""
    lines = text.split("\n")
    low = name.lower()
    document = next((s for s in REGISTRY if s.document and s.applies(text, lines, low)), None)
    if document is not None:
        return [document]
    return [s for s in REGISTRY if not s.document and s.applies(text, lines, low)]


def read_best(
    text: str,
    name: str,
    columns: dict[str, str] | None = None,
    forced: ReaderSpec | None = None,
    shape_name: str | None = None,
    exhaustive: bool = False,
) -> Reading:
    """Read ``text`` (of file ``name``, as errors name it) with the reader that explains it best (module
    docstring), or with ``forced`` (a settings file's reader: no choice, its coverage measured).
    ``shape_name``: the name whose extension the ``applies`` tests see (``name`` without ``.gz``; default
    ``name``); ``columns``: a settings file's field → column mapping. Candidates are read in REGISTRY order
    (the first the whole file, the others the sample) until one explains at least ``1 - MARGIN`` of it: no
    later reader could win, so none is read (``exhaustive``: every candidate is read, for ``inspect``).

    Returns:
        the winner's :class:`Reading` of the whole text, with the runner-up (the best other candidate read)
        and each candidate read with its coverage (or error).

    Raises:
        ReaderError: no reader applies; ``forced`` cannot read the file; every candidate fails (the first
            one's error is raised, whatever its class); or the best reading explains less than MIN_COVERAGE
            (reason ``unexplained``, naming the best reading, its coverage and unexplained lines).
    """
    if forced is not None:
        got = measure(forced, text, name, columns)
        got.candidates = [(forced.name, got.coverage)]
        return _checked(got, name, text)
    lines = text.split("\n")
    low = (shape_name or name).lower()
    document = next((s for s in REGISTRY if s.document and s.applies(text, lines, low)), None)
    if document is not None:
        got = measure(document, text, name, columns)
        got.candidates = [(got.reader, got.coverage)]
        return _checked(got, name, text)
    sample = sample_of(text)
    tried: list[tuple[ReaderSpec, Reading | None, BaseException | None]] = []
    for spec in REGISTRY:
        if spec.document or not spec.applies(text, lines, low):
            continue
        try:  # the first candidate reads the whole file (usually it wins), the others the sample
            tried.append((spec, measure(spec, sample if tried else text, name, columns), None))
        except Exception as e:  # one candidate failing rules it out, never the file
            tried.append((spec, None, e))
        leader = _leader(tried)
        if leader is not None and leader[1].coverage >= 1.0 - MARGIN and not exhaustive:
            break  # no later reader can explain more than MARGIN beyond it
    if not tried:
        raise ReaderError(
            name,
            f"no reader fits this file ({describe(text)}); name one in a settings file "
            f"(reader = one of {list(SPECS)})",
        )
    leader = _leader(tried)
    if leader is None:
        raise next(e for _, _, e in tried if e is not None)  # the first candidate's own error
    spec, won = leader
    runner = max(
        (r for s, r, _ in tried if r is not None and s is not spec), key=lambda r: r.coverage, default=None
    )
    full = won if spec is tried[0][0] or len(sample) == len(text) else measure(spec, text, name, columns)
    full.runner_up = runner.reader if runner else None
    full.runner_up_coverage = runner.coverage if runner else None
    full.candidates = [
        (s.name, r.coverage if r is not None else f"{type(e).__name__}: {e}") for s, r, e in tried
    ]
    return _checked(full, name, text)


def _leader(
    tried: list[tuple[ReaderSpec, Reading | None, BaseException | None]],
) -> tuple[ReaderSpec, Reading] | None:
    """The first reading (in REGISTRY order) whose coverage is at least the best minus MARGIN, or None."""
    readings = [(s, r) for s, r, _ in tried if r is not None]
    if not readings:
        return None
    best = max(r.coverage for _, r in readings)
    return next((s, r) for s, r in readings if r.coverage >= best - MARGIN)


def ranges_text(ranges: list[tuple[int, int]]) -> str:
    """``lines 3-7, 12, 40-41`` for at most MAX_RANGES_SHOWN ranges (``and N more ranges``)."""
    shown = ", ".join(f"{a}" if a == b else f"{a}-{b}" for a, b in ranges[:MAX_RANGES_SHOWN])
    more = len(ranges) - MAX_RANGES_SHOWN
    return f"lines {shown}" + (f" and {more} more range{'s' * (more > 1)}" if more > 0 else "")


def _checked(got: Reading, name: str, text: str) -> Reading:
    """``got`` unless it accounts for less than MIN_COVERAGE of the file (ReaderError ``unexplained``); the
    records of a prose reading that are mostly markup get the problem ``foreign_markup``
    (pipeline.ingest.readers.coverage.mark_markup)."""
    if got.accounted >= MIN_COVERAGE and SPECS.get(got.reader, _NOT_PROSE).prose:
        mark_markup(text.split("\n"), got.records, MARKUP_LINE)
    if got.accounted < MIN_COVERAGE:
        others = ", ".join(
            f"{n} {c:.2f}" if isinstance(c, float) else f"{n} failed" for n, c in got.candidates
        )
        raise ReaderError(
            name,
            f"unexplained: no reading explains {MIN_COVERAGE:.0%} of the file (best: {got.reader} explains "
            f"{got.coverage:.2f}; unexplained {ranges_text(got.unexplained)}; candidates: {others})",
        )
    return got


def unexplained_warning(got: Reading, name: str) -> str | None:
    """The warning for a reading explaining less than WARN_COVERAGE of the file, else None."""
    if got.coverage >= WARN_COVERAGE:
        return None
    return (
        f"{name}: read by {got.reader}, which explains only {got.coverage:.2f} of the file (under "
        f"{WARN_COVERAGE}); unexplained: {ranges_text(got.unexplained)}"
    )


def choose(text: str, name: str) -> str | None:
    """The name of the reader that explains ``text`` best (:func:`read_best`), or ``None`` when none does."""
    try:
        return read_best(text, name).reader
    except ReaderError:
        return None


def describe(text: str) -> str:
    """A short description of a text no reader fits, for the error message."""
    first = next((x.strip() for x in text.split("\n") if x.strip()), "")
    return f"first line {first[:60]!r}" if first else "empty"
