"""BibTeX files whose entries carry ``abstract = {...}``: one record per ``@type{key, ...}`` entry
(``@string``, ``@preamble`` and ``@comment`` are not entries). Field values in braces (nested braces kept),
quotes or bare; ``title``, ``author`` (``A and B``), ``abstract``, ``booktitle``/``journal`` (venue text) and
``url``/``code`` by name (pipeline.ingest.readers.fields). ``source_id`` is the citation key; ``position`` =
``line`` = the entry's line; ``end_line`` the line of its closing brace (text after an entry is not its own).
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
        out[m["name"].lower()] = re.sub(r"(?<!\\)[{}]", "", value)


def read(text: str, name: str, columns: dict[str, str] | None = None) -> tuple[str | None, list[Record]]:
    """Read BibTeX entries; returns ``(None, records)``.

    Raises:
        ReaderError: no entry has an abstract field.
    """
    starts = [m for m in ENTRY.finditer(text) if m["type"].lower() not in ("string", "preamble", "comment")]
    entries = []
    line, counted = 1, 0  # lines counted up to ``counted``: linear in the file, not in entries x size
    for k, m in enumerate(starts):
        end = starts[k + 1].start() if k + 1 < len(starts) else len(text)
        fields, used = _fields(text[m.end() : end])
        fields.setdefault("id", m["key"])
        line += text.count("\n", counted, m.start())
        counted = m.start()
        last = line + text.count("\n", m.start(), max(m.start(), m.end() + used - 1))
        entries.append((line, last, fields))
    names = list(dict.fromkeys(n for _, _, f in entries for n in f))
    mapping = map_columns(names, columns)
    if "abstract" not in mapping:
        raise ReaderError(name, "BibTeX entries without an abstract field: a bibliography, not a listing")
    return None, [record_from_fields(f, mapping, line, line, last) for line, last, f in entries]
