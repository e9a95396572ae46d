"""`make eval` logic (bench/eval_extraction.py): the dev gold scores through the extraction functions."""

import json

import polars as pl
import pytest

from bench import eval_extraction as evaluation

#: What each gold file scores today through the extraction functions (bench/eval_extraction.py, direct):
#: a floor that a rule change may not go under; the goals are evaluation.TARGETS (docs/extraction.md).
FLOORS = {
    "gold_dev.jsonl": {
        "metric_f1": 0.99,
        "metric_precision": 0.99,
        "metric_kind_acc": 0.97,
        "metric_name_acc": 0.93,
        "metric_dataset_acc": 0.93,
        "url_f1": 0.98,
    },
    "gold_dev2.jsonl": {
        "metric_f1": 0.965,
        "metric_precision": 0.98,
        "metric_kind_acc": 0.96,
        # 0.887: "an improvement of 0.32" is found now (rule plain-change) and named "performance", not accuracy
        "metric_name_acc": 0.885,
        "metric_dataset_acc": 0.89,
        "url_f1": 0.98,
    },
    "gold_dev3.jsonl": {
        "metric_f1": 0.96,
        "metric_precision": 0.985,
        "metric_kind_acc": 0.92,
        "metric_name_acc": 0.885,
        "metric_dataset_acc": 0.885,
        "url_f1": 0.98,
    },
    # the blind set of other listing families (tests/data/gold/README.md); scored blind at 0.852 F1, its errors
    # read since
    "gold_real2.jsonl": {
        "metric_f1": 0.95,
        "metric_precision": 0.965,
        "metric_kind_acc": 0.90,
        "metric_name_acc": 0.90,
        "metric_dataset_acc": 0.81,
        "url_f1": 0.98,
    },
    # 90 dev-corpus abstracts labelled blind (tests/data/gold/README.md): scored blind at 0.886 F1, name 0.657,
    # dataset 0.771; its errors read since
    "gold_blind4.jsonl": {
        "metric_f1": 0.95,
        "metric_precision": 0.97,
        "metric_kind_acc": 0.94,
        "metric_name_acc": 0.89,
        "metric_dataset_acc": 0.87,
        "url_f1": 0.98,
    },
    # 90 more, drawn and labelled the same way: scored blind at 0.957 F1, name 0.679, dataset 0.589; read since
    "gold_blind5.jsonl": {
        "metric_f1": 0.96,
        "metric_precision": 0.96,
        "metric_kind_acc": 0.92,
        "metric_name_acc": 0.77,
        "metric_dataset_acc": 0.68,
        "url_f1": 0.98,
    },
    # 90 more, drawn and labelled the same way: scored blind at 0.887 F1, kind 0.672, name 0.806; read since
    "gold_blind6.jsonl": {
        "metric_f1": 0.97,
        "metric_precision": 0.98,
        "metric_kind_acc": 0.875,
        "metric_name_acc": 0.88,
        "metric_dataset_acc": 0.89,
        "url_f1": 0.98,
    },
    # 90 more, drawn and labelled the same way: scored blind at 0.929 F1, name 0.731, dataset 0.827, URL F1 0.882
    # (two URLs glued to the next words of a scraped page); read since
    "gold_blind7.jsonl": {
        "metric_f1": 0.98,
        "metric_precision": 0.98,
        "metric_kind_acc": 0.98,
        "metric_name_acc": 0.81,
        "metric_dataset_acc": 0.92,
        "url_f1": 0.88,
    },
    # 89 abstracts of the real listing families (ACL XML, PMLR, Mini-Conf, YAML, markdown), labelled blind:
    # scored at 0.946 F1, kind 0.925, name 0.868, dataset 0.755, URL F1 0.909; read since
    "gold_blind8.jsonl": {
        "metric_f1": 0.94,
        "metric_precision": 0.94,
        "metric_kind_acc": 0.94,
        "metric_name_acc": 0.92,
        "metric_dataset_acc": 0.81,
        "url_f1": 0.90,
    },
    # 85 more of those families: scored at 0.966 F1, kind 0.857, name 0.833, dataset 0.548, URL F1 0.800; read since
    "gold_blind9.jsonl": {
        "metric_f1": 0.96,
        "metric_precision": 0.99,
        "metric_kind_acc": 0.90,
        "metric_name_acc": 0.85,
        "metric_dataset_acc": 0.66,
        "url_f1": 0.99,
    },
    # 80 more of those families: scored at 0.745 F1, kind 0.737, name 0.842, dataset 0.789 (26 metrics); read since
    "gold_blind10.jsonl": {
        "metric_f1": 0.87,
        "metric_precision": 0.82,
        "metric_kind_acc": 0.91,
        "metric_name_acc": 0.87,
        "metric_dataset_acc": 0.83,
        "url_f1": 0.99,
    },
    # 40 more of those families and 50 dev-corpus abstracts of 38 venue-years: scored at 0.692 F1, precision
    # 0.787, kind 0.973, name 0.838, dataset 0.784, URL F1 1.000; read since
    "gold_blind11.jsonl": {
        "metric_f1": 0.91,
        "metric_precision": 0.94,
        "metric_kind_acc": 0.98,
        "metric_name_acc": 0.86,
        "metric_dataset_acc": 0.79,
        "url_f1": 0.99,
    },
    # 30 more of those families and 60 dev-corpus abstracts of 43 venue-years, drawn after the blind11 fixes:
    # scored at 0.914 F1, precision 0.974, kind 0.919, name 0.838, dataset 0.622, URL F1 1.000; read since
    "gold_blind12.jsonl": {
        "metric_f1": 0.93,
        "metric_precision": 0.97,
        "metric_kind_acc": 0.97,
        "metric_name_acc": 0.87,
        "metric_dataset_acc": 0.69,
        "url_f1": 0.99,
    },
    # 28 more of those families and 80 dev-corpus abstracts of 55 venue-years, labelled blind by four helpers:
    # scored at 0.880 F1, precision 0.917, kind 0.955, name 0.742, dataset 0.697, URL F1 0.889; read since
    "gold_blind13.jsonl": {
        "metric_f1": 0.94,
        "metric_precision": 0.97,
        "metric_kind_acc": 0.97,
        "metric_name_acc": 0.81,
        "metric_dataset_acc": 0.78,
        "url_f1": 0.94,
    },
}


