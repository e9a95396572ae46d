"""CSV rows broken in one readable way are repaired; ambiguous ones stay quarantined alone.

``tests/data/readers/openreview_unescaped_quotes.csv``: 14 real ICLR 2018 papers (OpenReview ids, titles,
abstracts and decisions as the dev corpus holds them) written the way a careless exporter writes them: a field
holding a comma or a quote is put in quotes, but quotes inside are not doubled. Four abstracts hold quotes
(``"Conceptor-Aided Backprop"``, ``"History of Word"``, ``"hypergradient"``, ``"dax,"``: a quote then the
delimiter)."""

from __future__ import annotations

import csv
import io

from pipeline.ingest.readers import read_listing
from pipeline.ingest.readers.table import read
from tests.conftest import DATA

CSV = DATA / "readers" / "openreview_unescaped_quotes.csv"


def _text() -> str:
    return CSV.read_text()


def _naive_rows(text: str) -> list[list[str]]:
    """The file's rows as the exporter meant them: every line is one row, its abstract (column 4) everything
    between the link and the decision."""
    out = []
    for line in text.strip().split("\n")[1:]:
        pid, title_rest = line.rstrip("\r").split(",", 1)
        head = next(csv.reader(io.StringIO(title_rest)))[:2] if not title_rest.startswith('"') else None
        link_at = line.index(",https://openreview.net/forum?id=")
        link_end = line.index(",", link_at + 1)
        decision_at = line.rstrip("\r").rindex(",")
        abstract = line[link_end + 1 : decision_at]
        if abstract.startswith('"') and abstract.endswith('"'):
            abstract = abstract[1:-1]
        out.append([pid, head[0] if head else "", abstract, line.rstrip("\r")[decision_at + 1 :]])
    return out


def test_unescaped_quotes_in_the_abstract_are_repaired_and_counted():
    got = read_listing(CSV.read_bytes(), "iclr2018/openreview_export.csv")
    assert len(got.records) == 14
    assert [r.problem for r in got.records] == [None] * 14
    repaired = [r for r in got.records if r.repair]
    assert [r.source_id for r in repaired] == ["B1al7jg0b", "BJIgi_eCZ", "BkrsAzWAb", "H18WqugAb"]
    want = {row[0]: row[2] for row in _naive_rows(_text())}
    for r in got.records:
        assert r.abstract_raw == want[r.source_id]
    dax = repaired[-1]
    assert 'a new verb "dax," he or she can immediately understand' in dax.abstract_raw
    assert dax.source_status == "Workshop"  # the decision column is the decision, not abstract text
    assert [w for w in got.warnings if "4 record(s) repaired" in w]


def test_a_repaired_row_may_span_lines_but_never_takes_in_the_next_row():
    lines = _text().split("\n")
    k = next(i for i, x in enumerate(lines) if x.startswith("BkrsAzWAb"))
    lines[k] = lines[k].replace('this "hypergradient" needs', 'this "hypergradient"\nneeds', 1)
    recs = read("\n".join(lines), "x.csv")[1]
    hyper = next(r for r in recs if r.source_id == "BkrsAzWAb")
    assert hyper.problem is None and '"hypergradient"\nneeds little' in hyper.abstract_raw
    assert len(recs) == 14 and all(r.problem is None for r in recs)


def test_a_line_break_before_the_stray_quote_loses_no_row():
    lines = _text().split("\n")
    k = next(i for i, x in enumerate(lines) if x.startswith("BkrsAzWAb"))
    lines[k] = lines[k].replace(' this "hypergradient" needs', ' this\n"hypergradient" needs', 1)
    recs = read("\n".join(lines), "x.csv")[1]
    assert [r.problem for r in recs] == [None] * 14
    assert [r.position for r in recs] == list(range(1, 15))
    hyper = next(r for r in recs if r.source_id == "BkrsAzWAb")
    assert 'Computing this\n"hypergradient" needs little' in hyper.abstract_raw


def test_overflow_that_fits_two_columns_stays_quarantined():
    # title and abstract both free text: "A, B" could be the title's or the abstract's comma
    header = "id,title,abstract,decision"
    good = [f"p{k},A title of some words {k},{'word ' * 40}end.,Poster" for k in range(6)]
    bad = "p9,Short title,first clause, second clause of the abstract,Poster"
    recs = read("\n".join([header, *good, bad]), "x.csv")[1]
    assert recs[-1].repair is None and recs[-1].problem == "malformed_row: 5 fields, the header has 4"


def test_too_few_well_formed_rows_to_tell_columns_apart_repairs_nothing():
    text = "\n".join(_text().split("\n")[:1] + _text().split("\n")[11:15])
    recs = read(text, "x.csv")[1]
    assert recs and all(r.repair is None for r in recs)
    assert any(r.problem and r.problem.startswith("malformed_row: broken quoting") for r in recs)
