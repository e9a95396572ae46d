"""Venue and year from everything a file says: volume metadata, collection ids, per-record venue fields,
acronyms outside the venue table, paths. Real pieces of ACL Anthology XML (K19, CoNLL 2019), PMLR BibTeX
(COLT 2019) and a Mini-Conf CSV of two co-located venues (SIGDIAL and INLG 2023) in tests/data/readers/."""

from __future__ import annotations

import datetime as dt
from collections import Counter

import pytest

from pipeline.analyse.cleaning import clean_text
from pipeline.analyse.titles import clean_authors, clean_title
from pipeline.ingest.readers import read_listing
from pipeline.ingest.readers.bibtex import split_names
from pipeline.ingest.readers.venues import (
    acl_anthology_id,
    acronym_venue,
    venue_year_from_path,
    venue_year_of_text,
)
from tests.conftest import ROOT

DATA = ROOT / "tests" / "data" / "readers"
TODAY = dt.date(2026, 6, 1)


def _read(file: str, name: str):
    return read_listing((DATA / file).read_bytes(), name, today=TODAY)


@pytest.mark.parametrize("name", ["acl/K19.xml", "volumes/anthology.xml"])
def test_acl_volumes_name_the_venue_in_meta_and_collection_id(name):
    """The venue is only in ``<meta><booktitle>`` and the collection id; the shared-task volume's
    booktitle says "Conference on Natural Language Learning"; neither the file name nor the path helps."""
    got = _read("acl_K19_excerpt.xml", name)
    assert got.header == "CoNLL 2019 (collection K19)"
    assert Counter(zip(got.venues, got.years)) == {("CoNLL", 2019): 4}
    assert got.records[2].venue_text.startswith("Proceedings of the Shared Task on Cross-Framework")
    assert not [w for w in got.warnings if "unknown" in w]


@pytest.mark.parametrize(
    ("cid", "want"),
    [
        ("2021.eacl", ("EACL", 2021)),
        ("2022.naacl-main", ("NAACL", 2022)),
        ("K19", ("CoNLL", 2019)),
        ("P93", ("ACL", 1993)),
        ("W19", (None, 2019)),  # workshops: no one venue, the year is kept
        ("2020.findings", (None, 2020)),
        ("main", None),
        ("K199", None),
    ],
)
def test_acl_anthology_ids(cid, want):
    assert acl_anthology_id(cid, TODAY) == want


@pytest.mark.parametrize(
    ("path", "want"),
    [
        ("acl_xml/2021.eacl.xml", ("EACL", 2021, "2021.eacl")),  # only the last extension is dropped
        ("pldi2021/sitedata/papers.csv", ("PLDI", 2021, "pldi2021")),  # an acronym outside the table
        ("site/PLDI-2021/papers.csv", ("PLDI", 2021, "PLDI-2021")),
        # a post's date is its publication date, not the conference's year
        ("v164_corl2021/_posts/2022-01-11-aceituno22a.md", ("CoRL", 2021, "v164_corl2021")),
        ("papers2021/list.csv", (None, None, None)),  # a word is not an acronym
        ("data_2020/x.csv", (None, 2020, "data_2020")),  # a year without a venue is kept
        ("iclr2017.json.gz", ("ICLR", 2017, "iclr2017")),
        ("ECCV/2022/list.txt", ("ECCV", 2022, "ECCV and 2022")),
    ],
)
def test_venue_year_from_path(path, want):
    assert venue_year_from_path(path, TODAY) == want


@pytest.mark.parametrize(
    ("text", "field", "want"),
    [
        ("PLDI 2021", False, ("PLDI", 2021)),
        ("June 2021", False, (None, 2021)),  # a month is no venue; its year is kept
        ("Accepted Papers 2021", False, (None, 2021)),
        ("pldi", True, ("PLDI", None)),  # ``event: pldi``
        ("inlg", True, ("INLG", None)),
        ("pldi2021", True, ("PLDI", 2021)),
        ("main", True, (None, None)),
        ("Poster Session 2", True, (None, None)),
        (
            "Proceedings of the 23rd Conference on Computational Natural Language Learning (CoNLL)",
            True,
            ("CoNLL", None),
        ),
        (
            "Proceedings of the 16th Conference of the European Chapter of the Association for Computational "
            "Linguistics: Main Volume",
            True,
            ("EACL", None),
        ),
    ],
)
def test_venue_year_of_text(text, field, want):
    assert venue_year_of_text(text, TODAY, field=field) == want


def test_acronym_spelling():
    assert [acronym_venue(t) for t in ("pldi", "PLDI", "ClinicalNLP", "neurips", "papers", "x")] == [
        "PLDI",
        "PLDI",
        "ClinicalNLP",
        "NeurIPS",
        None,
        None,
    ]
    assert acronym_venue("Pldi") is None and acronym_venue("Preprint") is None  # capitalised words
    assert acronym_venue("Pldi", capitals=True) is None and acronym_venue("preprint") is None


