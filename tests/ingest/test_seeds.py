"""Parsing the two real seed listings (raw/)."""

from pipeline.ingest.readers import parse_listing
from tests.conftest import SEEDS


def test_seeds_parse_into_38_icml_2026_abstracts():
    listings = [parse_listing(f.read_bytes(), f.name) for f in SEEDS]
    assert len(listings) == 2
    assert sum(len(x.paragraphs) for x in listings) == 38
    for listing in listings:
        assert (listing.venue, listing.year) == ("ICML", 2026)
        assert listing.header == "ICML 2026 论文列表"
        assert listing.warnings == []
        # the header is metadata, never an abstract
        assert all("论文列表" not in p.text for p in listing.paragraphs)
        assert listing.paragraphs[0].line == 3
        assert [p.number for p in listing.paragraphs] == list(range(1, len(listing.paragraphs) + 1))


def test_seed_paragraph_text_is_the_file_text():
    f = SEEDS[1]
    listing = parse_listing(f.read_bytes(), f.name)
    text = f.read_text(encoding="utf-8")
    for p in listing.paragraphs:
        assert p.text in text
        assert text.split("\n")[p.line - 1] == p.text.split("\n")[0]
