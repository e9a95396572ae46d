"""BibTeX files whose entries carry ``abstract = {...}``: one record per ``@type{key, ...}`` entry
(``@string``, ``@preamble`` and ``@comment`` are not entries; a ``@proceedings`` entry describes the volume:
its ``shortname``/``booktitle``/``year`` form the header line, never a record). Field values in braces,
quotes or bare, kept as the file writes them (braces, LaTeX and all: ``abstract_raw`` is the field's text;
cleaning happens downstream); ``title``, ``author``, ``abstract``, ``booktitle``/``journal`` (venue text) and
``url``/``code`` by name (pipeline.ingest.readers.fields). Authors are split by BibTeX's own rule
(:func:`split_names`). ``source_id`` is the citation key; ``position`` = ``line`` = the entry's line;
``end_line`` the line of its closing brace (text after an entry is not its own).
"""

from __future__ import annotations

import re

from pipeline.ingest.readers.base import ReaderError, Record
from pipeline.ingest.readers.fields import map_columns, record_from_fields

NAME = "bibtex"
ENTRY = re.compile(r"^\s*@(?P<type>[A-Za-z]+)\s*[{(]\s*(?P<key>[^,\s]*)\s*,", re.MULTILINE)
_BARE = re.compile(r"[^,}\s]*")
_FIELD_NAME = re.compile(r"\s*,?\s*(?P<name>[A-Za-z][\w\-:.]*)\s*=\s*")
_CLOSE = re.compile(r"\s*,?\s*[})]")


def _value(text: str, i: int) -> tuple[str, int]:
    """The field value starting at ``text[i]``: ``{...}`` (balanced), ``"..."`` or a bare token."""
    if i < len(text) and text[i] == "{":
        depth, j = 0, i
        while j < len(text):
            c = text[j]
            if c == "\\":
                j += 2
                continue
            depth += c == "{"
            depth -= c == "}"
            if depth == 0:
                return text[i + 1 : j], j + 1
            j += 1
        return text[i + 1 :], len(text)
    if i < len(text) and text[i] == '"':
        j = i + 1
        while j < len(text) and (text[j] != '"' or text[j - 1] == "\\"):
            j += 1
        return text[i + 1 : j], j + 1
    m = _BARE.match(text, i)
    assert m is not None  # the pattern matches the empty string too
    return m.group(), m.end()


def _fields(body: str) -> tuple[dict[str, str], int]:
    """The fields of an entry's body (the text after ``@type{key,``) and the offset in ``body`` just after
    the entry (after its closing brace or parenthesis when one follows the last field)."""
    out: dict[str, str] = {}
    i = 0
    while True:
        m = _FIELD_NAME.match(body, i)
        if not m:
            close = _CLOSE.match(body, i)
            return out, close.end() if close else i
        value, i = _value(body, m.end())
        out[m["name"].lower()] = value


def _top_level_split(text: str, sep: re.Pattern) -> list[str]:
    """``text`` cut at every match of ``sep`` outside braces (``{Barnes and Noble}`` is one name)."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c in "{}":
            depth += 1 if c == "{" else -1
        elif depth == 0 and (m := sep.match(text, i)):
            parts.append(text[start:i])
            start = i = m.end()
            continue
        i += 1
    parts.append(text[start:])
    return parts


_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
_COMMA = re.compile(r",")


def split_names(value: str) -> list[str]:
    """BibTeX names (``author``/``editor``): cut at `` and `` outside braces, each name turned to ``First
    Last``: ``Last, First`` → ``First Last``, ``Last, Jr, First`` → ``First Last Jr``, ``First Last`` as is;
    empty parts (``Canonne, Clément L, and …``: a stray comma) ignored; ``others`` (et al.) dropped. LaTeX
    is kept (cleaned downstream). Source: the BibTeX name format (Patashnik, "BibTeXing", 1988, section 4)."""
    names = []
    for raw in _top_level_split(" ".join(value.split()), _AND):
        parts = [p.strip() for p in _top_level_split(raw, _COMMA) if p.strip()]
        if not parts or (len(parts) == 1 and parts[0].lower() == "others"):
            continue
        if len(parts) == 1:
            names.append(parts[0])
        elif len(parts) == 2:
            names.append(f"{parts[1]} {parts[0]}")
        else:
            names.append(f"{' '.join(parts[2:])} {parts[0]} {parts[1]}")
    return names


def read(text: str, name: str, columns: dict[str, str] | None = None) -> tuple[str | None, list[Record]]:
    """Read BibTeX entries; returns ``(header, records)``: the header is the first ``@proceedings`` entry's
    ``shortname`` (else ``booktitle``) and ``year`` (``COLT 2019``), ``None`` without one.

    Raises:
        ReaderError: no entry has an abstract field.
    """
    starts = [m for m in ENTRY.finditer(text) if m["type"].lower() not in ("string", "preamble", "comment")]
    entries: list[tuple[int, int, dict[str, str | list[str]]]] = []
    volume: list[dict[str, str]] = []
    line, counted = 1, 0  # lines counted up to ``counted``: linear in the file, not in entries x size
    for k, m in enumerate(starts):
        end = starts[k + 1].start() if k + 1 < len(starts) else len(text)
        fields, used = _fields(text[m.end() : end])
        line += text.count("\n", counted, m.start())
        counted = m.start()
        last = line + text.count("\n", m.start(), max(m.start(), m.end() + used - 1))
        if m["type"].lower() == "proceedings":
            volume.append(fields)
            continue
        fields.setdefault("id", m["key"])
        record: dict[str, str | list[str]] = dict(fields)
        for key in ("author", "editor"):
            if key in fields:
                record[key] = split_names(fields[key])
        entries.append((line, last, record))
    names = list(dict.fromkeys(n for _, _, f in entries for n in f))
    mapping = map_columns(names, columns)
    if "abstract" not in mapping:
        raise ReaderError(name, "BibTeX entries without an abstract field: a bibliography, not a listing")
    header = None
    if volume:
        v = volume[0]
        parts = [v.get("shortname") or v.get("booktitle") or v.get("title"), v.get("year")]
        header = " ".join(" ".join(p.replace("{", "").replace("}", "").split()) for p in parts if p) or None
    return header, [record_from_fields(f, mapping, line, line, last) for line, last, f in entries]
