"""Which reader fits a decoded listing: by content first, the file extension only where content is ambiguous.

Rules, in order (the first that holds names the reader):

0. YAML front matter naming a paper (a ``---`` first line; pipeline.ingest.readers.yaml_records
   ``front_matter_paper``): one paper per file;
1. starts with ``[`` or ``{``: JSON when the whole text parses, else JSON Lines when its first non-blank lines
   are objects, else (not a ``.json`` name; at most yaml_records.MAX_SNIFF_YAML_CHARS unless a YAML name) a
   YAML paper list when YAML parses it (flow style: JSON-like with
   trailing commas or tabs); a ``.yml``/``.yaml`` file that YAML parses into paper mappings: a YAML paper
   list;
2. an Atom/RSS feed (``<feed``/``<rss`` after an XML prolog: declaration, comments, a DOCTYPE); an HTML
   document (``<!DOCTYPE html``, ``<html``): no reader (a saved web page is not a listing); any other XML
   document (pipeline.ingest.readers.xml_records.PROLOG then a root element): XML records
   (pipeline.ingest.readers.xml_records, which says so when no element holds an abstract);
3. BibTeX: an ``@type{key,`` entry line and an ``abstract =`` field;
4. a markdown table whose header row names an abstract column; markdown paper headings: at least two
   ``#``-headings of one level and ``**Authors``/``<details>``/``**Abstract`` lines (or a ``.md`` name with
   two or more headings); a markdown list of papers (``- **Title**`` items,
   pipeline.ingest.readers.markdown.list_papers) in a file with headings, links or a ``.md`` name;
5. CSV/TSV: the first non-blank line splits (``,`` ``\\t`` ``;`` ``|``) into 2+ fields one of which names an
   abstract column (pipeline.ingest.readers.fields);
6. text records without separator lines, labelled (``Title:`` ... ``Abstract:`` ...) or blank-line
   paragraphs that open with a title and an author line: separated text (pipeline.ingest.readers.separated
   ``opening_label``, ``record_paragraphs``);
7. PDF first-page dumps: a line ``Abstract``/``Abstract.``/``Abstract:``/``Abstract—`` after 1 to
   MAX_FRONT_LINES short lines (at most MAX_FRONT_WORDS words) of front matter, in at least half of the pages;
8. separated text: at least two separator lines (a line of 10+ ``*``/``=``/``-``/``_``/``~``/``#``);
9. anything else that is text: the seed shape (header + paragraphs).

Pure functions.
"""

from __future__ import annotations

import json
import re

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
from pipeline.ingest.readers.base import is_separator_line
from pipeline.ingest.readers.fields import map_columns

#: At most this many non-blank lines of title/authors/affiliations before a PDF page's ``Abstract`` marker.
MAX_FRONT_LINES = 40
#: Front-matter lines (title, authors, affiliations) are short; a longer line before the marker is prose.
MAX_FRONT_WORDS = 30
_FEED = re.compile(rf"^{xml_records.PROLOG}<(?:\w+:)?(?:feed|rss|rdf:RDF)\b", re.DOTALL)
_XML = re.compile(rf"^{xml_records.PROLOG}<[A-Za-z_][\w.:\-]*[\s>]", re.DOTALL)
_HTML = re.compile(r"^\s*(?:<!doctype\s+html|<html\b)", re.IGNORECASE)
_MD_FIELD = re.compile(r"^\s*(?:\*\*|__)?(?:authors?|abstract)\b|<details", re.IGNORECASE | re.MULTILINE)


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
        return True
    except ValueError:
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


def choose(text: str, name: str) -> str | None:
    """The reader name (a key of pipeline.ingest.readers.READERS) for decoded ``text`` of file ``name``, or
    ``None`` when no reader fits (see the module docstring for the rules)."""
    stripped = text.lstrip("\ufeff \t\n")
    lines = text.split("\n")
    low_name = name.lower()
    if stripped.startswith("---") and yaml_records.front_matter_paper(text):
        return yaml_records.NAME_FRONT_MATTER
    is_yaml_name = low_name.endswith(yaml_records.YAML_SUFFIXES)
    if stripped[:1] in "[{" and stripped:
        if _is_json(stripped):
            return json_records.NAME_JSON
        if _jsonl_like(lines):
            return json_records.NAME_JSONL
        if (
            not low_name.endswith(".json")
            and (is_yaml_name or len(text) <= yaml_records.MAX_SNIFF_YAML_CHARS)
            and yaml_records.yaml_papers(text)
        ):
            return yaml_records.NAME_YAML
        return json_records.NAME_JSON if low_name.endswith(".json") else None
    if is_yaml_name and yaml_records.yaml_papers(text):
        return yaml_records.NAME_YAML
    if _FEED.match(stripped):
        return feed.NAME
    if _HTML.match(stripped):
        return None
    if _XML.match(stripped):
        return xml_records.NAME
    if bibtex.ENTRY.search(text) and re.search(r"^\s*abstract\s*=", text, re.IGNORECASE | re.MULTILINE):
        return bibtex.NAME
    table_rows = markdown._table_rows(lines[:400])
    if table_rows and "abstract" in map_columns(table_rows[1]):
        return markdown.NAME_TABLE
    levels = [h[0] for x in lines if (h := markdown.heading(x))]
    if levels:
        top = max(set(levels), key=levels.count)
        if levels.count(top) >= 2 and (_MD_FIELD.search(text) or low_name.endswith((".md", ".markdown"))):
            return markdown.NAME
    if (levels or "](http" in text or low_name.endswith((".md", ".markdown"))) and markdown.list_papers(
        lines[:20000]
    ):
        return markdown.NAME
    first = next((x for x in lines if x.strip()), "")
    delim, header = table.header_columns(first)
    if len(header) >= 2 and "abstract" in map_columns(header):
        return table.NAME
    if separated.opening_label(lines[:20000]) is not None or separated.record_paragraphs(lines[:20000]):
        return separated.NAME
    if _pdf_like(lines):
        return pdf_page.NAME
    if sum(1 for x in lines if is_separator_line(x)) >= separated.MIN_SEPARATORS:
        return separated.NAME
    if low_name.endswith((".csv", ".tsv")) and len(header) >= 2:
        return table.NAME  # the reader then says which column is missing
    return seed.NAME


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
            if front > MAX_FRONT_LINES or len(x.split()) > MAX_FRONT_WORDS:
                break
    return hits >= 1 and hits * 2 >= len(pages)


def describe(text: str) -> str:
    """A short description of a text no reader fits, for the error message."""
    first = next((x.strip() for x in text.split("\n") if x.strip()), "")
    return f"first line {first[:60]!r}" if first else "empty"
