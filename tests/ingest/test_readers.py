"""Readers (pipeline.ingest.readers) on small real excerpts of real listing files, in every shape, plus the shapes
built from them (TSV, JSON keyed by id, {"papers": [...]}, gzip, PDF first page, BibTeX, markdown table).

Excerpts in tests/data/readers: iclr2017.json (3 papercopilot records, one whose abstract is blank),
Not_Presented_Posters.md (3 papers of a NeurIPS 2023 markdown schedule), nips_2016.txt (a separated text dump:
junk first line, one abstract hard-wrapped, one holding a blank line), openreview_export.csv (3 rows, one with
a newline inside a quoted field), arxiv_feed.jsonl (3 arXiv feed records), Poster_Session1_tags.md (2 tagged
papers of a NeurIPS 2023 schedule). Built from 3 real NeurIPS 2023 corpus records (titles and abstracts; the
authors are placeholders): neurips2023_labelled.txt (labelled records, no separator lines), hf_daily_papers.json
(the paper one level down), s2_search.json (full venue name, year field).
"""

import csv
import datetime as dt
import gzip
import io
import json

import pytest

from pipeline.analyse import abstracts
from pipeline.ingest import records as ingest_records
from pipeline.ingest.readers import ListingDecodeError, ReaderError, read_listing
from pipeline.ingest.readers.decoding import decode_listing
from pipeline.ingest.readers.venues import parse_header, venue_year_from_path, venue_year_in_text
from pipeline.ingest.settings import find_settings, is_settings_file, parse_settings
from tests.conftest import DATA, ROOT

READERS_DATA = DATA / "readers"
TODAY = dt.date(2026, 6, 1)
ICLR = json.loads((READERS_DATA / "iclr2017.json").read_text())


def _read(name, data=None, **kw):
    return read_listing(
        data if data is not None else (READERS_DATA / name).read_bytes(), name, today=TODAY, **kw
    )


def test_papercopilot_json_records_fields_and_venue_from_file_name():
    got = _read("iclr2017.json")
    assert (got.reader, got.venue, got.year, len(got.records)) == ("json", "ICLR", 2017, 3)
    first = got.records[0]
    assert first.title == "Prototypical Networks for Few-shot Learning"
    assert first.authors == ["Jake Snell", "Kevin Swersky", "Richard Zemel"]
    assert (first.source_id, first.source_status, first.position) == ("B1-Hhnslg", "Reject", 0)
    assert first.abstract_raw.startswith(
        "A recent approach to few-shot classification called matching networks"
    )
    assert (
        got.records[2].abstract_raw == ""
    )  # a blank abstract is a record (quarantined as empty), not dropped
    rows = abstracts.abstract_rows(
        ingest_records.listing_records((READERS_DATA / "iclr2017.json").read_bytes(), "iclr2017.json")[0]
    )
    assert rows["quarantine_reason"].to_list() == [None, None, "empty"]


def test_json_shapes_array_object_keyed_by_id_papers_wrapper_and_gzip():
    keyed = {r["id"]: {k: v for k, v in r.items() if k != "id"} for r in ICLR}
    shapes = {
        "keyed.json": json.dumps(keyed).encode(),
        "wrapped.json": json.dumps({"count": 3, "papers": ICLR}).encode(),
        "iclr2017.json.gz": gzip.compress(json.dumps(ICLR).encode()),
        "lines.jsonl.gz": gzip.compress("\n".join(json.dumps(r) for r in ICLR).encode()),
    }
    for name, data in shapes.items():
        got = _read(name, data)
        assert [r.title for r in got.records] == [r["title"] or None for r in ICLR], name
        assert [r.source_id for r in got.records] == [r["id"] for r in ICLR], name
    assert _read("iclr2017.json.gz", shapes["iclr2017.json.gz"]).encoding == "utf-8+gzip"
    assert _read("iclr2017.json.gz", shapes["iclr2017.json.gz"]).venue == "ICLR"


