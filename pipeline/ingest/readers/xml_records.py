"""XML documents of paper records that are not feeds (ACL Anthology volumes, conference-site exports):
one record per element of the repeated kind that holds an abstract.

Parsed with the stdlib ``xml.etree.ElementTree`` (namespaces ignored; expat refuses entity-expansion
bombs). The record element is the most frequent tag among the elements with a child whose name
pipeline.ingest.readers.fields maps to the abstract (``<abstract>``, ``<summary>``, ``<paperAbstract>``...);
each record's children are its fields, matched by name like JSON keys (repeated children such as ``<author>``
become a list, attributes such as ``id`` are fields too; an author's parts ``<first>``/``<last>`` are
joined by a space). Fields outside the records that name the venue or the year (``<booktitle>``,
``<year>`` in a volume's ``<meta>``) are the venue and year of the records under them (per volume), and
an ACL Anthology collection id on the root (``<collection id="2021.eacl">``, ``K19``) forms the header
line (else the first two such fields outside the records do). ``position`` is the 0-based record index,
``line`` the line of the record's start tag.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections import Counter
from xml.parsers import expat

from pipeline.ingest.readers.base import ReaderError, Record
from pipeline.ingest.readers.fields import map_columns, record_from_fields
from pipeline.ingest.readers.venues import acl_anthology_id

NAME = "xml"
#: What may come before an XML document's root element (XML 1.0, "Prolog and Document Type Declaration"): the
#: ``<?xml ...?>`` declaration and other processing instructions, comments, and one ``<!DOCTYPE ...>`` with
#: or without an internal subset ``[...]``, with whitespace between them. Possessive throughout: a prolog is
#: read one way, and a long run of ``<!--`` or ``[`` costs linear time.
PROLOG = r"(?:<\?[^>]*+>\s*+|<!--.*?-->\s*+|<!DOCTYPE\b(?:[^\[>]++|\[[^\]]*+\])*+>\s*+)*+"
_PROLOG = re.compile(PROLOG, re.DOTALL)


def refuse_entities(text: str, name: str) -> None:
    """Raise ReaderError when the document's prolog (:data:`PROLOG`) declares an entity (``<!ENTITY``): an
    entity would put text the records do not hold into them (or expand without bound), so such a document is
    refused whole, like the expansion bombs expat refuses."""
    prolog = _PROLOG.match(text.lstrip("\ufeff \t\n"))
    if prolog is not None and "<!ENTITY" in prolog.group():
        raise ReaderError(name, "XML declares entities (<!ENTITY> in its DOCTYPE): refused, not expanded")


def _local(tag) -> str:
    return str(tag).rsplit("}", 1)[-1]


def _text(el) -> str:
    """The element's text; children's texts joined by a space (``<first>A</first><last>B</last>`` →
    ``A B``)."""
    parts = [" ".join(t.split()) for t in el.itertext()]
    return " ".join(p for p in parts if p)


def _fields(el) -> dict:
    """A record element's attributes (``<paper id="3">``) and children: name → text, or list of texts when a
    child repeats; a child wins over an attribute of the same name. A child with a ``url`` or ``href``
    attribute (a link: ACL Anthology's ``<pwccode url=...>``) gives that target, not its label."""
    out: dict = {_local(k): v for k, v in el.attrib.items()}
    own = set()
    for c in el:
        key = _local(c.tag)
        value = _text(c) if len(c) and key.lower().startswith(("author", "creator", "editor")) else None
        value = value if value is not None else "".join(c.itertext())
        # a link element gives its target in an attribute: <pwccode url="https://github.com/a/b">a/b</pwccode>
        value = c.attrib.get("url") or c.attrib.get("href") or value
        if key in own:
            out[key] = (out[key] if isinstance(out[key], list) else [out[key]]) + [value]
        else:
            out[key] = value
            own.add(key)
    return out


def _start_lines(text: str) -> list[int]:
    """The 1-based line of every element's start tag, in document order (the order of ``Element.iter()``
    over the parsed root): a second pass of expat, which ElementTree parses with but whose positions it
    drops."""
    lines: list[int] = []
    parser = expat.ParserCreate()
    parser.StartElementHandler = lambda _tag, _attrs: lines.append(parser.CurrentLineNumber)
    parser.Parse(text.lstrip("\ufeff"), True)
    return lines


def read(text: str, name: str, columns: dict[str, str] | None = None) -> tuple[str | None, list[Record]]:
    """Read an XML document of paper records; returns ``(header or None, records)``.

    Raises:
        ReaderError: entities declared (:func:`refuse_entities`), not well-formed XML (with the line), or no
            element holds an abstract field.
    """
    refuse_entities(text, name)
    try:
        root = ET.fromstring(text.lstrip("\ufeff"))
    except ET.ParseError as e:
        raise ReaderError(name, f"invalid XML: {e}", e.position[0]) from None
    kinds: Counter = Counter()
    for el in root.iter():
        if len(el) and "abstract" in map_columns([_local(c.tag) for c in el], columns):
            kinds[_local(el.tag)] += 1
    if not kinds:
        tags = sorted({_local(el.tag) for el in root.iter()})[:15]
        raise ReaderError(
            name,
            f"XML without paper records: no element has an abstract child (tags: {tags}); name the "
            'abstract element in a settings file\'s [columns] abstract = "..."',
        )
    kind = kinds.most_common(1)[0][0]
    line_of = dict(zip(map(id, root.iter()), _start_lines(text)))
    elements = [el for el in root.iter() if _local(el.tag) == kind]
    inside = {id(x) for el in elements for x in el.iter()}
    header = _collection_header(root) or _meta_text(root, inside, ("comment", "year"))
    objs = [_fields(el) for el in elements]
    keys = list(dict.fromkeys(k for o in objs[:200] for k in o))
    mapping = map_columns(keys, columns)
    records = [
        record_from_fields(o, mapping, i, line_of.get(id(el), 0))
        for i, (el, o) in enumerate(zip(elements, objs))
    ]
    _volume_venues(root, kind, inside, records)
    return header, records


def _meta_text(container, inside: set[int], fields: tuple[str, ...]) -> str | None:
    """The texts of ``container``'s leaf elements outside the records (``inside``: ids of the records'
    elements) that name ``fields`` (pipeline.ingest.readers.fields: ``comment`` = ``booktitle``, ``venue``...;
    ``year``), the first two, joined by a space; ``None`` when there are none."""
    outer = [el for el in container.iter() if id(el) not in inside and not len(el)]
    meta = map_columns([_local(el.tag) for el in outer])
    parts = [
        " ".join("".join(el.itertext()).split())
        for f in fields
        if f in meta
        for el in outer
        if _local(el.tag) == meta[f]
    ][:2]
    return " ".join(p for p in parts if p) or None


def _collection_header(root) -> str | None:
    """``"<venue> <year> (collection <id>)"`` when the root's ``id`` is an ACL Anthology collection id
    (``2021.eacl``, ``K19``: pipeline.ingest.readers.venues.acl_anthology_id) that names a venue, else
    ``None``."""
    cid = root.get("id")
    got = acl_anthology_id(cid)
    if got is None or got[0] is None:
        return None
    return f"{got[0]} {got[1]} (collection {cid})"


def _volume_venues(root, kind: str, inside: set[int], records: list[Record]) -> None:
    """Each record without a venue or year field of its own gets those of its volume: the nearest ancestor
    of the record elements (an ACL Anthology ``<volume>``) whose leaves outside the records name them
    (``<meta><booktitle>``, ``<year>``). Volumes of one file may differ (CoNLL's main volume and its shared
    task). Changes ``records`` in place."""
    parent = {id(c): p for p in root.iter() for c in p}
    by_el = [el for el in root.iter() if _local(el.tag) == kind]
    cache: dict[int, tuple[str | None, str | None]] = {}
    for el, rec in zip(by_el, records):
        anc = parent.get(id(el))
        while anc is not None and anc is not root:
            if id(anc) not in cache:
                cache[id(anc)] = (_meta_text(anc, inside, ("comment",)), _meta_text(anc, inside, ("year",)))
            if cache[id(anc)] != (None, None):
                break
            anc = parent.get(id(anc))
        venue, year = cache.get(id(anc), (None, None)) if anc is not None else (None, None)
        if rec.venue_text is None and venue is not None:
            rec.venue_text = venue
        if rec.year_text is None and year is not None:
            rec.year_text = year
