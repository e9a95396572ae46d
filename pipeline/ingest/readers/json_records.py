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
        ReaderError: invalid JSON (with the line), no paper objects, or no abstract field.
    """
    try:
        doc = json.loads(text)
    except json.JSONDecodeError as e:
        raise ReaderError(name, f"invalid JSON: {e.msg}", e.lineno) from None
    return None, records_from_doc(doc, name, columns, "JSON")


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

    Raises:
        ReaderError: no line holds an object with an abstract field.
    """
    parsed: list[tuple[int, dict | None, str | None]] = []
    for i, line in enumerate(text.split("\n"), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            parsed.append((i, obj, None) if isinstance(obj, dict) else (i, None, "not a JSON object"))
        except json.JSONDecodeError as e:
            parsed.append((i, None, f"invalid JSON: {e.msg} at column {e.colno}"))
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
