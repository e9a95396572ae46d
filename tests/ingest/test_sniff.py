"""The reading that explains the file wins (pipeline.ingest.readers.sniff): a pattern inside one record never
decides the shape of a whole file; a file no reading explains is quarantined, one explained in part warns.

The listings are built from 40 real EMNLP 2022 abstracts of the dev corpus (tests/data/sniff/, copied with
their titles), in the seed shape and in the separated-text shape, with one record replaced by a BibTeX entry,
a YAML block, a markdown table or a CSV line.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pipeline.ingest import records as ingest_records
from pipeline.ingest.readers import ReaderError, read_listing, sniff

DATA = Path(__file__).resolve().parents[1] / "data" / "sniff"
PAPERS = [json.loads(x) for x in (DATA / "abstracts_emnlp2022.jsonl").read_text().splitlines()]
ABSTRACTS = [p["abstract"] for p in PAPERS]

#: One foreign record of each shape (a quoted BibTeX entry whose abstract brace never closes, as in a real
#: 1,829-record text dump; a Jekyll front-matter block; a markdown table with an abstract column; a CSV row).
FOREIGN = {
    "bibtex": "@inproceedings{smith22,\n  title = {A Quoted Entry},\n  author = {Smith, J.},\n"
    "  abstract = {This entry is quoted in a record and its brace never closes.\n  year = 2022",
    "yaml": "---\ntitle: A Post\nauthor: Jane Doe\nlayout: inproceedings\nabstract: short\n---",
    "markdown_table": "| title | abstract |\n|---|---|\n| A row | An abstract in a table row. |",
    "csv": 'id,title,abstract,"Some quoted, text",2022',
}


def seed_listing(replace: int, shape: str, header: bool = True) -> str:
    paragraphs = list(ABSTRACTS)
    paragraphs[replace] = FOREIGN[shape]
    return ("EMNLP 2022 accepted papers\n\n" if header else "") + "\n\n".join(paragraphs) + "\n"


def separated_listing(replace: int, shape: str) -> str:
    blocks = [f"{p['title']}\nJane Doe, John Smith\n{p['abstract']}" for p in PAPERS]
    blocks[replace] = FOREIGN[shape]
    return "\n" + ("\n" + "*" * 36 + "\n").join(blocks) + "\n"


@pytest.mark.parametrize("shape", sorted(FOREIGN))
@pytest.mark.parametrize("replace", [0, 17, 39])
def test_one_foreign_record_in_a_seed_listing_changes_no_other_record(shape, replace):
    got = read_listing(seed_listing(replace, shape).encode(), "emnlp_2022.txt")
    assert got.reader == "seed_text"
    assert (got.venue, got.year) == ("EMNLP", 2022)
    texts = [r.abstract_raw for r in got.records]
    assert len(texts) == 40
    assert [t for i, t in enumerate(texts) if i != replace] == [
        a for i, a in enumerate(ABSTRACTS) if i != replace
    ]
    assert got.coverage >= 0.95
    problem = got.records[replace].problem or ""
    # a record mostly of markup lines is quarantined alone (a CSV line is one line: the gates judge it)
    assert problem.startswith("foreign_markup") == (shape != "csv")


@pytest.mark.parametrize("shape", ["bibtex", "csv", "markdown_table"])
def test_a_foreign_first_record_without_a_header_line_decides_nothing(shape):
    got = read_listing(seed_listing(0, shape, header=False).encode(), "emnlp_2022.txt")
    assert got.reader == "seed_text"
    assert [r.abstract_raw for r in got.records][1:] == ABSTRACTS[1:]


@pytest.mark.parametrize("shape", sorted(FOREIGN))
@pytest.mark.parametrize("replace", [0, 20])
def test_one_foreign_record_in_a_separated_dump_changes_no_other_record(shape, replace):
    got = read_listing(separated_listing(replace, shape).encode(), "emnlp_2022.txt")
    assert got.reader == "separated_text"
    by_title = {r.title: r.abstract_raw for r in got.records if r.title}
    for i, p in enumerate(PAPERS):
        if i != replace:
            assert by_title[p["title"]] == p["abstract"]
    assert got.coverage > 0.95


def test_a_bibtex_file_is_still_bibtex_and_its_runner_up_is_recorded():
    entries = [
        f"@inproceedings{{p{i},\n  title = {{{p['title']}}},\n  abstract = {{{p['abstract']}}}\n}}"
        for i, p in enumerate(PAPERS[:10])
    ]
    got = read_listing("\n\n".join(entries).encode(), "emnlp2022.bib")
    assert got.reader == "bibtex" and got.coverage == 1.0
    assert [r.end_line for r in got.records][:3] == [4, 9, 14]
    frame, notes = ingest_records.listing_records("\n\n".join(entries).encode(), "emnlp2022.txt")
    assert frame["reader"][0] == "bibtex"
    assert frame["reader_coverage"][0] == 1.0
    assert frame["reader_runner_up"][0] is None  # bibtex explains all: no later reader is read
    every = sniff.read_best("\n\n".join(entries), "emnlp2022.txt", exhaustive=True)
    assert (every.reader, every.runner_up, every.runner_up_coverage) == ("bibtex", "seed_text", 0.0)
    assert every.candidates == [("bibtex", 1.0), ("seed_text", 0.0)]  # its paragraphs are mostly markup
    assert "explaining 1.00 of the file" in notes[0]


def test_a_file_no_reading_explains_is_quarantined_with_the_reason():
    text = "\n\n".join(FOREIGN["yaml"].replace("A Post", f"Post {i}") for i in range(30))
    with pytest.raises(ReaderError, match="unexplained: no reading explains 50% of the file"):
        read_listing(text.encode(), "posts.txt")
    frame, _ = ingest_records.listing_records(text.encode(), "posts.txt")
    assert frame.height == 1 and frame["paragraph"][0] == 0
    assert frame["decode_error"][0].startswith("unreadable: unexplained:")


def test_a_file_explained_in_part_warns_with_the_unexplained_lines():
    yaml_blocks = "\n\n".join(FOREIGN["yaml"] for _ in range(6))  # lines 3-43 (6 blocks of 6 lines)
    text = "EMNLP 2022 papers\n\n" + yaml_blocks + "\n\n" + "\n\n".join(ABSTRACTS[:2]) + "\n"
    got = read_listing(text.encode(), "emnlp_2022.txt")
    assert got.reader == "seed_text" and 0.5 <= got.coverage < sniff.WARN_COVERAGE
    assert got.unexplained == [(3, 43)]
    assert any("unexplained: lines 3-43" in w for w in got.warnings)


def test_a_settings_file_still_forces_its_reader():
    text = seed_listing(5, "bibtex")
    got = read_listing(text.encode(), "emnlp_2022.txt", [("x.listing.toml", b'reader = "seed_text"\n')])
    assert got.reader == "seed_text" and got.runner_up is None
    assert [r.abstract_raw for r in got.records][:5] == ABSTRACTS[:5]


def test_the_sample_is_bounded_and_cut_at_a_blank_line():
    text = "\n\n".join(ABSTRACTS * 20)
    sample = sniff.sample_of(text)
    assert len(sample) <= sniff.SAMPLE_CHARS < len(text)
    assert text.startswith(sample) and text[len(sample) : len(sample) + 2] == "\n\n"
