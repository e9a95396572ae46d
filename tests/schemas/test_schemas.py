"""Pandera models: the rows of the handed case18 (tests/data/cases) fail, each problem named, DataFrame or LazyFrame."""

import json

import polars as pl
import pytest

from schemas import PaperMetrics, Papers, validate
from tests.conftest import DATA

CASE18 = [
    json.loads(line) for line in (DATA / "cases" / "case18_pandera_lazyframe.jsonl").read_text().splitlines()
]


def _papers_frame() -> pl.DataFrame:
    n = len(CASE18)
    return pl.DataFrame(
        {
            "paper_id": [f"p{int(r['paper_id'][1:]):016x}" for r in CASE18],
            "venue": ["ICML"] * n,
            "year": [2026] * n,
            "abstract": [r["abstract"] for r in CASE18],
            "abstract_raw": [r["abstract"] or "x" * 30 for r in CASE18],
            "language": [r["lang"] for r in CASE18],
            "language_score": [0.99] * n,
            "n_words": [8] * n,
            "n_urls": [0] * n,
            "n_metrics": [1] * n,
            "has_code": [False] * n,
            "first_release": [1] * n,
            "last_changed_release": [1] * n,
            "n_sources": [1] * n,
            "source_listing": ["case18.txt"] * n,
            "content_hash": ["0" * 32] * n,
            "title": ["A title"] * n,
            "authors": [["A. Author"]] * n,
            "source_id": [None] * n,
            "source_status": ["Poster"] * n,
            "source_urls": [None] * n,
        },
        schema_overrides={"abstract": pl.String, "source_id": pl.String, "source_urls": pl.List(pl.String)},
    )


def _metrics_frame() -> pl.DataFrame:
    rows = [r for r in CASE18 if r["metric_value"] is not None]
    n = len(rows)
    return pl.DataFrame(
        {
            "paper_id": [f"p{int(r['paper_id'][1:]):016x}" for r in rows],
            "venue": ["ICML"] * n,
            "year": [2026] * n,
            "value": [float(r["metric_value"]) for r in rows],
            "value_text": [str(r["metric_value"]) for r in rows],
            "unit": ["%"] * n,
            "kind": ["score"] * n,
            "value_from": [None] * n,
            "value_low": [None] * n,
            "value_high": [None] * n,
            "metric": ["F1"] * n,
            "dataset": [None] * n,
            "subject": ["ours"] * n,
            "baseline": [None] * n,
            "direction": [None] * n,
            "qualifier": [None] * n,
            "span": [f"{r['metric_value']}%" for r in rows],
            "start": [0] * n,
            "end": [4] * n,
        },
        schema_overrides={k: pl.Float64 for k in ("value_from", "value_low", "value_high")}
        | {k: pl.String for k in ("dataset", "baseline", "direction", "qualifier")},
    )


@pytest.mark.parametrize("lazy", [False, True])
def test_case18_paper_rows_fail_with_each_problem_named(lazy):
    df = _papers_frame()
    failures = validate(df.lazy() if lazy else df, Papers)
    assert failures is not None
    named = {(c, chk.split("(")[0]) for c, chk in failures.select("column", "check").iter_rows()}
    assert ("paper_id", "field_uniqueness") in named  # duplicate id p001
    assert ("abstract", "not_nullable") in named  # null abstract p003
    assert ("abstract", "str_length") in named  # "too short" p004
    assert ("language", "str_matches") in named  # "ko-KR?" p006
    bad_rows = set(failures["index"].drop_nulls().to_list())
    assert {0, 1, 2, 3, 5} <= bad_rows


@pytest.mark.parametrize("lazy", [False, True])
def test_case18_negative_percentage_score_fails(lazy):
    df = _metrics_frame()
    failures = validate(df.lazy() if lazy else df, PaperMetrics)
    assert failures is not None
    assert failures.filter(pl.col("check") == "non_negative_levels")["index"].to_list() == [3]  # p005: -80 %


def test_valid_rows_pass():
    df = _papers_frame().filter(pl.col("paper_id").is_in(["p0000000000000002"]).not_())
    ok = df.filter(pl.col("abstract").str.len_chars() > 30, pl.col("language") == "en").unique("paper_id")
    assert validate(ok, Papers) is None


def test_lineage_reader_description_names_every_reader():
    """The data dictionary's text of listing_lineage.reader names every reader a listing can be read by
    (pipeline.ingest.readers.READERS), so the card never leaves out one a release used."""
    from pipeline.ingest.readers import READERS
    from schemas import MODELS

    text = MODELS["listing_lineage"].to_schema().columns["reader"].description
    assert text is not None
    named = {w.strip(" ,.;()") for w in text.split()}
    assert set(READERS) <= named
