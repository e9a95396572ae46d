"""YAML paper files: per-paper posts with YAML front matter (Jekyll, Hugo, Quarto: the pages proceedings sites
are built from, e.g. PMLR's ``_posts/*.md``) and YAML paper lists (a site's ``_data/papers.yml``).

Values are parsed by PyYAML's ``safe_load`` only (no object construction; aliases refused: :func:`safe_load`);
fields are found by name exactly as for JSON records (pipeline.ingest.readers.fields, via
pipeline.ingest.readers.json_records.records_from_doc).

- **Front matter** (:func:`read_front_matter`): the file opens with a line ``---``, the front matter runs to
  the next line ``---`` (or ``...``), the body follows. The front matter is one mapping: one record per file.
  The abstract is the mapping's abstract key (``abstract``, ``summary``, ...); the body is the abstract only
  when the mapping has no such key. No other key is ever part of the abstract. ``position`` = ``line`` = 1.
- **Paper lists** (:func:`read_yaml`): a YAML document holding the shapes JSON documents hold (a list of
  mappings, ``{papers: [...]}``, mappings keyed by id). A flow-style YAML file that looks like JSON but is not
  (a trailing comma, a tab inside a string) is read here by YAML's rules: double-quoted scalars decode YAML
  escapes (``\\t`` is a TAB), as the site generator that uses the file reads them.

Pure functions.
"""

from __future__ import annotations

import dataclasses
import re

import yaml

from pipeline.ingest.readers import markdown
from pipeline.ingest.readers.base import ReaderError, Record
from pipeline.ingest.readers.fields import flatten, fold, map_columns, record_from_fields
from pipeline.ingest.readers.json_records import paper_objects, records_from_doc
from pipeline.ingest.readers.markdown import heading

NAME_FRONT_MATTER = "front_matter"
NAME_YAML = "yaml"
#: A front-matter fence: a line of exactly three ``-`` (closing: also ``...``), trailing spaces allowed.
_OPEN = re.compile(r"---[ \t]*")
_CLOSE = re.compile(r"(?:---|\.\.\.)[ \t]*")
#: File names of YAML documents (the extension is how sites name their data files).
YAML_SUFFIXES = (".yml", ".yaml")
#: A text that opens like JSON but is not JSON is tried as YAML (:func:`yaml_papers`) only up to this many
#: characters unless its name says YAML: PyYAML's pure-Python parser reads about 1 MB a second, and a site's
#: data file is far smaller (the real ``accepted_papers.yml`` here: 54 kB).
MAX_SNIFF_YAML_CHARS = 4_000_000


class _SafeLoader(yaml.SafeLoader):
    """PyYAML's SafeLoader (``safe_load``: plain data only, no object construction) that also refuses aliases
    (``*name``): no paper file needs them, and nested aliases expand exponentially when a value is turned
    into text (an alias bomb)."""

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            raise yaml.composer.ComposerError(
                None, None, "aliases (*name) are not read in listing files", self.peek_event().start_mark
            )
        return super().compose_node(parent, index)


def safe_load(text: str):
    """``yaml.safe_load(text)`` without aliases (:class:`_SafeLoader`).

    Raises:
        yaml.YAMLError: invalid YAML or an alias; RecursionError: nesting deeper than Python's stack.
    """
    return yaml.load(text, Loader=_SafeLoader)  # noqa: S506  # a SafeLoader subclass


def split_front_matter(text: str) -> tuple[str, str, int] | None:
    """``(front matter, body, body's 1-based first line)`` when ``text`` (a BOM and leading blank lines
    allowed) opens with a ``---`` line closed by a later ``---``/``...`` line, else None."""
    lines = text.lstrip("\ufeff").split("\n")
    start = next((i for i, x in enumerate(lines) if x.strip()), None)
    if start is None or not _OPEN.fullmatch(lines[start]):
        return None
    end = next((j for j in range(start + 1, len(lines)) if _CLOSE.fullmatch(lines[j])), None)
    if end is None:
        return None
    return "\n".join(lines[start + 1 : end]), "\n".join(lines[end + 1 :]), end + 2


def _load(text: str, name: str, first_line: int = 1):
    """:func:`safe_load` of ``text``; a YAML error is a :class:`ReaderError` with the file line."""
    try:
        return safe_load(text)
    except RecursionError:
        raise ReaderError(name, "invalid YAML: nested deeper than the parser can follow") from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        line = mark.line + first_line if mark is not None else 0
        what = getattr(e, "problem", None) or str(e).split("\n")[0]
        raise ReaderError(name, f"invalid YAML: {what}", line) from None


