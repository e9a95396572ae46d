"""A run names where a listing's venue/year came from: an XML reader's header is its collection/volume
metadata and a BibTeX reader's the @proceedings entry, not "the header" (pipeline.ingest.readers.HEADER_SOURCES)."""

from pathlib import Path

from pipeline.ingest.readers import read_listing
from pipeline.ingest.records import reading_note

DATA = Path(__file__).parents[1] / "data" / "readers"


def _read(name: str):
    return read_listing((DATA / name).read_bytes(), name)


def test_xml_collection_id_and_bibtex_proceedings_are_named_as_sources():
    xml = _read("acl_K19_excerpt.xml")
    assert (xml.venue, xml.year) == ("CoNLL", 2019)
    assert xml.venue_sources == {"venue": "the XML collection id K19", "year": "the XML collection id K19"}
    bib = _read("colt19_excerpt.bib")
    assert (bib.venue, bib.year) == ("COLT", 2019)
    assert bib.venue_sources["venue"] == "the @proceedings entry"
    note = reading_note(bib)
    assert "(venue: the @proceedings entry; year: the @proceedings entry)" in note
    assert "the header" not in note


def test_a_text_header_line_is_still_the_header():
    got = _read("neurips2023_numbered.txt")
    assert got.venue_sources == {"venue": "the header", "year": "the header"}