def test_csv_of_two_colocated_venues_per_row():
    """The ``conference`` column says ``sigdial`` or ``inlg`` per row; the year is in the folder name, whose
    glued ``sigdialinlg`` is only the file's fallback venue."""
    got = _read("sigdialinlg2023_papers.csv", "sigdialinlg2023/sitedata/papers.csv")
    assert list(zip(got.venues, got.years)) == [
        ("INLG", 2023),
        ("SIGDIAL", 2023),
        ("SIGDIAL", 2023),
        ("INLG", 2023),
    ]
    moved = _read("sigdialinlg2023_papers.csv", "pldi2021/sitedata/papers.csv")
    assert moved.years == [2021] * 4 and moved.venues[0] == "INLG"


def test_a_folder_naming_two_venues_gives_its_year_and_no_venue():
    """``sigdialinlg2023/`` (the real Mini-Conf site of SIGDIAL and INLG 2023) is two known venues written
    together: no acronym ``SIGDIALINLG`` is made of it; its year stays the year of the records that name
    none, and the file's own venue is unknown (each row's ``conference`` says which it is)."""
    from pipeline.ingest.readers.venues import several_venues, venue_year_from_path

    assert several_venues("sigdialinlg") == ["SIGDIAL", "INLG"]
    assert several_venues("pldi") is None and several_venues("ICML") is None
    path = "sigdialinlg2023/sitedata/papers.csv"
    assert venue_year_from_path(path) == (None, 2023, "sigdialinlg2023")
    assert venue_year_from_path("pldi2021/sitedata/papers.csv")[:2] == ("PLDI", 2021)
    got = _read("sigdialinlg2023_papers.csv", path)
    assert (got.venue, got.year) == ("unknown", 2023)
    assert got.warnings == [f"{path}: no header line; year 2023 taken from the path (sigdialinlg2023)"]
    assert not any("SIGDIALINLG" in w for w in got.warnings)


def test_bibtex_proceedings_entry_is_the_header_and_names_split_by_bibtex_rule():
    got = _read("colt19_excerpt.bib", "volume.bib")  # nothing in the name: the @Proceedings entry says
    assert (got.header, got.venue, got.year) == ("COLT 2019", "COLT", 2019)
    assert len(got.records) == 6 and got.records[0].source_id == "beygelzimer19"
    acharya = got.records[1]
    # ``Canonne, Cl{\'{e}}ment L, and Tyagi``: a stray comma before ``and``; 3 authors, not 4
    assert acharya.authors == ["Acharya Acharya", "Cl{\\'{e}}ment L Canonne", "Himanshu Tyagi"]
    assert clean_authors(acharya.authors) == ["Acharya Acharya", "Clément L Canonne", "Himanshu Tyagi"]
    # abstract_raw keeps braces inside math; cleaning turns them into text once
    dictionary = got.records[3]
    assert "$\\mathbb{R}^d$" in dictionary.abstract_raw
    assert "vectors in ℝ^d" in clean_text(dictionary.abstract_raw)
    regret = got.records[5]
    assert "\\sqrt{T})$" in regret.abstract_raw and "√(T)" in clean_text(regret.abstract_raw)
    assert "\\emph{exponential}" in regret.abstract_raw and "were exponential while" in clean_text(
        regret.abstract_raw
    )
    titles = [clean_title(r.title) for r in got.records[2:5]]
    assert titles == [
        "Lower bounds for testing graphical models: colorings and antiferromagnetic Ising models",
        "Approximate Guarantees for Dictionary Learning",
        "Reasoning in Bayesian Opinion Exchange Networks Is 𝖯𝖲𝖯𝖠𝖢𝖤-Hard",
    ]


def test_split_names_keeps_braced_groups():
    assert split_names("{Barnes and Noble} and van der Berg, Jr, Jan and others") == [
        "{Barnes and Noble}",
        "Jan van der Berg Jr",
    ]


def test_acronym_from_the_folder_is_published_with_a_warning():
    """Without the per-row column the folder's acronym is the venue; with it, the folder's glued
    ``sigdialinlg`` is named by no record, so no warning about it."""
    data = (DATA / "sigdialinlg2023_papers.csv").read_bytes().replace(b"conference,", b"track,", 1)
    got = read_listing(data, "pldi2021/sitedata/papers.csv", today=TODAY)
    assert set(zip(got.venues, got.years)) == {("PLDI", 2021)}
    assert any("venue 'PLDI'" in w and "published as written" in w for w in got.warnings)
    both = _read("sigdialinlg2023_papers.csv", "sigdialinlg2023/sitedata/papers.csv")
    assert not any("published as written" in w for w in both.warnings)


def test_a_listing_naming_no_venue_says_how_to_name_it():
    """A CSV export with no venue column, read from a folder and file name that name none, is published
    under venue ``unknown`` and year 0 with one warning that names the settings files that would fix it."""
    got = _read("openreview_export.csv", "downloads/export.csv")
    assert (got.venue, got.year) == ("unknown", 0) and set(got.venues) == {"unknown"}
    [warning] = [w for w in got.warnings if "venue='unknown'" in w]
    assert warning.startswith("downloads/export.csv: no header line '<VENUE> <YEAR> ...', no settings file")
    assert warning.endswith(
        "write venue = \"...\" and year = ... into '<file name>.listing.toml' beside the file or "
        "'listing.toml' in its folder"
    )
