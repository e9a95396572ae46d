"""Angle brackets in prose are not HTML (pipeline.analyse.residue.html_tag, the markup gate of
pipeline.analyse.quarantine), and paragraph breaks inside a real abstract do not make it markup."""

from __future__ import annotations

import polars as pl
import pytest

from pipeline.analyse.abstracts import abstract_rows
from pipeline.analyse.cleaning import clean_text
from pipeline.analyse.quarantine import quarantine_reason
from pipeline.analyse.residue import HTML_TAG, html_tag
from pipeline.ingest.records import listing_records
from tests.conftest import ROOT

DATA = ROOT / "tests" / "data" / "readers"


@pytest.mark.parametrize(
    ("text", "tag"),
    [
        ("<p>", True),
        ("</details>", True),
        ("<br/>", True),
        ('<div class="abstract" id=a1>', True),
        ("<td align=left>", True),
        ("<table,description>", False),
        ("<p, q>", False),
        ("a<b and c>d", False),
        ("<li>", True),
        ("<Subject, Verb, Object>", False),
    ],
)
def test_html_tag_needs_a_known_name_and_valid_syntax(text, tag):
    assert bool(html_tag("p|br|div|td|details|li|table").search(text)) is tag


def test_prose_brackets_survive_cleaning_and_the_gates():
    raw = (
        "We pair each <table,description> in the corpus with a caption, and show that a<b and <b, c> hold for "
        "every pair we generate, improving retrieval accuracy on three benchmarks."
    )
    clean = clean_text(raw)
    assert "<table,description>" in clean and "<b, c>" in clean and not HTML_TAG.search(raw)
    assert quarantine_reason(raw, clean) is None


def test_paragraph_breaks_in_real_abstracts_are_not_markup():
    """A SIGDIAL 2023 Mini-Conf abstract breaks paragraphs with ``<p>``: published, the tag removed."""
    frame, _ = listing_records(
        (DATA / "sigdialinlg2023_papers.csv").read_bytes(), "sigdialinlg2023/papers.csv"
    )
    rows = abstract_rows(frame)
    with_p = rows.filter(pl.col("abstract_raw").str.contains("<p>"))
    assert with_p.height == 1 and with_p["quarantine_reason"][0] is None
    assert "<p>" not in with_p["abstract"][0] and "at hand. To address this issue" in with_p["abstract"][0]