def test_markdown_schedule_titles_authors_and_no_markup_in_abstract():
    got = _read(
        "awesome-neurips-2023/Not_Presented_Posters.md",
        (READERS_DATA / "Not_Presented_Posters.md").read_bytes(),
    )
    assert (got.reader, got.venue, got.year, len(got.records)) == ("markdown", "NeurIPS", 2023, 3)
    first = got.records[0]
    assert first.title == "Active Negative Loss Functions for Learning with Noisy Labels"
    assert first.authors[:2] == ["Xichen Ye", "Xiaoqiang Li"]
    for r in got.records:
        assert "<" not in r.abstract_raw and "**" not in r.abstract_raw and "###" not in r.abstract_raw
    assert first.abstract_raw.endswith("athttps://github.com/Virusdoll/Active-Negative-Loss.")


def test_separated_text_dump_junk_first_line_wrapped_and_blank_line_abstracts():
    got = _read("nips_2016.txt")
    assert (got.reader, got.venue, got.year) == ("separated_text", "NeurIPS", 2016)
    junk, wrapped, with_blank = got.records[:3]
    assert junk.problem.startswith("preamble") and junk.abstract_raw == "Sign in to GitHub · GitHub"
    assert wrapped.title == "A Bandit Framework for Strategic Regression"
    assert wrapped.authors == ["A. Author", "B. Author", "C. Author"]
    assert wrapped.abstract_raw.count("\n") > 10 and wrapped.abstract_raw.endswith("-BNE).")
    assert (
        with_blank.title.startswith("A Bayesian method for reducing bias")
        and "\n\n" in with_blank.abstract_raw
    )
    frame, warnings = ingest_records.listing_records(
        (READERS_DATA / "nips_2016.txt").read_bytes(), "nips_2016.txt"
    )
    rows = abstracts.abstract_rows(frame)
    assert rows["quarantine_reason"].to_list()[:3] == [
        "preamble: lines before the first record separator",
        None,
        None,
    ]
    assert warnings[0].startswith("nips_2016.txt: read by separated_text")


@pytest.mark.parametrize("sep", ["=" * 10, "-" * 70, "*" * 29])
def test_separated_text_other_separators(sep):
    text = (READERS_DATA / "nips_2016.txt").read_text().replace("*" * 36, sep)
    got = _read("nips_2016.txt", text.encode())
    assert got.reader == "separated_text" and [r.title for r in got.records[1:]] == [
        r.title for r in _read("nips_2016.txt").records[1:]
    ]


def test_csv_quoted_newline_and_tsv():
    got = _read("openreview_export.csv")
    assert (got.reader, len(got.records)) == ("csv", 3)
    assert [r.position for r in got.records] == [1, 2, 3]
    assert "\n" in got.records[2].abstract_raw
    assert got.records[2].line > got.records[1].line + 1  # a quoted newline: the third row starts later
    assert got.records[0].source_id == "ryDNZZZAW"
    assert (got.venue, got.year) == ("unknown", 0)  # nothing says: never guessed
    rows = list(csv.reader(io.StringIO((READERS_DATA / "openreview_export.csv").read_text())))
    buf = io.StringIO()
    csv.writer(buf, delimiter="\t", lineterminator="\n").writerows(rows)
    tsv = _read("icml2025/oral.tsv", buf.getvalue().encode())
    assert (tsv.reader, tsv.venue, tsv.year) == ("csv", "ICML", 2025)
    assert [r.abstract_raw for r in tsv.records] == [r.abstract_raw for r in got.records]


def test_arxiv_feed_jsonl_venue_per_record_from_comment():
    got = _read("arxiv_feed.jsonl")
    assert got.reader == "jsonl" and [r.position for r in got.records] == [1, 2, 3]
    comments = [
        json.loads(x)["comment"] for x in (READERS_DATA / "arxiv_feed.jsonl").read_text().splitlines()
    ]
    assert [f"Accepted to {v} {y}" for v, y in zip(got.venues, got.years)] == comments
    assert got.records[0].authors == ["A. Author", "B. Author"]


