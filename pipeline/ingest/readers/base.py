"""What every reader returns: :class:`Record` (one per paper the file lists) and helpers shared by the
readers.

A record is one paper as the file gives it: ``abstract_raw`` (the abstract's text, line ends ``\\n``,
invisible characters removed), ``title`` and ``authors`` when the file has them (never guessed), the file's
own id, status and links, and where it is in the file. Pure functions, no Dagster.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

from pipeline.ingest.readers.decoding import normalise_line_ends, sanitise_line


class ReaderError(ValueError):
    """A listing file matches no reader, or its reader cannot read it (the whole file is quarantined).

    Attributes: ``path`` (the file), ``line`` (1-based line of the problem, 0 when not a line), ``column``
    (1-based column on that line, 0 when not known), ``reason``; ``kind``: the quarantine reason's first
    word (``unreadable``; :class:`EmptyListing`: ``empty_file``). ``where``: `` (line L, column C)`` as
    far as known, else ``""``. The message is ``<path><where>: <reason>``.
    """

    kind = "unreadable"

    def __init__(self, path: str, reason: str, line: int = 0, column: int = 0):
        self.path, self.reason, self.line, self.column = path, reason, line, column
        super().__init__(f"{path}{self.where}: {reason}")

    @property
    def where(self) -> str:
        if not self.line:
            return ""
        return f" (line {self.line}, column {self.column})" if self.column else f" (line {self.line})"


class EmptyListing(ReaderError):
    """A listing file with no text: 0 bytes, or (decoded) only whitespace, invisible characters or a byte
    order mark. Quarantined whole as ``empty_file`` (not ``empty``, the reason of a record whose clean text
    is empty: pipeline.analyse.quarantine); no reader and no settings file would help, so the reason gives no
    reader advice."""

    kind = "empty_file"


@dataclass
class Record:
    """One paper of a listing file.

    ``position``: where the record is in the file, in the reader's unit: the 1-based line where it starts
    (text shapes, JSON Lines), the 1-based data row (CSV/TSV, header row not counted), or the 0-based index
    (JSON array or object). ``line``: the 1-based line of the file where the record starts, 0 when the shape
    does not say (a JSON document). ``abstract_raw``: the abstract as in the file (line ends ``\\n``,
    :func:`sanitise_line` per line), ``""`` when the record has none.
    ``title``/``source_id``/``source_status``:
    ``None`` when the file has none; ``authors``/``source_urls``: ``[]`` when none. ``venue_text``: the text
             that
    names this record's venue, when the file gives one for it (its ``comment`` field, the header line above
    it); ``year_text``: a year field of the record (``year = 2020``); both resolved to venue/year by
    pipeline.ingest.readers.venues. ``problem``: why this record alone cannot be published (a control
    character, a malformed row), else None. ``end_line``: the 1-based last line of the file the record
    spans, 0 when the reader does not say (it then runs to the line before the next record:
    pipeline.ingest.readers.coverage.spans); set by readers whose records can be followed by text that is
    not theirs (a BibTeX entry, a markdown table row). ``repair``: how the reader repaired the record when
    the file broke its own format in a way with one reading (a CSV row whose overflow fields rejoin into one
    column), else None; the file's warnings count them.
    """

    position: int
    line: int
    abstract_raw: str
    title: str | None = None
    authors: list[str] = field(default_factory=list)
    source_id: str | None = None
    source_status: str | None = None
    source_urls: list[str] = field(default_factory=list)
    venue_text: str | None = None
    year_text: str | None = None
    problem: str | None = None
    end_line: int = 0
    repair: str | None = None


def control_problem(text: str) -> str | None:
    """``"control_character: U+0000 (NUL) in the record"`` when ``text`` holds a NUL, else ``None``.

    A NUL inside a text record means damaged bytes: the record is quarantined (never the whole file). Other
    control characters (``\\x02`` for a hyphen in PDF-extracted text, BEL, ESC) are repaired: removed from
    ``abstract_raw`` by :func:`sanitise_line` (2 of the 299 abstracts of a real papercopilot file hold
    one)."""
    return "control_character: U+0000 (NUL) in the record" if "\x00" in text else None


def raw_text(value) -> str:
    """A field's value as ``abstract_raw``-style text: ``str`` of it (``""`` for None), line ends ``\\n``,
    invisible characters removed per line, trailing blank lines dropped."""
    if value is None:
        return ""
    text = normalise_line_ends(value if isinstance(value, str) else str(value))
    return "\n".join(sanitise_line(line) for line in text.split("\n")).strip("\n ")


def clean_field(value) -> str | None:
    """A short field (title, id, status): whitespace collapsed, invisible characters removed; ``None`` when
    empty."""
    if value is None or isinstance(value, (list, dict)):
        return None
    text = " ".join(sanitise_line(str(value)).split())
    return text or None


_AUTHOR_SPLIT = re.compile(r"\s*;\s*|\s*\|\s*|\s+and\s+|\s*&\s*|\s*,\s*(?:and\s+)?")
_SPACE_RUN = re.compile(r"\s+")
_FOOTNOTE_MARKS = re.compile(r"[\*†‡§¶#∗⋆✉]+|(?<=[^\W\d])\d+(?:,\d+)*\b|\(\d+\)")


def split_authors(value) -> list[str]:
    """Author names from a field: a list (of names or of ``{"name": ...}`` objects) or a string separated by
    ``;``, ``|``, `` and `` or ``,`` (``;`` first: ``Smith, J.; Doe, A.`` keeps the commas). Footnote marks
    (``*``, ``†``, affiliation digits) are removed; empty names dropped."""
    if value is None:
        return []
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        names = [
            v.get("name")
            or v.get("fullname")
            or " ".join(str(v.get(k, "")) for k in ("first", "last", "given", "family") if v.get(k))
            if isinstance(v, dict)
            else v
            for v in value
        ]
    else:
        # whitespace runs collapsed first: the separators' ``\s*`` on a long run of spaces is quadratic, and
        # every name is whitespace-collapsed by clean_field anyway
        text = _SPACE_RUN.sub(" ", str(value))
        names = re.split(r"\s*;\s*", text) if ";" in text else _AUTHOR_SPLIT.split(text)
    out = []
    for name in names:
        name = clean_field(_FOOTNOTE_MARKS.sub(" ", str(name or "")))
        if name and name.strip(".,- "):
            out.append(name.strip(" ,"))
    return out


_NAME_WORD = re.compile(
    r"^(?:[A-Z][\w'’\-]*\.?|[A-Z]\.(?:-?[A-Z]\.)*|(?:van|von|der|de|del|da|di|le|la|du|den|"
    r"ter|bin|al|el|dos|das))$"
)


def looks_like_authors(line: str) -> bool:
    """True when ``line`` reads as a list of person names (``A. Author, B. Author and C. Author``,
    ``Jane Doe1, John Smith2*``): short, no sentence end, each comma/and-separated part 1-5 words that start
    with a capital (particles such as ``van``/``de`` allowed), and most parts at least two words."""
    text = _FOOTNOTE_MARKS.sub(" ", line).strip()
    if not text or len(text) > 400 or text.endswith((":", "?", "!")) or re.search(r"[a-z]{3,}\.\s", text):
        return False
    parts = [p for p in _AUTHOR_SPLIT.split(text) if p.strip()]
    if not parts:
        return False
    good = multi = 0
    for p in parts:
        words = p.split()
        if 1 <= len(words) <= 5 and words[0][:1].isupper() and all(_NAME_WORD.match(w) for w in words):
            good += 1
            multi += len(words) >= 2
    return good == len(parts) and (multi >= max(1, len(parts) // 2))


def is_separator_line(line: str) -> bool:
    """A line of one repeated ``*``, ``=``, ``-``, ``_``, ``~`` or ``#`` character, at least 10 long."""
    s = line.strip()
    return len(s) >= 10 and s[0] in "*=-_~#" and s == s[0] * len(s)


def strip_accents_lower(text: str) -> str:
    """Case- and accent-folded text for matching field names (``Résumé`` → ``resume``)."""
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).casefold()
