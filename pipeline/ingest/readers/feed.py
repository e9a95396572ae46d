"""Atom and RSS feeds (arXiv's API and listing feeds, journal RSS): one record per ``<entry>`` / ``<item>``.

Parsed with the stdlib ``xml.etree.ElementTree`` (namespaces ignored). Atom: ``title``, ``summary`` (or
``content``), ``author/name``, ``id``, ``arxiv:comment`` (venue text), ``published`` (year); RSS: ``title``,
``description``, ``dc:creator``/``author``, ``guid``/``link``. ``position`` is the 0-based entry index.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

from pipeline.ingest.readers import xml_records
from pipeline.ingest.readers.base import (
    ReaderError,
    Record,
    clean_field,
    control_problem,
    raw_text,
    split_authors,
)

NAME = "feed"


def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1].lower()


def _children(el) -> dict[str, list]:
    out: dict[str, list] = {}
    for c in el:
        out.setdefault(_local(c.tag), []).append(c)
    return out


def _text(el) -> str:
    return "".join(el.itertext()) if el is not None else ""


def _pick(first: dict, *names: str):
    """The first child element among ``names`` (Elements without children are falsy: test for None)."""
    return next((first[n] for n in names if first.get(n) is not None), None)


def read(text: str, name: str) -> tuple[str | None, list[Record]]:
    """Read an Atom or RSS feed; returns ``(feed title, records)``.

    Raises:
        ReaderError: entities declared (pipeline.ingest.readers.xml_records.refuse_entities), not
            well-formed XML (with the line), or no entries/items.
    """
    xml_records.refuse_entities(text, name)
    try:
        root = ET.fromstring(text.lstrip("\ufeff"))
    except ET.ParseError as e:
        raise ReaderError(name, f"invalid XML feed: {e}", e.position[0]) from None
    entries = [el for el in root.iter() if _local(el.tag) in ("entry", "item")]
    if not entries:
        raise ReaderError(name, "XML without <entry> or <item> elements: not a feed of papers")
    header = None
    feed_title = next((c for c in root if _local(c.tag) == "title"), None)
    if feed_title is not None:
        header = clean_field(_text(feed_title))
    records = []
    for i, el in enumerate(entries):
        kids = _children(el)
        first = {k: v[0] for k, v in kids.items()}
        abstract = _text(_pick(first, "summary", "description", "content", "abstract"))
        names = [_text(_children(a).get("name", [a])[0]) for a in kids.get("author", [])]
        names += [_text(c) for c in kids.get("creator", [])]
        published = _text(_pick(first, "published", "pubdate", "date"))[:4]
        records.append(
            Record(
                position=i,
                line=0,
                abstract_raw=raw_text(abstract),
                title=clean_field(_text(first.get("title"))),
                authors=[a for n in names for a in split_authors(n)],
                source_id=clean_field(_text(_pick(first, "id", "guid"))),
                source_status=None,
                venue_text=clean_field(_text(_pick(first, "comment", "journal_ref"))),
                year_text=published if published.isdigit() else None,
                problem=control_problem(abstract),
            )
        )
    return header, records
