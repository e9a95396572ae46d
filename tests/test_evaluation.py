"""`make eval` logic: the gold_dev scores through the extraction functions meet the issue-3 targets."""

import pytest

from pipeline.evaluation import (DEFAULT_GOLD, TARGETS, fixture_results, format_table, load_scorer, measure_cost,
                                 score_direct)


@pytest.fixture(scope="module")
def dev_scores():
    res, errors = score_direct(DEFAULT_GOLD)
    return res, errors


@pytest.mark.parametrize("key", sorted(TARGETS))
def test_gold_dev_meets_target(dev_scores, key):
    res, errors = dev_scores
    assert res[key] >= TARGETS[key], (key, res[key], errors[:20])


def test_gold_dev_all_docs_matched(dev_scores):
    res, _ = dev_scores
    assert res["docs"] == 100 and res["unmatched_docs"] == 0
    assert res["counts"]["m_gold"] == 122 and res["counts"]["u_gold"] == 32


def test_fixture_groups_pass_rate():
    fx = fixture_results()
    urls = [f for f in fx if f["group"] == "url"]
    mets = [f for f in fx if f["group"] == "metric"]
    assert len(urls) == 22 and len(mets) == 32
    assert sum(f["passed"] for f in urls) == len(urls)
    assert sum(f["passed"] for f in mets) >= 24


def test_scorer_penalises_wrong_extraction(tmp_path):
    """The scoring path is live: a warehouse with no URLs/metrics scores zero recall."""
    import polars as pl

    from pipeline.evaluation import direct_tables, read_jsonl, write_release
    recs = read_jsonl(DEFAULT_GOLD)
    tables = direct_tables(recs)
    tables["paper_urls"] = tables["paper_urls"].clear()
    tables["paper_metrics"] = tables["paper_metrics"].head(0)
    write_release(tables, tmp_path)
    res, _ = load_scorer().score(str(DEFAULT_GOLD), str(tmp_path))
    assert res["url_recall"] == 0.0 and res["metric_recall"] == 0.0
    assert isinstance(tables["papers"], pl.DataFrame)


def test_cost_and_table_format():
    cost = measure_cost(limit=200)
    assert cost["n"] > 0 and cost["ms_per_abstract"] > 0
    table = format_table({"direct": {k: 1.0 for k in
                                     ("url_precision", "url_recall", "url_f1", "url_kind_acc", "metric_precision",
                                      "metric_recall", "metric_f1", "metric_kind_acc", "metric_name_acc",
                                      "metric_dataset_acc", "metric_subject_acc")}})
    assert "| URL F1 | 1.000 | ≥ 0.99 |" in table