def test_pdf_first_page_dump_and_bibtex_built_from_real_records():
    r = ICLR[0]
    names = r["author"].split(";")
    page = (
        f"{r['title'][:25]}\n{r['title'][25:]}\n{names[0]}1, {names[1]}2*, {names[2]}1\n"
        f"1University of Toronto  2Twitter\n{{jsnell,zemel}}@cs.toronto.edu\n\nAbstract—"
        f"{r['abstract'][:300]}-\nlearning {r['abstract'][300:]}\nKeywords: few-shot, metric learning\n"
        "1 Introduction\nFew-shot classification is a task ...\n"
    )
    got = _read("iclr2017/pages.txt", (page + "\f" + page).encode())
    assert got.reader == "pdf_first_page" and len(got.records) == 2
    rec = got.records[0]
    assert rec.title == r["title"] and rec.authors == names
    assert rec.abstract_raw.startswith(r["abstract"][:40]) and "Keywords" not in rec.abstract_raw
    assert "@" not in rec.abstract_raw and "-\nlearning" not in rec.abstract_raw
    bib = "".join(
        f"@inproceedings{{{x['id']},\n  title = {{{x['title']}}},\n  author = {{{' and '.join(x['author'].split(';'))}}},"
        f"\n  booktitle = {{ICLR 2017}},\n  abstract = {{{x['abstract']}}}\n}}\n\n"
        for x in ICLR[:2]
    )
    got = _read("refs.bib", bib.encode())
    assert got.reader == "bibtex" and [x.title for x in got.records] == [x["title"] for x in ICLR[:2]]
    assert got.records[1].authors == ICLR[1]["author"].split(";") and (got.venues[0], got.years[0]) == (
        "ICLR",
        2017,
    )


def test_markdown_table_with_abstract_column():
    lines = ["# Papers", "", "| Title | Authors | Abstract |", "|---|---|---|"]
    lines += [f"| {x['title']} | {x['author'].replace(';', ', ')} | {x['abstract']} |" for x in ICLR[:2]]
    got = _read("cvpr19.md", "\n".join(lines).encode())
    assert (got.reader, got.venue, got.year) == ("markdown_table", "CVPR", 2019)
    assert [x.title for x in got.records] == [x["title"] for x in ICLR[:2]]


def test_settings_file_folder_and_file_reader_columns_venue(tmp_path):
    raw = tmp_path / "raw"
    (raw / "lists").mkdir(parents=True)
    rows = list(csv.reader(io.StringIO((READERS_DATA / "openreview_export.csv").read_text())))
    rows[0] = ["Forum", "Paper Name", "link", "keywords", "Text"]
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerows(rows)
    (raw / "lists" / "export.dat").write_text(buf.getvalue())
    (raw / "listing.toml").write_text('venue = "NIPS"\nyear = 2017\n')
    (raw / "lists" / "export.dat.listing.toml").write_text(
        'reader = "csv"\nyear = 2018\n[columns]\nabstract = "Text"\ntitle = "Paper Name"\nsource_id = "Forum"\n'
    )
    sources = find_settings(raw, "lists/export.dat")
    assert [s for s, _ in sources] == ["listing.toml", "lists/export.dat.listing.toml"]
    assert is_settings_file("lists/export.dat.listing.toml") and is_settings_file("listing.toml")
    got = read_listing((raw / "lists" / "export.dat").read_bytes(), "lists/export.dat", sources, today=TODAY)
    assert (got.reader, got.venue, got.year, len(got.records)) == ("csv", "NeurIPS", 2018, 3)
    assert got.records[0].title == "Multiple Source Domain Adaptation with Adversarial Learning"
    with pytest.raises(ValueError, match="unknown key 'venu'"):
        parse_settings([("listing.toml", b'venu = "ICML"\n')])
    frame, warnings = ingest_records.listing_records(
        b"a,b\n1,2\n", "x.csv", [("listing.toml", b"year = 'x'\n")]
    )
    assert frame["paragraph"].to_list() == [0] and "year must be a int" in frame["decode_error"][0]


