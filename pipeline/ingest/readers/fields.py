"""Which field of a structured record (CSV/TSV row, JSON object, BibTeX entry) holds what: names as data.

:data:`FIELD_NAMES` lists, per record field, the column/key names that hold it, most specific first; names are
matched after folding case, accents, spaces, ``-`` and ``_`` (``Paper Abstract`` = ``paper_abstract``). A
settings file's ``[columns]`` table overrides them per file. Sources: the keys of papercopilot's paperlists
files, arXiv feed/API records, OpenReview exports, Semantic Scholar / DBLP / ACL Anthology dumps, Kaggle paper
datasets, BibTeX fields and CSL (citeproc) YAML/JSON (``container-title``: PMLR's post front matter).
"""

from __future__ import annotations

import re
from functools import lru_cache

from pipeline.ingest.readers.base import (
    Record,
    clean_field,
    control_problem,
    raw_text,
    split_authors,
    strip_accents_lower,
)

FIELD_NAMES: dict[str, tuple[str, ...]] = {
    "abstract": (
        "abstract",
        "paper_abstract",
        "abstract_text",
        "abstracttext",
        "summary",
        "abs",
        "paper_summary",
        "abstract_en",
        "description",
    ),
    "title": ("title", "paper_title", "papertitle", "title_en", "name", "paper_name"),
    "authors": (
        "authors",
        "author",
        "author_names",
        "authornames",
        "authors_list",
        "creators",
        "author_list",
        "authors_parsed",
        "people",
    ),
    "source_id": (
        "id",
        "paper_id",
        "paperid",
        "openreview_id",
        "forum",
        "forum_id",
        "arxiv_id",
        "arxivid",
        "doi",
        "uid",
        "key",
        "entry_id",
        "corpusid",
        "number",
        "submission_id",
    ),
    "source_status": (
        "status",
        "decision",
        "presentation",
        "presentation_type",
        "session_type",
        "award",
        "acceptance",
        "type_of_presentation",
        "event_type",
        "track_type",
    ),
    "code": (
        "github",
        "code",
        "code_url",
        "codeurl",
        "code_link",
        "repo",
        "repository",
        "github_url",
        "github_link",
        "source_code",
        "implementation",
        "pwccode",  # ACL Anthology XML: the Papers with Code repository link
    ),
    "project": (
        "project",
        "project_page",
        "projectpage",
        "project_url",
        "website",
        "webpage",
        "project_link",
    ),
    "comment": (
        "comment",
        "comments",
        "journal_ref",
        "journalref",
        "venue",
        "venue_name",
        "conference",
        "conference_name",
        "event",
        "event_name",
        "booktitle",
        "container_title",
        "proceedings_title",
        "journal",
        "note",
        "proceedings",
        "proceeding",
        "container_title",
    ),
    "year": ("year", "pub_year", "publication_year", "conference_year"),
}
#: Record fields of :data:`FIELD_NAMES` a settings file's ``[columns]`` may map.
MAPPABLE = tuple(FIELD_NAMES)
_URL = re.compile(r"https?://\S+|www\.\S+")


@lru_cache(maxsize=65536)
def fold(name: str) -> str:
    """A column/key name folded for matching: casefold, no accents, no spaces, ``-``, ``_`` or ``.``."""
    return re.sub(r"[\s\-_.]+", "", strip_accents_lower(str(name)))


_FOLDED = {f: tuple(fold(n) for n in names) for f, names in FIELD_NAMES.items()}


def map_columns(names: list[str], override: dict[str, str] | None = None) -> dict[str, str]:
    """Record field → the column/key of ``names`` that holds it (only the fields found).

    ``override`` (a settings file's ``[columns]``: field → column name) wins; the rest come from
    :data:`FIELD_NAMES`, most specific name first, each column used once. An overridden name missing from
    ``names`` is simply absent from the result (the caller reports it).
    """
    out: dict[str, str] = {}
    by_fold: dict[str, str] = {}
    for n in names:
        by_fold.setdefault(fold(n), n)
    used: set[str] = set()
    for f, col in (override or {}).items():
        if col in names:
            out[f] = col
            used.add(col)
    for f, folded in _FOLDED.items():
        if f in out:
            continue
        for cand in folded:
            hit = by_fold.get(cand)
            if hit is not None and hit not in used:
                out[f] = hit
                used.add(hit)
                break
    if "abstract" in out and out.get("title") == out["abstract"]:
        del out["title"]
    return out


def _links(value) -> list[str]:
    """URLs of a link field (a string that may hold several, ``;``-separated; or a list); non-URLs dropped."""
    items = value if isinstance(value, list) else re.split(r"[;\s,]+", str(value or ""))
    out = []
    for item in items:
        item = str(item or "").strip()
        if _URL.fullmatch(item):
            out.append(item if "://" in item else "https://" + item)
    return out


