"""The benchmark tables (pipeline.build.benchmarks) and the metric table (pipeline.analyse.extraction.vocabulary.metric_directions),
checked on real abstracts: the dev-corpus sample of tests/data/benchmarks/dev_top30.json (the 30 most
reported benchmarks of a dev-corpus build and every abstract with a result on one of them; written by
``python -m bench.benchmark_sample``), re-extracted here, so the check needs no ../shared.

The sample's ``truth`` fields are a hand check: for the top entry (rank 1) of each of the 30 benchmarks, the
value, metric and dataset that its sentence reports, and the direction that is right for the metric. 26 of
the 30 were right when the tables were added and 28 now (docs/design.md, "Checked against the text"); the
wrong ones are extraction errors and are expected failures only while the rules still read them wrong."""

from __future__ import annotations

import json
import random
from functools import cache

import polars as pl
import pytest

from pipeline.analyse.extraction import METRIC_FIELDS, extract_metrics
from pipeline.analyse.extraction.keys import dataset_key, metric_key
from pipeline.analyse.extraction.vocabulary import metric_directions
from pipeline.build import benchmarks
from schemas import MODELS, validate
from tests.conftest import DATA

SAMPLE = DATA / "benchmarks" / "dev_top30.json"


@cache
def sample() -> dict:
    return json.loads(SAMPLE.read_text(encoding="utf-8"))


@cache
def tables() -> tuple[pl.DataFrame, pl.DataFrame, dict[str, pl.DataFrame]]:
    """papers, paper_metrics (extraction re-run on the stored abstracts) and the benchmark tables."""
    papers = pl.DataFrame(sample()["papers"]).select("paper_id", "venue", "year", "title", "abstract")
    dtypes = {c: s.dtype.type for c, s in MODELS["paper_metrics"].to_schema().columns.items()}
    rows = [
        {"paper_id": pid, "venue": venue, "year": year, **r}
        for pid, venue, year, text in papers.select("paper_id", "venue", "year", "abstract").iter_rows()
        for r in extract_metrics(text)
    ]
    metrics = pl.DataFrame(rows, schema={c: dtypes[c] for c in ["paper_id", "venue", "year", *METRIC_FIELDS]})
    return papers, metrics, benchmarks.from_tables(metrics, papers)


def _benchmark(entry: dict) -> pl.DataFrame:
    b = tables()[2]["benchmarks"]
    return b.filter(
        pl.col("dataset_key") == entry["dataset_key"],
        pl.col("metric_key") == entry["metric_key"],
        pl.col("unit").eq_missing(entry["unit"]),
    )


def _params():
    for i, e in enumerate(sample()["top"], 1):
        yield pytest.param(e, id=f"{i:02d}-{e['dataset_key']}-{e['metric_key']}")


def _reads(entry: dict) -> dict:
    """What the current rules make of the entry's span: value as written, dataset and metric keys and the
    direction of the metric (the paper_metrics row at the span; {} when the rules no longer give one)."""
    _, metrics, _ = tables()
    row = metrics.filter(
        pl.col("paper_id") == entry["paper_id"],
        pl.col("start") == entry["start"],
        pl.col("end") == entry["end"],
    )
    if row.height != 1:
        return {}
    r = row.row(0, named=True)
    key = metric_key(r["metric"]) if r["metric"] else None
    return {
        "value_text": r["value_text"],
        "dataset_key": dataset_key(r["dataset"]) if r["dataset"] else None,
        "metric_key": key,
        "direction": metric_directions.direction_of(key) if key else "unknown",
    }


@pytest.mark.parametrize("entry", list(_params()))
def test_the_top_entry_is_what_its_sentence_reports(entry):
    """The benchmark's best result is still the sample's span, and the rules read it as its sentence reports
    (value, metric, dataset, direction: the hand-checked ``truth``).

    Two failures are told apart. A different top entry means the sample is stale: rerun
    ``python -m bench.benchmark_sample`` on a dev-corpus build and check the new entries by reading their
    sentences. A known wrong reading (``truth.correct`` false) is an expected failure only while the rules
    still read it wrong; once they read it right the test fails until the check is updated."""
    truth = entry["truth"]
    assert truth is not None, f"top entry not hand-checked yet: {entry['sentence']!r}"
    bench = _benchmark(entry)
    assert bench.height == 1, "the benchmark is no longer one of the sample's: rerun bench.benchmark_sample"
    best = bench.row(0, named=True)
    assert (best["best_paper_id"], best["best_value_text"]) == (entry["paper_id"], entry["value_text"]), (
        "a new top entry: rerun python -m bench.benchmark_sample and check it by reading its sentence"
    )
    papers = tables()[0]
    text = papers.filter(pl.col("paper_id") == entry["paper_id"])["abstract"][0]
    assert entry["value_text"] in text[entry["start"] : entry["end"]]
    assert text[entry["start"] : entry["end"]] in entry["sentence"]
    metric = metric_key(truth["metric"]) if truth["metric"] else None
    expected = {
        "value_text": truth["value_text"],
        "dataset_key": dataset_key(truth["dataset"]) if truth["dataset"] else None,
        "metric_key": metric,
        "direction": truth["direction"],
    }
    assert truth["direction"] == (metric_directions.direction_of(metric) if metric else "unknown")
    if truth["correct"]:
        assert _reads(entry) == expected, entry["sentence"]
    else:
        assert _reads(entry) != expected, "the rules now read this span right: set truth.correct to true"
        pytest.xfail(truth["note"])