@pytest.mark.parametrize(
    "name, expected",
    [
        ("iclr2017.json", ("ICLR", 2017)),
        ("cvpr19.txt", ("CVPR", 2019)),
        ("nips_2016.txt", ("NeurIPS", 2016)),
        ("icml2025/oral.csv", ("ICML", 2025)),
        ("ECCV/2022/list.txt", ("ECCV", 2022)),
        ("awesome-neurips-2023/schedule/Poster_Session1.md", ("NeurIPS", 2023)),
        ("x/listing.txt", (None, None)),
    ],
)
def test_venue_year_from_path(name, expected):
    assert venue_year_from_path(name, TODAY)[:2] == expected


def test_venue_year_from_headers_and_records():
    assert parse_header("NeurIPS Datasets & Benchmarks 2025 论文列表") == ("NeurIPS", 2025)
    assert parse_header("arXiv 2026 papers") == ("arXiv", 2026)
    assert venue_year_in_text("Accepted to ICML 2026") == ("ICML", 2026)
    assert venue_year_in_text("Computer Vision – ECCV 2022, Part III (Eds.): ICCV 2021, LNCS") == (
        "ECCV",
        2022,
    )
    assert venue_year_in_text("(Eds.): ICCV 2021, LNCS 12345") == ("ICCV", 2021)
    assert venue_year_in_text("CVPR'19 oral", TODAY) == ("CVPR", 2019)
    assert venue_year_in_text("we use a log 2023 scale") is None
    got = _read("dump.txt", b"arXiv 2026 papers\n\nAn abstract of enough words to be one abstract.\n")
    assert (got.venue, got.year, got.reader) == ("arXiv", 2026, "seed_text")


def test_second_header_switches_venue_and_year_for_the_papers_after_it():
    text = (
        "ICML 2026 论文列表\n\nWe study sparse attention for long documents in detail here.\n\n"
        "NeurIPS 2025 Accepted Papers\n\nWe propose a new optimiser that converges twice as fast.\n"
    )
    got = _read("both.txt", text.encode())
    assert got.venues == ["ICML", "NeurIPS", "NeurIPS"] and got.years == [2026, 2025, 2025]
    rows = abstracts.abstract_rows(ingest_records.listing_records(text.encode(), "both.txt")[0])
    assert rows["quarantine_reason"].to_list() == [None, "header_repeated", None]
    assert rows["venue"].to_list() == ["ICML", "NeurIPS", "NeurIPS"]


def test_damaged_utf8_in_mostly_ascii_file_rejected_but_cp1252_read():
    good = b"ICML 2026\n\nWe study priors and show that they help in many settings of learning. "
    with pytest.raises(ListingDecodeError, match="damaged UTF-8"):
        decode_listing(good + b"It is \xe2\x80 fast.\n", "d.txt")  # a cut-off curly quote
    text, codec = decode_listing(good + b"A caf\xe9 na\xefve r\xe9sum\xe9.\n", "c.txt")
    assert codec == "cp1252" and "café naïve résumé" in text


def test_nul_in_one_record_quarantines_that_record_only():
    text = "ICML 2026\n\nWe study sparse attention for long documents in detail here.\n\nAn abstract\x00 with a NUL.\n"
    frame, _ = ingest_records.listing_records(text.encode(), "n.txt")
    rows = abstracts.abstract_rows(frame)
    assert rows.height == 2 and rows["quarantine_reason"][0] is None
    assert rows["quarantine_reason"][1].startswith("control_character")


def test_no_reader_fits_or_reader_fails_names_the_file():
    frame, warnings = ingest_records.listing_records(
        b"<!DOCTYPE html><html><body>papers</body></html>", "page.html"
    )
    assert frame["paragraph"].to_list() == [0] and "no reader fits" in frame["decode_error"][0]
    assert warnings[0].startswith("page.html")
    with pytest.raises(ReaderError, match="no abstract column"):
        _read("list.csv", b"id,title,venue\n1,A paper,ICML\n")
    with pytest.raises(ReaderError, match="no abstract field"):
        _read("list.json", b'[{"id": 1, "title": "A paper"}]')


