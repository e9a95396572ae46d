"""Markdown paper sections own their nested content: a digest whose papers each hold a ``<details>`` reading
summary with its own headings and tables (``tests/data/readers/digest_details_summaries.md``: 8 real ICLR 2017
papers of papercopilot's list, their titles, authors and abstracts as published), and an "awesome" list of ICML
2021 papers (``ICML-2021-list01_excerpt.md``: records [0]-[2] and [198]-[199] and the closing navigation links
of a real scraped list, byte for byte) whose headings carry list numbers and whose records hold a
``**Conference**:`` field and end with ``----``."""

from __future__ import annotations

from pipeline.analyse import abstracts
from pipeline.ingest import records as ingest_records
from pipeline.ingest.readers import Settings, read_listing
from pipeline.ingest.readers.markdown import read
from tests.conftest import DATA

READERS_DATA = DATA / "readers"
DIGEST = READERS_DATA / "digest_details_summaries.md"
ICML = READERS_DATA / "ICML-2021-list01_excerpt.md"


def _abstract_lines() -> list[str]:
    """The digest's abstracts as written: the text after each ``**Abstract:**`` label."""
    pre = "**Abstract:** "
    return [x[len(pre) :] for x in DIGEST.read_text().split("\n") if x.startswith(pre)]


def test_digest_papers_are_the_sections_with_fields_and_summaries_stay_out():
    header, recs = read(DIGEST.read_text(), "digest.md")
    assert header == "ICLR 2017 paper digest: week 3"
    assert len(recs) == 8  # not the 40 summary sub-sections (### Problem, ### Method, ...)
    assert recs[0].title == "Prototypical Networks for Few-shot Learning"
    assert recs[0].authors == ["Jake Snell", "Kevin Swersky", "Richard Zemel"]
    assert [r.abstract_raw for r in recs] == _abstract_lines()
    assert recs[0].abstract_raw.startswith("A recent approach to few-shot classification called matching")
    for r in recs:
        assert "Reading summary" not in r.abstract_raw and "| Step" not in r.abstract_raw
        assert "observation:" not in r.abstract_raw and "Worth a second read" not in r.abstract_raw


def test_digest_publishes_every_paper_and_no_summary():
    frame, _ = ingest_records.listing_records(DIGEST.read_bytes(), "iclr2017-digest/digest.md")
    rows = abstracts.abstract_rows(frame)
    assert rows.height == 8
    assert rows["quarantine_reason"].null_count() == 8


def test_awesome_list_numbers_fields_and_rules_stay_out_of_titles_and_abstracts():
    got = read_listing(ICML.read_bytes(), "Conference-Paper/ICML/2021/list01.md", Settings(reader="markdown"))
    titles = [r.title for r in got.records]
    assert titles == [
        "A New Representation of Successor Features for Transfer across Dissimilar Environments",
        "Massively Parallel and Asynchronous Tsetlin Machine Architecture Supporting Almost Constant-Time "
        "Scaling",
        "Debiasing Model Updates for Improving Personalized Federated Training",
        "Explaining Time Series Predictions with Dynamic Masks",
        "Generalised Lipschitz Regularisation Equals Distributional Robustness",
    ]
    first, last = got.records[0], got.records[-1]
    assert first.abstract_raw.startswith("Transfer in reinforcement learning is usually achieved")
    assert first.abstract_raw.endswith("outperforms current baselines.")
    assert last.abstract_raw.endswith("which are demonstrated experimentally.")  # no "Go to the next page"
    for r in got.records:
        assert (
            "Conference" not in r.abstract_raw
            and "----" not in r.abstract_raw
            and "URL" not in r.abstract_raw
        )
        assert r.venue_text == "icml 2021"
    assert first.authors[:2] == ["Majid Abdolshah", "Hung Le"]
    assert [(v, y) for v, y in zip(got.venues, got.years)] == [("ICML", 2021)] * 5
    assert got.coverage >= 0.98


def test_titles_that_start_with_a_number_keep_it():
    text = "".join(
        f"### {t}\n\n**Authors:** A. Author\n\n**Abstract:** We study {k}.\n\n"
        for k, t in enumerate(["3D Gaussian Splatting", "2. Not a number in most titles", "Plain title"])
    )
    assert [r.title for r in read(text)[1]] == [
        "3D Gaussian Splatting",
        "2. Not a number in most titles",
        "Plain title",
    ]


def test_abstract_details_block_and_other_text_of_the_section():
    text = (
        "## Papers\n\n### A Title\n\n**Authors:** Jane Doe, John Roe\n\n"
        "A note from the editor: this one won an award.\n\n"
        "<details><summary>Abstract</summary>\n\nWe prove a bound.\nIt is tight.</details>\n\n"
        "<details><summary>中文摘要</summary>\n\n我们证明了一个界。\n</details>\n\n"
        "#### Discussion\n\nSome discussion.\n"
    )
    [rec] = read(text)[1]
    assert rec.abstract_raw == "We prove a bound.\nIt is tight."
    assert rec.authors == ["Jane Doe", "John Roe"]


def test_jacobmarks_schedule_still_reads_whole():
    recs = read((READERS_DATA / "Not_Presented_Posters.md").read_text(), "x.md")[1]
    assert len(recs) == 3
    assert all(r.abstract_raw and "<" not in r.abstract_raw and r.authors for r in recs)
    assert recs[0].abstract_raw.startswith("Robust loss functions are essential for training deep neural")
    assert recs[0].abstract_raw.endswith("https://github.com/Virusdoll/Active-Negative-Loss.")


def test_summary_naming_the_abstract_and_rules_without_a_marked_abstract():
    text = (
        "### One\n\n**Authors:** Jane Doe\n\n<details><summary>Show abstract</summary>We prove it.</details>\n\n"
        "### Two\n\n**Authors:** John Roe\n\nAn affiliation line\n\n---\n\nWe show it twice.\n"
    )
    one, two = read(text)[1]
    assert one.abstract_raw == "We prove it."
    assert (
        two.abstract_raw.split() == "An affiliation line We show it twice.".split()
    )  # no marker: a rule is layout


def test_bold_labels_end_a_marked_abstract_and_are_text_without_one():
    text = (
        "### A Title\n\n**Authors:** Jane Doe\n\n"
        "**Background:** Models fail.\n**Method:** We fix them.\n\n"
        "### B Title\n\n**Authors:** John Roe\n\n**Abstract:** We fix models.\n**Keywords:** repair, models\n"
    )
    structured, marked = read(text)[1]
    assert structured.abstract_raw == "**Background:** Models fail.\n**Method:** We fix them."
    assert marked.abstract_raw == "We fix models."