def test_every_result_traces_to_a_paper_metrics_row_and_a_span_of_its_abstract():
    papers, metrics, out = tables()
    results = out["benchmark_results"]
    assert results.height > 200
    assert benchmarks.untraced(results.lazy(), metrics.lazy(), papers.lazy()).height == 0
    # and the check can fail: a moved offset and an invented value are both caught
    moved = results.with_columns(pl.col("start") + 1)
    assert benchmarks.untraced(moved.lazy(), metrics.lazy(), papers.lazy()).height == 2 * results.height
    invented = results.head(1).with_columns(value_text=pl.lit("99.99"))
    assert benchmarks.untraced(invented.lazy(), metrics.lazy(), papers.lazy())["problem"].to_list() == [
        "no paper_metrics row"
    ]


def test_the_tables_meet_their_models_and_the_rules():
    _, _, out = tables()
    b, r = out["benchmarks"], out["benchmark_results"]
    assert validate(b, MODELS["benchmarks"]) is None
    assert validate(r, MODELS["benchmark_results"]) is None
    assert (b["papers"] >= benchmarks.MIN_PAPERS).all()
    joined = r.join(b.select(*benchmarks.KEY, "direction", "best_value"), on=benchmarks.KEY, nulls_equal=True)
    assert joined.height == r.height  # every result is on a published benchmark
    # rank 1 holds the best value; ranks are competition ranks (equal values share one; the next skips)
    for (_, _, _, direction), group in joined.group_by(*benchmarks.KEY, "direction"):
        values = group.sort("rank")["value"].to_list()
        ranks = group.sort("rank")["rank"].to_list()
        if direction == "unknown":
            assert all(x is None for x in ranks)
            continue
        assert values == sorted(values, reverse=direction == "higher")
        assert values[0] == group["best_value"][0]
        for i, (v, k) in enumerate(zip(values, ranks)):
            assert k == (ranks[i - 1] if i and v == values[i - 1] else i + 1)
    # a result of a baseline or a change never ranks
    _, metrics, _ = tables()
    ranked = r.join(metrics, on=["paper_id", "start", "end"], how="left", suffix="_m")
    assert set(ranked["subject"].unique()) == {"ours"} and set(ranked["kind"].unique()) == {"score"}


def test_same_rows_in_any_order_give_identical_tables():
    papers, metrics, out = tables()
    order = list(range(metrics.height))
    random.Random(7).shuffle(order)
    again = benchmarks.from_tables(metrics[order], papers.reverse())
    for name, df in out.items():
        assert again[name].equals(df), name


@pytest.mark.parametrize("rule", metric_directions.RULES, ids=lambda r: r.name)
def test_direction_rule_examples(rule):
    for key in rule.examples:
        assert metric_directions.rule_of(key) == rule, key
    for key in rule.counter_examples:
        assert metric_directions.rule_of(key) != rule, key


def test_the_directions_the_issue_names():
    """Lower is better for WER, FID, perplexity, error and latency; higher for accuracy; a bare score is
    unknown."""
    lower = ["Word Error Rate", "WER", "FID", "perplexity", "top-1 error", "latency", "test error"]
    assert {metric_directions.direction_of(metric_key(m)) for m in lower} == {"lower"}
    higher = ["accuracy", "top-1 accuracy", "mIoU", "BLEU", "pass@1", "F1 score", "mAP"]
    assert {metric_directions.direction_of(metric_key(m)) for m in higher} == {"higher"}
    assert metric_directions.direction_of(metric_key("score")) == "unknown"


def test_the_files_written_are_byte_identical_for_the_same_input(tmp_path):
    from pipeline.release import writer

    papers, metrics, out = tables()
    again = benchmarks.from_tables(metrics.reverse(), papers)
    digests = []
    for i, built in enumerate((out, again)):
        parts = {name: writer.partitions(df, name) for name, df in built.items()}
        assert [p.rel for ps in parts.values() for p in ps] == [
            "benchmarks/part-0.parquet",
            "benchmark_results/part-0.parquet",
        ]
        parts = {name: parts.get(name, []) for name in writer.TABLES}
        written = writer.write_tables(parts, tmp_path / str(i), None, {})[0]
        digests.append({f.path: f.sha256 for files in written.values() for f in files})
    assert digests[0] == digests[1] and len(digests[0]) == 2