def test_atom_feed_openreview_notes_and_year_fields_from_real_records():
    from xml.sax.saxutils import escape

    feed_records = [json.loads(x) for x in (READERS_DATA / "arxiv_feed.jsonl").read_text().splitlines()]
    entries = "".join(
        f"<entry><id>http://arxiv.org/abs/{r['id']}v1</id><published>2026-01-05T00:00:00Z</published>"
        f"<title>{escape(r['title'])}</title><summary>{escape(r['summary'])}</summary>"
        + "".join(f"<author><name>{escape(a)}</name></author>" for a in r["authors"])
        + (f"<arxiv:comment>{escape(r['comment'])}</arxiv:comment>" if i else "")
        + "</entry>"
        for i, r in enumerate(feed_records)
    )
    atom = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom" '
        f'xmlns:arxiv="http://arxiv.org/schemas/atom"><title>arXiv Query</title>{entries}</feed>'
    )
    got = _read("arxiv_query.xml", atom.encode())
    assert got.reader == "feed" and [r.title for r in got.records] == [r["title"] for r in feed_records]
    assert got.records[0].authors == feed_records[0]["authors"]
    assert (got.venues[0], got.years[0]) == ("arXiv", 2026)  # no comment: the path's venue, the entry's year
    assert f"Accepted to {got.venues[1]} {got.years[1]}" == feed_records[1]["comment"]
    notes = {
        "notes": [
            {
                "id": r["id"],
                "content": {
                    "title": {"value": r["title"]},
                    "abstract": {"value": r["abstract"]},
                    "authors": {"value": r["author"].split(";")},
                    "venue": {"value": "ICLR 2017 Poster"},
                },
            }
            for r in ICLR[:2]
        ]
    }
    got = _read("openreview_notes.json", json.dumps(notes).encode())
    assert [r.title for r in got.records] == [r["title"] for r in ICLR[:2]] and got.venues == ["ICLR", "ICLR"]
    assert got.years == [2017, 2017] and got.records[0].source_id == ICLR[0]["id"]
    rows = [{"title": r["title"], "abstract": r["abstract"], "venue": "NIPS", "year": 2016} for r in ICLR[:2]]
    got = _read("s2_dump.json", json.dumps(rows).encode())
    assert got.venues == ["NeurIPS", "NeurIPS"] and got.years == [2016, 2016]


def test_labelled_records_without_separator_lines_one_record_each():
    """``Paper ID:``/``Title:``/``Authors:``/``Abstract:`` records one after another (no separator lines): one
    record per paper, cut at the label that opens the first record; the abstract on the lines after its label,
    hard-wrapped and holding a blank line, is read whole."""
    data = (READERS_DATA / "neurips2023_labelled.txt").read_bytes()
    got = read_listing(data, "neurips2023_labelled.txt", today=TODAY)
    assert (got.reader, got.venue, got.year) == ("separated_text", "NeurIPS", 2023)
    assert got.header == "NeurIPS 2023 accepted papers (exported)"
    assert [r.title for r in got.records] == [
        "$k$-Means Clustering with Distance-Based Privacy",
        "$p$-value Adjustment for Monotonous, Unbiased, and Fast Clustering Comparison",
        "(S)GD over Diagonal Linear Networks: Implicit bias, Large Stepsizes and Edge of Stability",
    ]
    assert [r.source_id for r in got.records] == ["1000", "1001", "1002"]
    assert got.records[1].authors == ["Placeholder Author C"]
    first = got.records[0].abstract_raw
    assert first.startswith("In this paper, we initiate the study of Euclidean clustering")
    assert "\n\nrather than approximate, locations." in first
    assert "Paper ID" not in first and "Title:" not in got.records[0].abstract_raw
    # the same records with a one-line title label only and ``SUMMARY:`` for the abstract
    text = "\n\n".join(f"TITLE: {r.title}\nSUMMARY: {' '.join(r.abstract_raw.split())}" for r in got.records)
    again = read_listing(text.encode(), "neurips2023_short.txt", today=TODAY)
    assert again.reader == "separated_text"
    assert [r.title for r in again.records] == [r.title for r in got.records]