@pytest.fixture(scope="module")
def union_scores(tmp_path_factory):
    path = evaluation.union_gold(list(evaluation.DEV_GOLDS), tmp_path_factory.mktemp("gold") / "union.jsonl")
    return evaluation.score_direct(path)


@pytest.mark.parametrize("gold", sorted(FLOORS))
def test_each_file_holds_its_floor(gold):
    """Each dev gold file on its own keeps the scores it has: a rule fitted to one file shows up on another."""
    res, errors = evaluation.score_direct(evaluation.GOLD_DIR / gold)
    low = {k: (round(res[k], 3), v) for k, v in FLOORS[gold].items() if res[k] < v}
    assert not low, (gold, low, errors[:20])


def test_union_all_docs_matched(union_scores):
    res, _ = union_scores
    assert res["docs"] == 398 and res["unmatched_docs"] == 0
    n_gold = sum(len(r.get("metrics", [])) for p in evaluation.DEV_GOLDS for r in evaluation.read_jsonl(p))
    assert res["counts"]["m_gold"] == n_gold == 122 + 193 + 234


def test_repo_gold_copies_in_step():
    """tests/data/gold holds the gold files the evaluation names, each one JSON object per line."""
    for p in evaluation.DEV_GOLDS:
        recs = evaluation.read_jsonl(p)
        assert recs and all({"doc_id", "text"} <= set(r) for r in recs)
    ids = [r["doc_id"] for p in evaluation.DEV_GOLDS for r in evaluation.read_jsonl(p)]
    assert len(ids) == len(set(ids))


def test_fixture_groups_pass_rate():
    fx = evaluation.fixture_results()
    urls = [f for f in fx if f["group"] == "url"]
    mets = [f for f in fx if f["group"] == "metric"]
    assert len(urls) == 22 and len(mets) == 32
    # U17 expects a /tree/ link collapsed onto its repository; paths are kept now
    # (tests/analyse/test_extraction_urls.py)
    assert [f["id"] for f in urls if not f["passed"]] == ["U17"]
    assert sum(f["passed"] for f in mets) >= 27


def test_scorer_penalises_wrong_extraction(tmp_path):
    """The scoring path is live: a warehouse with no URLs/metrics scores zero recall."""
    recs = evaluation.read_jsonl(evaluation.DEFAULT_GOLD)
    tables = evaluation.direct_tables(recs)
    tables["paper_urls"] = tables["paper_urls"].clear()
    tables["paper_metrics"] = tables["paper_metrics"].head(0)
    evaluation.write_release(tables, tmp_path)
    res, _ = evaluation.load_scorer().score(str(evaluation.DEFAULT_GOLD), str(tmp_path))
    assert res["url_recall"] == 0.0 and res["metric_recall"] == 0.0
    assert isinstance(tables["papers"], pl.DataFrame)


def test_gold_sets_names_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="nope.jsonl"):
        evaluation.gold_sets([tmp_path / "nope.jsonl"])


def test_union_gold_concatenates(tmp_path):
    out = evaluation.union_gold(list(evaluation.DEV_GOLDS), tmp_path / "u.jsonl")
    lines = out.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 398 and json.loads(lines[100])["doc_id"] == "dev2-001"
    assert json.loads(lines[248])["doc_id"] == "dev3-001"


def test_runtime_package_does_not_import_tests():
    """The evaluation entry point is outside the runtime package: nothing in pipeline/ imports tests or reads
    tests/data."""
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "pipeline"
    rx = re.compile(r"^\s*(?:from|import)\s+tests\b|tests/data|\"tests\"", re.M)
    assert [str(p) for p in root.rglob("*.py") if rx.search(p.read_text(encoding="utf-8"))] == []


def test_cost_and_table_format():
    cost = evaluation.measure_cost(limit=200)
    assert cost["n"] > 0 and cost["ms_per_abstract"] > 0
    table = evaluation.format_table(
        {
            "direct": {
                k: 1.0
                for k in (
                    "url_precision",
                    "url_recall",
                    "url_f1",
                    "url_kind_acc",
                    "metric_precision",
                    "metric_recall",
                    "metric_f1",
                    "metric_kind_acc",
                    "metric_name_acc",
                    "metric_dataset_acc",
                    "metric_subject_acc",
                )
            }
        }
    )
    assert "| URL F1 | 1.000 | ≥ 0.98 |" in table


def test_spread_is_worst_and_best_file():
    cols = {"a": {k: 0.5 for _, k in evaluation._ROWS}, "b": {k: 0.9 for _, k in evaluation._ROWS}}
    assert evaluation.spread(cols, ["a", "b"])["metric_f1"] == (0.5, 0.9)
    table = evaluation.format_table(cols, spread_of=["a", "b"])
    assert "| metric F1 | 0.500 | 0.900 | 0.500 | 0.900 | no | ≥ 0.94 |" in table