def not_a_paper(doc: dict, body: str, columns: dict[str, str] | None = None) -> str | None:
    """Why front matter ``doc`` (a parsed mapping) with ``body`` is not one paper, else None. A paper's front
    matter names a title and either an abstract field (a generic ``description`` counts only with authors:
    pages use it for a site summary) or authors with a non-empty body (the body is then the abstract); and
    its body does not itself list papers (two or more markdown paper sections with abstracts: an "accepted
    papers" page whose front matter is the page's ``layout``/``title``). A blog post's ``layout``/``date`` is
    not a paper."""
    mapping = map_columns([str(k) for k in flatten(doc)], columns)
    if "title" not in mapping:
        return f"front matter names no title (keys: {list(doc)[:20]})"
    if "abstract" in mapping:
        if fold(mapping["abstract"]) == "description" and "authors" not in mapping:
            return "front matter names no abstract or authors, only a page description"
    elif "authors" not in mapping or not body.strip():
        return f"front matter names no abstract (keys: {list(doc)[:20]})"
    if _lists_papers(body):
        return "the page's body lists papers itself: read it as markdown"
    return None


def front_matter_paper(text: str) -> bool:
    """True when ``text`` opens with YAML front matter (:func:`split_front_matter`) that is one paper
    (:func:`not_a_paper` says None): the sniffing rule for :data:`NAME_FRONT_MATTER`."""
    found = split_front_matter(text)
    if found is None:
        return False
    try:
        doc = safe_load(found[0])
    except (yaml.YAMLError, RecursionError):
        return False
    return isinstance(doc, dict) and not_a_paper(doc, found[1]) is None


def _lists_papers(body: str) -> bool:
    """True when the markdown reader finds two or more paper sections with an abstract in ``body``."""
    if sum(1 for x in body.split("\n") if heading(x)) < 2:
        return False
    try:
        recs = markdown.read(body)[1]
    except ReaderError:
        return False
    return sum(bool(r.abstract_raw.strip()) for r in recs) >= 2


def read_front_matter(
    text: str, name: str, columns: dict[str, str] | None = None
) -> tuple[str | None, list[Record]]:
    """Read one per-paper file with YAML front matter; returns ``(None, [record])``.

    Raises:
        ReaderError: no front matter, invalid YAML (with the line), front matter that is not a mapping, or
            one that is not a paper (:func:`not_a_paper`).
    """
    found = split_front_matter(text)
    if found is None:
        raise ReaderError(name, "no YAML front matter (a first line '---' closed by a later '---' line)")
    front, body, body_line = found
    doc = _load(front, name, 2)
    if not isinstance(doc, dict):
        raise ReaderError(name, f"YAML front matter is a {type(doc).__name__}, not a mapping of fields", 1)
    why = not_a_paper(doc, body, columns)
    if why is not None:
        raise ReaderError(name, why, 1)
    obj = {str(k): v for k, v in flatten(doc).items()}
    mapping = map_columns(list(obj), columns)
    # the record spans the front matter (its closing fence is line body_line - 1); the body too when it is
    # the abstract. A body that is not (page content) is text this reading does not explain (coverage).
    end_line = body_line - 1
    if "abstract" not in mapping:
        obj["\0body"] = body  # a key no file can name: the body is the abstract
        mapping["abstract"] = "\0body"
        end_line = body_line + body.count("\n")
    rec = record_from_fields(obj, mapping, 1, 1)
    return None, [dataclasses.replace(rec, end_line=end_line)]


def yaml_papers(text: str) -> bool:
    """True when ``text`` parses as YAML (safe_load) into the paper shapes JSON documents hold (a list of
    mappings, ``{papers: [...]}``, ...) whose keys name an abstract field: the sniffing rule for
    :data:`NAME_YAML` (tried on ``.yml``/``.yaml`` files and on texts that open like JSON but do not parse as
    JSON)."""
    try:
        doc = safe_load(text)
    except (yaml.YAMLError, RecursionError):
        return False
    found = paper_objects(doc) if isinstance(doc, (list, dict)) else None
    if not found:
        return False
    keys: dict[str, None] = {}
    for o in found[0][:200]:
        keys.update(dict.fromkeys(str(k) for k in flatten(o)))
    return "abstract" in map_columns(list(keys))


def read_yaml(text: str, name: str, columns: dict[str, str] | None = None) -> tuple[str | None, list[Record]]:
    """Read a YAML paper list; returns ``(None, records)``; ``position`` = the 0-based index, ``line`` = 0.

    Raises:
        ReaderError: invalid YAML (with the line), no paper mappings, or no abstract field.
    """
    doc = _load(text, name)
    if isinstance(doc, list):
        doc = [{str(k): v for k, v in x.items()} if isinstance(x, dict) else x for x in doc]
    return None, records_from_doc(doc, name, columns, "YAML")
