"""JSON and JSON Lines records (the stdlib ``json`` module parses): papercopilot's paperlists files (an array
of paper objects), arXiv feed records (``summary``, ``authors`` as a list, ``comment``), OpenReview/Semantic
Scholar exports, Hugging Face daily papers (the paper one level down:
pipeline.ingest.readers.fields.lift_nested).

Accepted documents: an array of objects; an object holding such an array (``{"papers": [...]}``,
``{"data": [...]}``: the longest array of objects); an object of objects keyed by id (the key is the
``source_id`` when the object has no id field); a single paper object. JSON Lines: one object per non-blank
              line;
a line that is not a JSON object is that record's problem. Fields are found by name
(pipeline.ingest.readers.fields).
``position``: the 0-based index in the array/object, or the line (JSON Lines).
"""

from __future__ import annotations

import json

from pipeline.ingest.readers.base import ReaderError, Record
from pipeline.ingest.readers.fields import flatten, lift_nested, map_columns, record_from_fields

NAME_JSON = "json"
NAME_JSONL = "jsonl"


def paper_objects(doc) -> tuple[list[dict], list[str] | None] | None:
    """The paper objects of a parsed JSON document and, for an object keyed by id, the keys; None if none."""
    if isinstance(doc, list):
        return (
            ([x for x in doc if isinstance(x, dict)], None) if any(isinstance(x, dict) for x in doc) else None
        )
    if not isinstance(doc, dict):
        return None
    arrays = [v for v in doc.values() if isinstance(v, list) and v and all(isinstance(x, dict) for x in v)]
    if arrays:
        return max(arrays, key=len), None
    if doc and all(isinstance(v, dict) for v in doc.values()):
        return list(doc.values()), list(doc.keys())
    return [doc], None


def _key_names(objs: list[dict]) -> list[str]:
    names: dict[str, None] = {}
    for o in objs[:200]:
        names.update(dict.fromkeys(o))
    return list(names)


def read_json(text: str, name: str, columns: dict[str, str] | None = None) -> tuple[str | None, list[Record]]:
    """Read a JSON document; returns ``(None, records)``.

    Raises:
        ReaderError: invalid JSON, naming the line and column (:func:`json_error`: where the text ends, and
            that the file looks truncated, when the parser ran out of text), no paper objects, or no
            abstract field.
    """
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        reason, line, column = json_error(e, text)
        raise ReaderError(name, reason, line, column) from None
    return None, records_from_doc(doc, name, columns, "JSON")


#: The parser's message when a string's closing quote is missing: it read to the end of the text.
_UNTERMINATED = "Unterminated string starting at"


def ends_early(error: json.JSONDecodeError, text: str) -> bool:
    """True when ``text`` failed to parse because it ended before the document did (a JSON value cut off:
    a string never closed, or the parser wanting more at the end, whitespace aside)."""
    return error.msg == _UNTERMINATED or error.pos >= len(text.rstrip())


def json_error(error: json.JSONDecodeError, text: str) -> tuple[str, int, int]:
    """``(reason, line, column)`` of a JSON parse ``error`` of ``text`` (1-based line and column).

    When the text ended before the document did (:func:`ends_early`), line and column are where the text
    ends (after its last character, trailing whitespace aside) and the reason says the file looks
    truncated, with the parser's message (and where it found it, when elsewhere: the start of a string never
    closed): ``invalid JSON: the text ends inside an unfinished value (Unterminated string starting at: line
    47 column 15); the file looks truncated (cut off before its end): export or download it again``.
    Otherwise the parser's position and ``invalid JSON: <message>``."""
    if not ends_early(error, text):
        return f"invalid JSON: {error.msg}", error.lineno, error.colno
    body = text.rstrip()
    line = body.count("\n") + 1
    column = len(body) - (body.rfind("\n") + 1) + 1
    said = error.msg if error.pos >= len(body) else f"{error.msg}: line {error.lineno} column {error.colno}"
    return (
        f"invalid JSON: the text ends inside an unfinished value ({said}); the file looks truncated (cut "
        "off before its end): export or download it again",
        line,
        column,
    )


