"""Markdown schedules and paper lists: one record per paper heading (``### Title``), with ``**Authors:** ...``
lines, other ``**Label:** value`` fields and the abstract (often inside a
``<details><summary>Abstract</summary>`` block); and markdown tables with a header row naming an abstract
                                         column.

Headings: the paper heading level is the level whose sections hold paper fields (``**Authors:**``, an
abstract label or block), else the most frequent heading level of the file (``###`` in schedules); a paper
section owns everything nested in it (sub-headings, tables, ``<details>`` summaries) and only its abstract
reaches the abstract (:func:`_paper_fields`); list numbers leave the titles of a numbered list. Higher-level
headings (``## Poster Session 1``, ``## Orals``) are sections: a section named for a presentation
type (Oral, Spotlight, Poster) gives ``source_status`` to its papers unless a paper says otherwise
(``**Oral Presentation:** ...`` → ``Oral``; a heading tag ``### [Spotlight] Title`` → ``Spotlight``).
HTML tags, ``<details>``/``<summary>`` markup, emphasis markers and heading marks never reach the abstract;
links become ``source_urls`` when they are code or project links.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from pipeline.ingest.readers.base import ReaderError, Record, clean_field, control_problem, split_authors
from pipeline.ingest.readers.decoding import sanitise_line
from pipeline.ingest.readers.fields import map_columns, record_from_fields

NAME = "markdown"
NAME_TABLE = "markdown_table"
# Every pattern here runs on raw lines of any text listing: none may backtrack super-linearly (a run of
# spaces, ``[`` or ``<`` must cost time linear in its length). Possessive ``*+`` where a run could be split
# between two quantifiers; headings, tags, summaries and links are scanned by the functions below.
_HEADING_MARKS = re.compile(r"(#{1,6})\s+")
_FIELD = re.compile(
    r"^\s*+(?:[*_]{2})?(?P<label>[A-Za-z][A-Za-z ()/\-]{0,40}?)\s*+(?:[*_]{2})?\s*+[:：]\s*+(?:[*_]{2})?"
    r"\s*+(?P<value>.*)$"
)
_SUMMARY = re.compile(r"<summary>.*?</summary>", re.IGNORECASE | re.DOTALL)
_SUMMARY_END = re.compile(r"</summary>", re.IGNORECASE)
_TAG = re.compile(
    r"</?(?:details|summary|br|p|div|span|b|i|em|strong|hr|sup|sub|font|center|small)\b[^>]*>", re.IGNORECASE
)
_LINK_SCHEME = re.compile(r"\(https?://")
_URL_RUN = re.compile(r"[^)\s]*")


def heading(line: str) -> tuple[int, str] | None:
    """A markdown heading line as ``(level, text)``, else None: 1-6 ``#`` then whitespace at the line
    start; the text without the closing ``#``s and the whitespace around them (``### Title ##`` →
    ``(3, "Title")``). The regular expression ``^(#{1,6})\\s+(.*?)\\s*#*\\s*$`` as a scan linear in the
    line (that expression takes time cubic in a run of spaces)."""
    m = _HEADING_MARKS.match(line)
    if m is None:
        return None
    return len(m.group(1)), line[m.end() :].rstrip().rstrip("#").rstrip()


def _sub_before_last(pattern: re.Pattern, end: re.Pattern, repl: str, text: str) -> str:
    """``pattern.sub(repl, text)`` where every match of ``pattern`` ends with a match of ``end``: applied
    only up to the last match of ``end`` (after it no match can end, and a start with no end after it is
    what made the plain substitution quadratic)."""
    cut = max((m.end() for m in end.finditer(text)), default=0)
    return pattern.sub(repl, text[:cut]) + text[cut:] if cut else text


_TAG_END = re.compile(">")


def links(text: str) -> list[tuple[int, int, str, str]]:
    """The markdown links ``[label](http(s)://url)`` of ``text``, left to right, as ``(start, end, label,
    url)``: what ``re.finditer(r"\\[([^\\]]*)\\]\\((https?://[^)\\s]+)\\)", text)`` finds, in time linear in
    ``text`` (the expression is quadratic on a run of ``[``). A label runs from a ``[`` to the first ``]``
    after it, so every ``[`` before one ``]`` shares its fate: the first such ``[`` is the match. A URL runs
    to the first ``)`` or whitespace: once a URL run ended without ``)``, every ``](http://`` before that end
    fails the same way and is not scanned again."""
    out: list[tuple[int, int, str, str]] = []
    pos = failed_to = 0
    while (start := text.find("[", pos)) >= 0:
        close = text.find("]", start + 1)
        if close < 0:
            break
        pos = close + 1
        scheme = _LINK_SCHEME.match(text, close + 1) if close >= failed_to else None
        if scheme is None:
            continue
        url_end = _URL_RUN.match(text, scheme.end()).end()  # type: ignore[union-attr]  # matches ""
        if url_end == scheme.end() or text[url_end : url_end + 1] != ")":
            failed_to = url_end
            continue
        out.append((start, url_end + 1, text[start + 1 : close], text[close + 2 : url_end]))
        pos = url_end + 1
    return out


def sub_links(text: str, repl) -> str:
    """``text`` with each link of :func:`links` replaced by ``repl(label, url)``."""
    parts: list[str] = []
    pos = 0
    for start, end, label, url in links(text):
        parts += [text[pos:start], repl(label, url)]
        pos = end
    return "".join(parts) + text[pos:]


_STATUS_WORDS = ("oral", "spotlight", "poster", "highlight", "award", "workshop")
_CODE_LINK = re.compile(r"\b(?:code|github|repo|repository|implementation|project|website|page|demo)\b", re.I)


def _status_of(text: str) -> str | None:
    low = text.lower()
    for w in _STATUS_WORDS:
        if re.search(rf"\b{w}s?\b", low):
            return w.capitalize()
    return None


_TITLE_TAG = re.compile(r"^\s*(?:\*\*|__)?[\[(【]([^\])】]{1,30})[\])】]")


def _title_tag_status(title: str) -> str | None:
    """The status a paper heading's leading tag gives (``### [Spotlight] Title`` → ``Spotlight``), else None.
    The tag stays in the title: it is how the file (and the listing the paper came from) writes it."""
    m = _TITLE_TAG.match(title)
    return _status_of(m.group(1)) if m else None


def _strip_markup(text: str) -> str:
    """Markdown/HTML residue out of an abstract: ``<summary>..</summary>``, layout tags, leading ``**`` of a
    broken ``**<details>`` line, ``>`` quote marks; link syntax ``[text](url)`` kept as ``text (url)``."""
    text = _sub_before_last(_SUMMARY, _SUMMARY_END, " ", text)
    text = _sub_before_last(_TAG, _TAG_END, " ", text)
    text = sub_links(text, lambda label, url: f"{label} ({url})")
    lines = []
    for line in text.split("\n"):
        s = line.strip()
        if s in ("**", "__", "*", ">", "---"):
            s = ""
        s = re.sub(r"^>\s?", "", s)
        lines.append(s.strip("*").strip() if re.fullmatch(r"\*+\s*|\s*\*+", s) else s)
    return "\n".join(lines).strip("\n ")


#: A list item that opens a paper in an "awesome" list: a bullet or number, then a bold title or a link.
_LIST_PAPER = re.compile(r"^(?:[-*+]|\d{1,4}[.)])\s+(?P<rest>(?:\*\*|__|\[).*)$")
_BOLD_TITLE = re.compile(r"^(?:\*\*|__)(?P<title>.+?)(?:\*\*|__)\s*[:.\-–—]?\s*(?P<tail>.*)$")
_LINK_TITLE = re.compile(r"^\[(?P<title>[^\]]+)\]\(https?://[^)\s]+\)\s*[:.\-–—]?\s*(?P<tail>.*)$")


def list_papers(lines: list[str]) -> tuple[list[str], list[int]] | None:
    """A markdown list of papers (``- **Title** [[code](...)]`` at the line start, fields and the abstract on
    indented lines below: ``  - Authors: ...``, ``  - Abstract: ...``) rewritten as paper headings, when such
    items outnumber the headings of every level and are at least half of the lines at the left margin that
    are not headings; else ``None``.

    Returns the rewritten lines (``###### Title``; links after the title as a ``Links:`` line, other text
    after it on a line of its own; indented lines dedented, their bullets dropped) and, per rewritten line,
    the index of the line of ``lines`` it comes from."""
    starts = sum(1 for x in lines if _LIST_PAPER.match(x))
    per_level = Counter(h[0] for x in lines if (h := heading(x)))
    # lines at the left margin other than headings: in a list of papers, mostly its items (an abstract
    # that holds a list, in a listing of other shape, gives a few items among many paragraphs)
    margin = sum(1 for x in lines if x.strip() and x[:1] not in (" ", "\t") and not heading(x))
    if starts < 2 or starts <= max(per_level.values(), default=0) or 2 * starts < margin:
        return None
    out: list[str] = []
    where: list[int] = []
    for i, x in enumerate(lines):
        m = _LIST_PAPER.match(x)
        if m:
            t = _BOLD_TITLE.match(m["rest"]) or _LINK_TITLE.match(m["rest"])
            title, tail = (t["title"], t["tail"].strip()) if t else (m["rest"], "")
            out.append(f"###### {title}")
            where.append(i)
            if tail:
                out.append(
                    f"Links: {tail}"
                    if links(tail) and not sub_links(tail, lambda label, url: "").strip(" []|,;")
                    else tail
                )
                where.append(i)
            continue
        out.append(re.sub(r"^[-*+]\s+", "", x.strip()) if x[:1] in (" ", "\t") else x)
        where.append(i)
    return out, where


def _table_rows(lines: list[str]) -> tuple[int, list[str], list[tuple[int, list[str]]]] | None:
    """A markdown table: (line index of the header, header cells, [(line index, cells)]) or None."""
    for i in range(len(lines) - 1):
        if lines[i].lstrip().startswith("|") and re.fullmatch(
            r"\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*", lines[i + 1]
        ):

            def cells(x):
                return [c.strip() for c in re.split(r"(?<!\\)\|", x.strip().strip("|"))]

            rows = []
            for j in range(i + 2, len(lines)):
                if not lines[j].lstrip().startswith("|"):
                    break
                rows.append((j, cells(lines[j])))
            return i, cells(lines[i]), rows
    return None


def read_table(
    text: str, name: str, columns: dict[str, str] | None = None
) -> tuple[str | None, list[Record]]:
    """Read a markdown table whose header names an abstract column; ``position`` = 1-based data row."""
    found = _table_rows([sanitise_line(x) for x in text.split("\n")])
    if found is None:
        raise ReaderError(name, "no markdown table found")
    at, header, rows = found
    mapping = map_columns(header, columns)
    if "abstract" not in mapping:
        raise ReaderError(name, f"markdown table has no abstract column (columns: {header[:20]})", at + 1)
    records = []
    for k, (j, row) in enumerate(rows, 1):
        obj = {h: _strip_markup(re.sub(r"<br\s*/?>", "\n", c)) for h, c in zip(header, row)}
        records.append(record_from_fields(obj, mapping, k, j + 1, j + 1))
    return None, records


#: A line of paper fields under a heading: an ``Authors``/``Abstract`` label (bold or not) or a ``<details>``
#: block summarised ``Abstract``; the paper level is the heading level whose sections hold such lines.
_OWN_FIELD = re.compile(
    r"^\s*+(?:[*_]{2})?(?:<details>\s*+)?(?:<summary>\s*+)?(?:[*_]{2})?(?:authors?|abstract)\b", re.IGNORECASE
)
_HR = re.compile(r"^ {0,3}([-*_])(?: *+\1){2,} *+$")
_DETAILS_OPEN = re.compile(r"<details\b", re.IGNORECASE)
_DETAILS_CLOSE = re.compile(r"</details\s*>", re.IGNORECASE)
_SUMMARY_OPEN = re.compile(r"<summary>", re.IGNORECASE)
_ABSTRACT_LABEL = re.compile(r"^\s*+(?:\*\*|__)?abstract(?:\*\*|__)?\s*+[:：]\s*+(?:\*\*|__)?", re.IGNORECASE)
_ABSTRACT_NAME = re.compile(r"(?:\*\*|__)?abstract(?:\*\*|__)?\s*+[:：]?", re.IGNORECASE)
#: A ``<summary>`` that names the abstract (``Abstract``, ``Show abstract``, ``摘要``); any other summary
#: (``Reading summary``, ``TL;DR``, ``BibTeX``) opens a block that is not the abstract.
_SUMMARY_ABSTRACT = re.compile(r"\babstract\b|摘要", re.IGNORECASE)
_BOLD_LABEL = re.compile(r"^\s*+(?:\*\*|__)[^*_:：]{1,40}(?:[:：](?:\*\*|__)|(?:\*\*|__)\s*+[:：])")
_TABLE_LINE = re.compile(r"^\s*+\|.*\|\s*+$")
#: A list number opening a title (``[97] Title``, ``12. Title``, ``(3) Title``).
_LIST_NUMBER = re.compile(r"^(?:\[\d{1,5}\]|\(\d{1,5}\)|\d{1,5}[.)])\s+(?=\S)")
#: Field labels that name the venue (their value becomes the record's ``venue_text``).
_VENUE_LABELS = ("conference", "venue", "booktitle", "journal", "proceedings", "event")
_LINK_LABELS = ("paper", "code", "project", "links", "link", "url", "pdf", "openreview", "arxiv")


def _paper_level(heads: list[tuple[int, int, str]], lines: list[str]) -> tuple[int, str | None]:
    """The heading level of the papers and the listing's header (the first heading above that level before
    the first paper heading, else None).

    The paper level is the level whose headings most often have paper fields (:data:`_OWN_FIELD`) in their
    own text (up to the next heading of any level): the sub-sections of a paper (a summary's ``### Method``,
    ``#### Notes``) are more numerous but hold none. When no level has any, the most frequent level, the
    deeper on a tie."""
    levels = [lv for _, lv, _ in heads]
    with_fields: Counter[int] = Counter()
    for k, (i, lv, _) in enumerate(heads):
        end = heads[k + 1][0] if k + 1 < len(heads) else len(lines)
        if any(_OWN_FIELD.match(x) for x in lines[i + 1 : end]):
            with_fields[lv] += 1
    if with_fields:
        paper_level = max(with_fields, key=lambda lv: (with_fields[lv], levels.count(lv), lv))
    else:
        paper_level = max(set(levels), key=lambda lv: (levels.count(lv), lv))
    header = None
    first_paper = next(i for i, lv, _ in heads if lv == paper_level)
    top = [t for i, lv, t in heads if lv < paper_level and i < first_paper]
    if top:
        header = top[0]
    return paper_level, header


@dataclass
class _Fields:
    """What one paper section says (see :func:`_paper_fields`)."""

    authors: list[str] = field(default_factory=list)
    status: str | None = None
    urls: list[str] = field(default_factory=list)
    venue: str | None = None
    abstract: list[str] = field(default_factory=list)


def _field_line(s: str, out: _Fields) -> bool:
    """Take a labelled field line (``**Authors:** ...``, a status, links, a venue) into ``out``; False when
    ``s`` is not one (an unknown ``Label:`` is text, see :func:`_paper_fields`)."""
    m = _FIELD.match(s)
    if not m or len(m["label"].split()) > 4:
        return False
    label, value = m["label"].strip().lower(), m["value"].strip().strip("*").strip()
    if label.startswith("author"):
        out.authors = split_authors(_strip_markup(value))
    elif _status_of(label) or label in ("status", "decision", "type", "presentation"):
        out.status = _status_of(label) if _status_of(label) else clean_field(value)
    elif label in _LINK_LABELS:
        found = links(value)
        out.urls += [u for _, _, t, u in found if _CODE_LINK.search(t) or label in ("code", "project")]
        if not found and label in ("code", "project") and value.startswith("http"):
            out.urls.append(value.split()[0])
    elif label in _VENUE_LABELS:
        out.venue = clean_field(_strip_markup(value))
    else:
        return False
    return True


def _paper_fields(body: list[str]) -> _Fields:
    """The lines under one paper heading (up to the next heading of the paper level or above) read as its
    fields and abstract. The section owns everything nested in it; only the abstract reaches the abstract:

    - labelled fields (:func:`_field_line`) are taken out; a line with another bold label (``**Keywords:**``,
      ``**TL;DR:**``) ends a marked abstract and is other text (the abstract when nothing marks one: a
      structured abstract's ``**Background:** ...``);
    - an abstract marker (an ``Abstract:`` label, a ``<details>`` block summarised ``Abstract``, a nested
      ``Abstract`` heading) makes the abstract that part alone: the label's text and the lines after it up
      to the next field, table, ``<details>`` block, nested heading or thematic break; the block's content;
      the heading's text;
    - other ``<details>`` blocks (a summary, notes), nested headings other than ``Abstract`` and what is under
      them, tables and thematic breaks are the paper's but never its abstract; after a marked abstract, a
      thematic break closes the paper (what follows, such as a list's navigation links, is not its text);
    - without a marker, the abstract is the section's other text.
    """
    out = _Fields()
    marked: list[str] = []
    loose: list[str] = []
    explicit = collecting = False
    details: list[str] = []  # kinds of the open <details> blocks: abstract, other, unlabelled, pending
    sub_kind: str | None = None  # kind of the nested heading the line is under
    for x in body:
        s = x.strip()
        if _DETAILS_OPEN.search(s):
            collecting = False
            details.append("pending")
        if details and details[-1] == "pending" and _SUMMARY_OPEN.search(s):
            summary = _strip_markup(s[_SUMMARY_OPEN.search(s).end() :])  # type: ignore[union-attr]
            # the first abstract wins: a later one (a translation, 中文摘要) is other text
            first = not any(x.strip() for x in marked)
            details[-1] = "abstract" if first and _SUMMARY_ABSTRACT.search(summary) else "other"
            explicit |= details[-1] == "abstract"
            s = _SUMMARY_END.split(s, maxsplit=1)[1] if _SUMMARY_END.search(s) else ""
        closes = bool(details) and bool(_DETAILS_CLOSE.search(s))
        if details:
            if details[-1] == "pending" and s:
                details[-1] = "unlabelled"  # a block without a summary: its text is the section's text
            if "other" not in details and details[-1] in ("abstract", "unlabelled"):
                (marked if details[-1] == "abstract" else loose).append(
                    _DETAILS_CLOSE.split(s, maxsplit=1)[0]
                )
            if closes:
                details.pop()
            continue
        h = heading(s)
        if h is not None:
            sub_kind = "abstract" if _ABSTRACT_NAME.fullmatch(h[1].strip()) else "other"
            collecting = sub_kind == "abstract"
            explicit |= collecting
            continue
        if _HR.match(s) or _TABLE_LINE.match(s):
            if _HR.match(s) and explicit and any(x.strip() for x in marked):
                collecting, sub_kind = False, "other"  # after the abstract, a rule closes the paper
            continue
        if sub_kind == "other":
            continue
        if _ABSTRACT_LABEL.match(s) and not any(x.strip() for x in marked):
            explicit = collecting = True
            marked.append(_ABSTRACT_LABEL.sub("", s, count=1))
            continue
        if s and _field_line(s.replace("**<details>", "<details>"), out):
            collecting = False
            continue
        if _BOLD_LABEL.match(s):
            collecting = False  # another field (**Keywords:**, **Conference**:) ends a marked abstract
            loose.append(s)
            continue
        (marked if collecting else loose).append(s)
    out.abstract = marked if explicit else loose
    return out


def _numbered(titles: list[str]) -> bool:
    """True when at least 80 % of the paper headings (and two or more) open with a list number
    (:data:`_LIST_NUMBER`): the numbers are the list's, not the titles' (a title that starts with a number,
    ``3D Gaussian ...``, has no bracket or dot after it)."""
    n = sum(1 for t in titles if _LIST_NUMBER.match(t))
    return n >= 2 and n >= 0.8 * len(titles)


def read(text: str, name: str = "") -> tuple[str | None, list[Record]]:
    """Read a markdown paper list (see the module docstring); returns ``(header, records)``: ``header`` is the
    first top-level heading when it comes before every paper heading; ``position`` = ``line`` = the paper
    heading's line."""
    raw_lines = text.split("\n")
    lines = [sanitise_line(x) for x in raw_lines]
    listed = list_papers(lines)
    where = list(range(len(lines)))
    if listed is not None:
        lines, where = listed
        raw_lines = [raw_lines[w] for w in where]
    heads = [(i, *h) for i, x in enumerate(lines) if (h := heading(x))]
    if not heads:
        raise ReaderError(name, "markdown without headings: no paper headings (### Title) found")
    paper_level, header = _paper_level(heads, lines)
    records: list[Record] = []
    section_status = None
    section_text = header
    top = [h for h in heads if h[1] <= paper_level]
    bounds = [i for i, _, _ in top] + [len(lines)]
    numbered = _numbered([t for _, lv, t in top if lv == paper_level])
    for (i, lv, title), end in zip(top, bounds[1:]):
        if lv < paper_level:
            section_status = _status_of(title)
            section_text = title
            continue
        got = _paper_fields(lines[i + 1 : end])
        if numbered:
            title = _LIST_NUMBER.sub("", title, count=1)
        raw_body = "\n".join(raw_lines[i:end])
        records.append(
            Record(
                position=where[i] + 1,
                line=where[i] + 1,
                abstract_raw=_strip_markup("\n".join(got.abstract)),
                title=clean_field(_strip_markup(sub_links(title, lambda label, url: label)).strip("*_ ")),
                authors=got.authors,
                source_status=got.status or _title_tag_status(title) or section_status,
                source_urls=list(dict.fromkeys(got.urls)),
                venue_text=got.venue or section_text,
                problem=control_problem(raw_body),
            )
        )
    return header, records