def test_paper_one_level_down_and_full_venue_names():
    """Hugging Face daily papers (``{"paper": {...}}``) and a Semantic Scholar export whose venue field is
    the full name (``Neural Information Processing Systems``) with a ``year`` field."""
    hf = read_listing(
        (READERS_DATA / "hf_daily_papers.json").read_bytes(), "hf_daily_papers.json", today=TODAY
    )
    assert hf.reader == "json" and len(hf.records) == 3
    assert hf.records[0].title == "$k$-Means Clustering with Distance-Based Privacy"
    assert hf.records[0].source_id == "2306.00001"
    assert hf.records[0].abstract_raw.startswith("In this paper, we initiate the study of Euclidean")
    assert hf.records[2].authors == ["Placeholder Author D", "Placeholder Author E"]
    s2 = read_listing((READERS_DATA / "s2_search.json").read_bytes(), "s2_search.json", today=TODAY)
    assert s2.venues == ["NeurIPS"] * 3 and s2.years == [2023] * 3
    assert venue_year_in_text("Advances in Neural Information Processing Systems 35 (NeurIPS 2022)") == (
        "NeurIPS",
        2022,
    )
    assert venue_year_in_text("Findings of the Association for Computational Linguistics: EMNLP 2023") == (
        "EMNLP",
        2023,
    )
    bib = (
        "@inproceedings{k1,\n title = {A Title},\n booktitle = {Proceedings of the 2021 Conference on "
        "Empirical Methods in Natural Language Processing},\n abstract = {We study things and find that "
        "they work on many benchmarks, improving accuracy by two points over strong baselines.}\n}\n"
    )
    got = read_listing(bib.encode(), "list.bib", today=TODAY)
    assert (got.venues, got.years) == (["EMNLP"], [2021])
    # papers-with-code style ``proceeding`` field
    pwc = json.dumps(
        [{"title": "T", "abstract": hf.records[0].abstract_raw, "proceeding": "neurips-2022-11"}]
    )
    assert read_listing(pwc.encode(), "papers.json", today=TODAY).venues == ["NeurIPS"]


def test_markdown_heading_tag_gives_the_status_and_stays_in_the_title():
    """``### [Spotlight] Title`` in a ``## Poster Session`` section: the paper is a Spotlight (its own tag
    wins over the section's type); a tag that is no presentation type (``[Re]``, a reproduction) gives none.
    The title keeps the tag as the file writes it."""
    got = _read(
        "awesome-neurips-2023/Poster_Session1_tags.md",
        (READERS_DATA / "Poster_Session1_tags.md").read_bytes(),
    )
    assert [(r.title.split("]")[0] + "]", r.source_status) for r in got.records] == [
        ("[Spotlight]", "Spotlight"),
        ("[Re]", "Poster"),
    ]


TITLES_2023 = [
    "$k$-Means Clustering with Distance-Based Privacy",
    "$p$-value Adjustment for Monotonous, Unbiased, and Fast Clustering Comparison",
    "(S)GD over Diagonal Linear Networks: Implicit bias, Large Stepsizes and Edge of Stability",
]


def test_xml_records_one_per_element_holding_an_abstract():
    """An ACL Anthology-style volume: one record per ``<paper>``; ``id`` attribute, ``<author>`` parts
    joined; the volume's ``<booktitle>`` (full venue name) and ``<year>`` make the header."""
    got = _read("neurips2023_anthology.xml")
    assert (got.reader, got.venue, got.year) == ("xml", "NeurIPS", 2023)
    assert [r.title for r in got.records] == TITLES_2023
    assert [r.source_id for r in got.records] == ["1", "2", "3"]
    assert [r.line for r in got.records] == [8, 15, 21]  # each <paper> start tag's line, for the lineage
    assert got.records[0].authors == ["Placeholder Author A", "Placeholder Author B"]
    assert got.records[2].abstract_raw.startswith("In this paper, we investigate the impact of stochasticity")
    with pytest.raises(ReaderError, match="no element has an abstract child"):
        read_listing(b"<?xml version='1.0'?><list><paper><title>T</title></paper></list>", "x.xml")


def test_an_anthology_code_link_is_a_source_url():
    """Real ACL Anthology XML (CoNLL 2019 excerpt): ``<pwccode url="https://github.com/...">owner/repo</pwccode>``
    gives the paper's code link (the target, not the label); a paper without one has none."""
    got = _read("acl_K19_excerpt.xml")
    linked = [r.source_urls for r in got.records if r.source_urls]
    assert linked == [["https://github.com/i-machine-think/diagnnose"]]
    assert len(got.records) > len(linked)