def flatten(obj: dict) -> dict:
    """A paper object with nested fields lifted: OpenReview notes' ``content`` (API v1 ``{"title": "..."}``
    and v2 ``{"title": {"value": "..."}}``) merged into the top level (the top level wins), ``{"value": x}``
    unwrapped."""
    content = obj.get("content")
    out = dict(obj)
    if isinstance(content, dict):
        out = {**content, **{k: v for k, v in obj.items() if k != "content"}}
    return {
        k: v["value"]
        if isinstance(v, dict) and set(v) <= {"value", "readers", "writers", "signatures"} and "value" in v
        else v
        for k, v in out.items()
    }


def lift_nested(objs: list[dict]) -> list[dict]:
    """Records whose paper sits one level down (Hugging Face daily papers: ``{"paper": {"title", "summary",
    ...}, "numComments": 3}``): when the top-level keys name no abstract but the values of one key are objects
    that do, that object's fields are lifted into the record (:func:`flatten`ed; the top level wins on equal
    keys). Other records are returned unchanged."""
    names: dict[str, None] = {}
    for o in objs[:200]:
        names.update(dict.fromkeys(o))
    if "abstract" in map_columns(list(names)):
        return objs
    for key in names:
        inner: dict[str, None] = {}
        for o in objs[:200]:
            if isinstance(o.get(key), dict):
                inner.update(dict.fromkeys(o[key]))
        if inner and "abstract" in map_columns(list(inner)):
            return [
                {**flatten(o[key]), **{k: v for k, v in o.items() if k != key}}
                if isinstance(o.get(key), dict)
                else o
                for o in objs
            ]
    return objs


def _empty(value) -> bool:
    return value is None or (isinstance(value, str) and not value.strip()) or value == [] or value == {}


@lru_cache(maxsize=1024)
def _alternatives(columns: tuple[tuple[str, str], ...], keys: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """Per field, the keys of a record (``keys``) that name it (:data:`FIELD_NAMES` order) and are no
    field's column in ``columns``; cached: the records of one file share their keys."""
    used = {c for _, c in columns}
    by_fold: dict[str, str] = {}
    for k in keys:
        if k not in used:
            by_fold.setdefault(fold(k), k)
    return {f: tuple(by_fold[n] for n in names if n in by_fold) for f, names in _FOLDED.items()}


def _values(obj: dict, columns: dict[str, str]) -> dict:
    """``obj``'s value of every field of :data:`FIELD_NAMES`: its column from :func:`map_columns`; when this
    record has none there (missing, null or blank), the first other name of the field that this record has
    and no field's column is (records of one file may name a field differently: most records of an export
    say ``venue``, a few also carry ``comment``, which then becomes the file's column for the field)."""
    out = {}
    alternatives: dict[str, tuple[str, ...]] | None = None
    for field in _FOLDED:
        value = obj.get(columns[field]) if field in columns else None
        if _empty(value):
            if alternatives is None:
                alternatives = _alternatives(tuple(columns.items()), tuple(obj))
            value = next((obj[k] for k in alternatives[field] if not _empty(obj[k])), value)
        out[field] = value
    return out


def record_from_fields(
    obj: dict, columns: dict[str, str], position: int, line: int, end_line: int = 0
) -> Record:
    """A :class:`Record` from one structured record ``obj`` (key → value) and ``columns`` (from
    :func:`map_columns`); a field this record leaves empty in its column is read from another of its names
    (:func:`_values`). ``source_urls``: the code links first, then project links, in field order, each
    once. A control character anywhere in the abstract or title makes the record's ``problem``.
    ``end_line``: the record's last line (pipeline.ingest.readers.base.Record), 0 when not known."""
    get = _values(obj, columns)
    abstract = get.get("abstract")
    if isinstance(abstract, (list, dict)):
        abstract = " ".join(str(x) for x in (abstract.values() if isinstance(abstract, dict) else abstract))
    raw_abstract = "" if abstract is None else str(abstract)
    raw_title = "" if get.get("title") is None else str(get.get("title"))
    urls = list(dict.fromkeys(_links(get.get("code")) + _links(get.get("project"))))
    sid = get.get("source_id")
    return Record(
        position=position,
        line=line,
        abstract_raw=raw_text(raw_abstract),
        title=clean_field(get.get("title")),
        authors=split_authors(get.get("authors")),
        source_id=clean_field(sid) if sid is not None else None,
        source_status=clean_field(get.get("source_status")),
        source_urls=urls,
        problem=control_problem(raw_abstract) or control_problem(raw_title),
        venue_text=clean_field(get.get("comment")),
        year_text=clean_field(get.get("year")),
        end_line=end_line,
    )
