"""Titles and author names as clean text (pipeline.analyse.titles): titles as real files write them (PMLR
BibTeX, a scraped ICML markdown list, ACL Anthology XML, Mini-Conf CSV), and the published ``title`` and
``authors`` columns of a listing's abstract rows."""

from __future__ import annotations

import pytest

from pipeline.analyse.abstracts import abstract_rows
from pipeline.analyse.titles import clean_authors, clean_name, clean_title
from pipeline.ingest.records import listing_records
from tests.conftest import ROOT

DATA = ROOT / "tests" / "data" / "readers"


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        # PMLR v99 (COLT 2019) BibTeX: case protection and math in braces
        (
            "Reasoning in {B}ayesian Opinion Exchange Networks Is {$\\mathsf{PSPACE}$}-Hard",
            "Reasoning in Bayesian Opinion Exchange Networks Is 𝖯𝖲𝖯𝖠𝖢𝖤-Hard",
        ),
        (
            "{Approximate Guarantees for Dictionary Learning}",
            "Approximate Guarantees for Dictionary Learning",
        ),
        ('Schr\\"odinger Bridges for {GAN}s', "Schrödinger Bridges for GANs"),
        # the ICML 2021 "awesome" list: list numbers
        (
            "[1] Massively Parallel and Asynchronous Tsetlin Machine Architecture",
            "Massively Parallel and Asynchronous Tsetlin Machine Architecture",
        ),
        ("12. Deep Sets", "Deep Sets"),
        ("2.5D Visual Sound", "2.5D Visual Sound"),
        ("3D Shape Reconstruction", "3D Shape Reconstruction"),
        # HTML entities and markdown
        (
            "Syndicom: Error-Injection &amp; Natural Language Feedback",
            "Syndicom: Error-Injection & Natural Language Feedback",
        ),
        ("**[Deep Sets](https://arxiv.org/abs/1703.06114)**", "Deep Sets"),
        ("Telling BERT’s Full Story", "Telling BERT’s Full Story"),  # already clean: returned as it is
        ("  ", None),
        (None, None),
    ],
)
def test_clean_title(raw, clean):
    assert clean_title(raw) == clean


def test_clean_names():
    assert clean_name("Cl{\\'{e}}ment L Canonne") == "Clément L Canonne"
    assert clean_name('G{\\"o}del, Kurt') == "Gödel, Kurt"
    assert clean_authors(["Jaap Jumelet", "  ", 'J{\\"u}rgen']) == ["Jaap Jumelet", "Jürgen"]
    assert clean_authors(None) is None


def test_abstract_rows_publish_clean_titles_and_authors():
    """The BibTeX reader keeps the fields as written; the published rows hold their clean text."""
    frame, _ = listing_records((DATA / "colt19_excerpt.bib").read_bytes(), "colt19.bib")
    assert frame["title"][4].startswith("Reasoning in {B}ayesian")
    rows = abstract_rows(frame)
    assert rows["title"][4] == "Reasoning in Bayesian Opinion Exchange Networks Is 𝖯𝖲𝖯𝖠𝖢𝖤-Hard"
    assert rows["authors"][1].to_list() == ["Acharya Acharya", "Clément L Canonne", "Himanshu Tyagi"]