def test_markdown_list_of_papers_with_nested_fields_and_an_item_without_abstract():
    """``- **Title** [[paper](..)] [[code](..)]`` items with ``  - Authors:`` / ``  - Abstract:`` sub-items:
    one record each, the code link a source URL; an item with no abstract is a record with an empty
    abstract (quarantined ``empty`` by the pipeline), never glued to its neighbours."""
    data = (READERS_DATA / "awesome-neurips-2023.md").read_bytes()
    got = _read("awesome-neurips-2023.md", data)
    assert (got.reader, got.venue, got.year) == ("markdown", "NeurIPS", 2023)
    assert [r.title for r in got.records] == [*TITLES_2023, "A Paper Listed Without Its Abstract"]
    assert got.records[1].source_urls == ["https://github.com/example/repo1"]
    assert got.records[0].authors == ["Placeholder Author A", "Placeholder Author B"]
    assert got.records[0].abstract_raw.startswith("In this paper, we initiate the study of Euclidean")
    assert "Abstract" not in got.records[0].abstract_raw and "**" not in got.records[0].abstract_raw
    assert got.records[3].abstract_raw == "" and got.records[3].line == 21
    frame, _ = ingest_records.listing_records(data, "awesome-neurips-2023.md")
    assert abstracts.abstract_rows(frame)["quarantine_reason"].to_list() == [None, None, None, "empty"]


def test_blank_line_records_opening_with_a_numbered_title_and_an_author_line():
    """``1. Title`` / author line / hard-wrapped abstract paragraphs: one record each, the number dropped
    from the title; a seed-shape listing (abstract paragraphs) is not read this way."""
    got = _read("neurips2023_numbered.txt")
    assert (got.reader, got.venue, got.year) == ("separated_text", "NeurIPS", 2023)
    assert [r.title for r in got.records] == TITLES_2023
    assert got.records[1].authors == ["Placeholder Author C"]
    assert got.records[0].abstract_raw.startswith("In this paper, we initiate the study of Euclidean")
    seed = (ROOT / "raw").glob("*.txt")
    assert {read_listing(p.read_bytes(), p.name).reader for p in seed} == {"seed_text"}


def test_json_lines_records_that_name_a_field_differently_each_keep_theirs():
    """One column per field is chosen for the file (``comment`` before ``venue``), but a record with nothing
    in it reads the field under its other name: records of one export with ``venue`` and records with an
    arXiv ``comment`` each get their venue. Shape of the constructed listings' truth file (three of its
    records, abstracts cut)."""
    lines = [
        {
            "file": "nips_2016.txt",
            "venue": "NeurIPS",
            "year": 2016,
            "title": "A Bandit Framework for Strategic Regression",
            "abstract": "We consider a learner's problem of acquiring data dynamically "
            "for training a regression model, where the training data are collected from strategic sources.",
        },
        {
            "file": "nips_2016.txt",
            "venue": "NeurIPS",
            "year": 2016,
            "title": "A Bayesian method for reducing bias in neural representation",
            "abstract": "In neuroscience, the similarity matrix of neural "
            "activity patterns in response to different sensory stimuli is used to study representations.",
        },
        {
            "file": "arxiv_feed.jsonl",
            "venue": None,
            "year": None,
            "title": "Risk-aware linear bandits with convex loss",
            "abstract": "In decision-making problems such as the multi-armed bandit, an agent "
            "learns sequentially by optimizing a certain feedback.",
            "comment": "Accepted to AISTATS 2023",
        },
    ]
    data = "\n".join(json.dumps(x) for x in lines).encode()
    df = ingest_records.listing_records(data, "truth.jsonl")[0]
    assert df.select("venue", "year").rows() == [("NeurIPS", 2016), ("NeurIPS", 2016), ("AISTATS", 2023)]
    # the field keeps its one column where the record has it: the first title is read as written
    assert df["title"][0] == "A Bandit Framework for Strategic Regression"
