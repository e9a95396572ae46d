"""Write the sample behind tests/build/test_benchmarks.py from a build of the dev corpus: the 30 most
reported benchmarks (most papers, then most results, then keys) whose direction is known, their top entries
(rank 1) and every abstract with a result on one of them, so the test re-runs extraction and the benchmark
rules on real text without ../shared.

usage: python -m bench.benchmark_sample WAREHOUSE [--out tests/data/benchmarks/dev_top30.json]
WAREHOUSE: a warehouse built from the dev corpus (../shared/corpus/real_abstracts_dev.parquet written as
listings by bench/listings.py, then ``python -m pipeline run``). The hand-check fields (``truth``) are kept
from the existing file for top entries already checked; a new top entry gets ``truth: null`` and must be
checked by reading its sentence before the test passes.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import polars as pl

from pipeline import release
from pipeline.build import benchmarks

OUT = Path(__file__).resolve().parents[1] / "tests" / "data" / "benchmarks" / "dev_top30.json"
TOP = 30


def sentence(text: str, start: int, end: int) -> str:
    """The sentence of ``text`` around [start, end) (split at '. ')."""
    s = text.rfind(". ", 0, start)
    e = text.find(". ", end)
    return text[s + 2 if s >= 0 else 0 : e + 1 if e >= 0 else len(text)]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("warehouse", type=Path)
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    metrics = release.read_table(args.warehouse, "paper_metrics")
    papers = release.read_table(
        args.warehouse, "papers", columns=["paper_id", "venue", "year", "title", "abstract"]
    )
    assert metrics is not None and papers is not None, f"nothing published in {args.warehouse}"
    t = benchmarks.from_tables(metrics, papers)
    b, r = t["benchmarks"], t["benchmark_results"]
    top = (
        b.filter(pl.col("direction") != "unknown")
        .sort(
            ["papers", "results", *benchmarks.KEY],
            descending=[True, True, False, False, False],
            nulls_last=True,
        )
        .head(TOP)
    )
    old = {}
    if args.out.exists():
        old = {
            (e["paper_id"], e["start"], e["end"]): e["truth"] for e in json.loads(args.out.read_text())["top"]
        }
    texts = dict(papers.select("paper_id", "abstract").iter_rows())
    entries = []
    for row in top.iter_rows(named=True):
        best = r.join(
            top.filter(
                pl.col("dataset_key") == row["dataset_key"],
                pl.col("metric_key") == row["metric_key"],
                pl.col("unit").eq_missing(row["unit"]),
            ).select(benchmarks.KEY),
            on=benchmarks.KEY,
            nulls_equal=True,
        )
        best = best.filter(pl.col("paper_id") == row["best_paper_id"], pl.col("rank") == 1).row(0, named=True)
        key = (best["paper_id"], best["start"], best["end"])
        entries.append(
            {
                **{k: row[k] for k in (*benchmarks.KEY, "direction", "papers")},
                "paper_id": best["paper_id"],
                "start": best["start"],
                "end": best["end"],
                "value_text": best["value_text"],
                "metric": best["metric"],
                "dataset": best["dataset"],
                "sentence": sentence(texts[best["paper_id"]], best["start"], best["end"]),
                "truth": old.get(key),
            }
        )
    used = r.join(top.select(benchmarks.KEY), on=benchmarks.KEY, nulls_equal=True)["paper_id"].unique().sort()
    docs = papers.filter(pl.col("paper_id").is_in(used.implode())).sort("paper_id")
    out = {"top": entries, "papers": docs.to_dicts()}
    args.out.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{args.out}: {len(entries)} benchmarks, {docs.height} abstracts")


if __name__ == "__main__":
    main()
