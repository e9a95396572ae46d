"""Table invariants of extracted rows on real and unseen text: every paper_metrics / paper_urls row the
extraction produces must pass the Pandera models of schemas/ (the pipeline's blocking asset checks).

Runs the per-abstract extraction the way pipeline.analyse.abstracts.analyse_abstract does (clean the raw text,
quarantine rule, URLs on the raw text, metrics on the clean text; language detection and hashing are
skipped: no table invariant depends on them) over

- (a) every abstract of the dev corpus (../shared/corpus/real_abstracts_dev.parquet, 58,671 abstracts),
- (b) ``--variants`` word-swapped variants of them (bench/scale_bench.py ``variant()``, k = 1..4 in turn,
  spread evenly over the corpus), i.e. text the rules have never seen, as in the 250k-abstract scale
  benchmark; with ``--all-variants``, every abstract's variants 1..4 (4 x 58,671: about 10 minutes on 2
  workers).

builds paper_metrics and paper_urls rows (placeholder paper_id/venue/year) and validates them with
schemas.validate. Prints, per corpus, the number of rows and, for every failing check, the count and each
failing row's rules, value, kind, unit and text span (with some context). Exit status 1 when any check fails.

When the dev corpus is absent the script says so and exits with status 2.

usage: python bench/extraction_invariants.py [--variants 20000 | --all-variants] [--no-corpus] [--sample N]
                                            [--workers 2]
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# `python bench/extraction_invariants.py` needs the repository root on the path for `bench` and `pipeline`;
# `python -m bench.extraction_invariants` (the Makefile) and imports from tests do not
if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import polars as pl  # noqa: E402

CORPUS = ROOT.parent / "shared" / "corpus" / "real_abstracts_dev.parquet"
#: The extraction rules that exist to keep rows inside the table invariants (pipeline/analyse/extraction/rules.py).
INVARIANT_RULES = ("unsigned-multiplier", "negative-percent-change")
CONTEXT = 60  # characters of the abstract shown either side of a failing span


def _analyse(raws: list[str]) -> list[tuple[str, list[dict], list[dict]]]:
    """(clean text, metric rows, URL rows) per raw abstract; quarantined abstracts get no rows."""
    from pipeline.analyse import cleaning, quarantine
    from pipeline.analyse.extraction import extract_metrics, extract_urls

    out = []
    for raw in raws:
        clean = cleaning.clean_text(raw)
        if quarantine.quarantine_reason(raw, clean) is not None:
            out.append((clean, [], []))
            continue
        out.append((clean, extract_metrics(clean), extract_urls(raw)))
    return out


def analyse_all(raws: list[str], workers: int) -> list[tuple[str, list[dict], list[dict]]]:
    chunks = [raws[i : i + 500] for i in range(0, len(raws), 500)]
    if workers <= 1:
        return [r for c in chunks for r in _analyse(c)]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return [r for part in pool.map(_analyse, chunks) for r in part]


def table_rows(results, raws) -> tuple[pl.DataFrame, pl.DataFrame, list[tuple[str, str]]]:
    """paper_metrics and paper_urls frames (with a ``doc`` column: the abstract's index) and the texts."""
    from pipeline.analyse.abstracts import METRIC_STRUCT, URL_STRUCT

    mrows, urows = [], []
    for i, (_clean, metrics, urls) in enumerate(results):
        mrows += [{**m, "doc": i} for m in metrics]
        urows += [{**u, "doc": i} for u in urls]
    mschema = {**dict(METRIC_STRUCT.to_schema()), "doc": pl.Int64}
    uschema = {**dict(URL_STRUCT.to_schema()), "doc": pl.Int64}
    ids = pl.format("p{}", pl.col("doc").cast(pl.String).str.zfill(16))
    common = [ids.alias("paper_id"), pl.lit("bench").alias("venue"), pl.lit(2024, pl.Int64).alias("year")]
    metrics = pl.DataFrame(mrows, schema=mschema).with_columns(*common)
    urls = pl.DataFrame(urows, schema=uschema).with_columns(*common, pl.lit("abstract").alias("origin"))
    texts = [(r[0], raw) for r, raw in zip(results, raws)]
    return metrics, urls, texts


def report(label: str, name: str, frame: pl.DataFrame, texts, text_col: int) -> int:
    """Validate ``frame`` as table ``name``; print every failing check with its rows. Returns failing rows."""
    import schemas

    model = schemas.MODELS[name]
    fails = schemas.validate(frame.select(list(model.to_schema().columns)), model)
    print(f"[{label}] {name}: {frame.height} rows from {frame['doc'].n_unique()} abstracts; ", end="")
    if name == "paper_metrics":
        for rule in INVARIANT_RULES:
            print(f"{frame['rules'].list.contains(rule).sum()} rows name {rule}; ", end="")
    if fails is None:
        print("all checks pass")
        return 0
    idx = fails.filter(pl.col("index").is_not_null())
    print(f"{idx['index'].n_unique()} failing rows")
    for check, group in idx.group_by("check", maintain_order=True):
        rows = sorted(set(group["index"].to_list()))
        print(f"  check {check[0]}: {len(rows)} rows")
        for r in rows:
            row = frame.row(r, named=True)
            doc = texts[row["doc"]][text_col]
            a, b = row["start"] or 0, row["end"] or 0
            ctx = doc[max(0, a - CONTEXT) : a] + "[[" + doc[a:b] + "]]" + doc[b : b + CONTEXT]
            keys = (
                ("value", "kind", "unit", "metric", "rules") if name == "paper_metrics" else ("url", "kind")
            )
            print(f"    doc {row['doc']} {', '.join(f'{k}={row[k]!r}' for k in keys)}")
            print(f"      ...{ctx}...")
    other = fails.filter(pl.col("index").is_null())
    for r in other.iter_rows(named=True):
        print(f"  schema-level failure: {r['check']} {r['column']} {r['failure_case']}")
    return idx["index"].n_unique() + other.height


def run(label: str, raws: list[str], workers: int) -> int:
    t0 = time.perf_counter()
    results = analyse_all(raws, workers)
    metrics, urls, texts = table_rows(results, raws)
    print(f"[{label}] {len(raws)} abstracts analysed in {time.perf_counter() - t0:.0f} s")
    return report(label, "paper_metrics", metrics, texts, 0) + report(label, "paper_urls", urls, texts, 1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=CORPUS)
    ap.add_argument("--variants", type=int, default=20000, help="word-swapped variants to check (0: none)")
    ap.add_argument("--all-variants", action="store_true", help="variants 1..4 of every abstract")
    ap.add_argument("--no-corpus", action="store_true", help="check only the variants, not the abstracts")
    ap.add_argument("--sample", type=int, default=0, help="check only the first N dev abstracts (0: all)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes (at most 2 on a shared machine)")
    args = ap.parse_args()
    if not args.corpus.exists():
        print(f"the dev corpus is absent: {args.corpus} (../shared/corpus/ is not there); nothing checked")
        sys.exit(2)
    from bench.scale_bench import MAX_VARIANT, variant

    corpus = pl.read_parquet(args.corpus).sort("venue", "year", "source_record_id")
    raws = corpus["abstract"].to_list()
    if args.sample:
        raws = raws[: args.sample]
    workers = max(1, min(args.workers, 2))
    bad = 0 if args.no_corpus else run("dev corpus", raws, workers)
    if args.all_variants:
        for k in range(1, MAX_VARIANT + 1):
            bad += run(f"variant {k}", [variant(t, k) for t in raws], workers)
    elif args.variants:
        # spread over the corpus: abstract i gets variant 1 + i % MAX_VARIANT
        step = max(1, len(raws) // args.variants)
        picked = list(range(0, len(raws), step))[: args.variants]
        swapped = [variant(raws[i], 1 + (n % MAX_VARIANT)) for n, i in enumerate(picked)]
        bad += run("variants", swapped, workers)
    print(f"failing rows in all: {bad}")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