def records_from_doc(doc, name: str, columns: dict[str, str] | None, what: str) -> list[Record]:
    """The records of a parsed document (JSON, or YAML: the same shapes, see the module docstring); ``what``
    names the format in errors.

    Raises:
        ReaderError: no paper objects, paper objects mixed with other values, or no abstract field.
    """
    found = paper_objects(doc)
    if found is None:
        raise ReaderError(
            name,
            f'{what} holds no paper objects (expected an array of objects, {{"papers": [...]}} '
            "or objects keyed by id)",
        )
    objs, keys = found
    objs = lift_nested([flatten(o) for o in objs])
    if any(not isinstance(x, dict) for x in (doc if isinstance(doc, list) else [])):
        raise ReaderError(name, f"{what} array mixes paper objects with other values")
    mapping = map_columns(_key_names(objs), columns)
    if "abstract" not in mapping:
        raise ReaderError(
            name,
            f"{what} records have no abstract field (keys: {_key_names(objs)[:20]}); name it in "
            'a settings file\'s [columns] abstract = "..."',
        )
    records = []
    for i, obj in enumerate(objs):
        rec = record_from_fields(obj, mapping, i, 0)
        if keys is not None and rec.source_id is None:
            rec.source_id = str(keys[i])
        records.append(rec)
    return records


def read_jsonl(
    text: str, name: str, columns: dict[str, str] | None = None
) -> tuple[str | None, list[Record]]:
    """Read JSON Lines; returns ``(None, records)``; ``position`` = ``line`` = the record's line.

    A line that does not parse is its record's problem (``malformed_record: ...``, :func:`jsonl_error`:
    the line and column; for the file's last line cut off, that the file looks truncated).

    Raises:
        ReaderError: no line holds an object with an abstract field.
    """
    parsed: list[tuple[int, dict | None, str | None]] = []
    lines = text.split("\n")
    last = max((i for i, line in enumerate(lines, 1) if line.strip()), default=0)
    for i, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            parsed.append((i, obj, None) if isinstance(obj, dict) else (i, None, "not a JSON object"))
        except json.JSONDecodeError as e:
            parsed.append((i, None, jsonl_error(e, line, i, i == last)))
    parsed = [(i, flatten(o) if o is not None else None, e) for i, o, e in parsed]
    lifted = iter(lift_nested([o for _, o, _ in parsed if o is not None]))
    parsed = [(i, next(lifted) if o is not None else None, e) for i, o, e in parsed]
    objs = [o for _, o, _ in parsed if o is not None]
    mapping = map_columns(_key_names(objs), columns)
    if "abstract" not in mapping:
        raise ReaderError(name, f"JSON Lines records have no abstract field (keys: {_key_names(objs)[:20]})")
    records = []
    for i, obj, err in parsed:
        if obj is None:
            records.append(Record(position=i, line=i, abstract_raw="", problem=f"malformed_record: {err}"))
        else:
            records.append(record_from_fields(obj, mapping, i, i))
    return None, records


def jsonl_error(error: json.JSONDecodeError, line: str, number: int, last: bool) -> str:
    """The problem of JSON Lines line ``number`` (its text ``line``) that failed to parse with ``error``:
    ``invalid JSON at line N, column C: <message>``; when it is the file's ``last`` non-blank line and the
    text ended before the object did (:func:`ends_early`), the column is where the line ends and it says the
    last line is cut off and the file looks truncated."""
    if last and ends_early(error, line):
        column = len(line.rstrip()) + 1
        return (
            f"invalid JSON at line {number}, column {column}: the last line ends inside an unfinished "
            f"object ({error.msg}: column {error.colno}); the file looks truncated (cut off before its end)"
        )
    return f"invalid JSON at line {number}, column {error.colno}: {error.msg}"
