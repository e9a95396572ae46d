"""`make bench`: the whole pipeline against the naive script, on listings built from the dev corpus.

Builds 500-abstract listings from ../shared/corpus/real_abstracts_dev.parquet (one listing of 500 held out),
then, each as a separate process the way `make run` runs it (empty warehouse and DAGSTER_HOME):
  1. the pipeline on a first slice (default 15,000 abstracts), for memory growth;
  2. the pipeline on every abstract but the held-out 500 (the full build);
  3. the naive script (bench/naive_script.py) on the same files;
  4. the held-out listing added to the full build's raw folder, and the pipeline run again (incremental).
Prints wall time, CPU time and peak memory (max RSS of the process and its workers) of each, their ratios,
and a per-stage breakdown of the full build read from its Dagster run records.

usage: python bench/pipeline_bench.py [--limit N] [--first N] [--keep DIR]
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import polars as pl  # noqa: E402
from listings import load_corpus, write_listings  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable


def measure(cmd: list[str], env: dict, log: Path) -> dict:
    """Run ``cmd``; return wall s, CPU s (user+sys, with waited-for children) and peak RSS MB."""
    with open(log, "w") as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
        _, status, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
    if status != 0:
        sys.exit(f"command failed ({status}): {' '.join(cmd)}; log: {log}\n{log.read_text()[-3000:]}")
    return {"wall": wall, "cpu": ru.ru_utime + ru.ru_stime, "rss_mb": ru.ru_maxrss / 1024}


def pipeline_env(root: Path, raw: Path) -> dict:
    env = dict(os.environ)
    env.update(PIPELINE_RAW_DIR=str(raw), PIPELINE_WAREHOUSE_DIR=str(root / "warehouse"),
               DAGSTER_HOME=str(root / "dagster_home"))
    return env


def stage_breakdown(dagster_home: Path) -> dict:
    """Seconds per stage of the runs recorded in a Dagster instance (step wall times, and the CPU seconds
    of each per-abstract stage summed over worker processes)."""
    os.environ["DAGSTER_HOME"] = str(dagster_home)
    import dagster as dg

    with dg.DagsterInstance.get() as instance:
        steps: dict[str, float] = {}
        for run in instance.get_runs():
            for s in instance.get_run_step_stats(run.run_id):
                if s.start_time and s.end_time:
                    steps[s.step_key] = steps.get(s.step_key, 0.0) + s.end_time - s.start_time
        cpu: dict[str, float] = {}
        seen_runs = set()
        for rec in instance.fetch_materializations(dg.AssetKey("abstracts"), limit=10000).records:
            if rec.run_id in seen_runs:
                continue
            seen_runs.add(rec.run_id)
            meta = rec.asset_materialization.metadata.get("stage_seconds")
            for k, v in (meta.value if meta else {}).items():
                cpu[k] = cpu.get(k, 0.0) + v
    return {"steps": steps, "cpu": cpu}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=0, help="use only the first N corpus abstracts (0: all)")
    ap.add_argument("--first", type=int, default=15000, help="abstracts in the first (memory-growth) build")
    ap.add_argument("--keep", type=Path, help="keep the work folder here instead of a temporary one")
    args = ap.parse_args()

    corpus = load_corpus()
    if args.limit:
        corpus = corpus.head(args.limit)
    # the held-out listing: the last 500 abstracts of the largest venue/year, so it is one listing of 500
    sizes = corpus.group_by("venue", "year").len().sort("len", "venue", "year", descending=[True, False, False])
    venue, year = sizes.row(0)[:2]
    group = corpus.with_row_index("i").filter(pl.col("venue") == venue, pl.col("year") == year)
    held = set(group["i"].tail(500).to_list())
    corpus = corpus.with_row_index("i")
    holdout = corpus.filter(pl.col("i").is_in(list(held))).drop("i")
    full = corpus.filter(~pl.col("i").is_in(list(held))).drop("i")
    work = args.keep or Path(tempfile.mkdtemp(prefix="pipeline-bench-"))
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    raw_full, raw_first = work / "raw_full", work / "raw_first"
    write_listings(full, raw_full)
    write_listings(full.head(min(args.first, full.height)), raw_first)
    new_listing = write_listings(holdout, work / "holdout")[0]
    new_listing = new_listing.rename(new_listing.with_name("new_" + new_listing.name))  # never an existing name
    print(f"corpus: {full.height} abstracts in {len(list(raw_full.iterdir()))} listings; "
          f"first slice {min(args.first, full.height)}; held-out listing {new_listing.name} ({holdout.height})")

    cmd = [PY, "-m", "pipeline", "run"]
    first = measure(cmd, pipeline_env(work / "first", raw_first), work / "first.log")
    print(f"pipeline, first {min(args.first, full.height)}: {first}")
    full_run = measure(cmd, pipeline_env(work / "full", raw_full), work / "full.log")
    print(f"pipeline, full: {full_run}")
    naive = measure([PY, str(ROOT / "bench" / "naive_script.py"), str(raw_full), str(work / "naive.parquet")],
                    dict(os.environ), work / "naive.log")
    print(f"naive script, full: {naive}")
    shutil.copy(new_listing, raw_full / new_listing.name)
    incr = measure(cmd, pipeline_env(work / "full", raw_full), work / "incremental.log")
    print(f"pipeline, +1 listing: {incr}")
    stages = stage_breakdown(work / "full" / "dagster_home")

    n_full, n_first = full.height, min(args.first, full.height)
    print()
    print("| run | abstracts | wall s | CPU s | peak RSS MB |")
    print("|---|---|---|---|---|")
    for name, r, n in (("naive script", naive, n_full), (f"pipeline, first {n_first}", first, n_first),
                       ("pipeline, full build", full_run, n_full), (f"pipeline, +1 listing ({holdout.height})", incr, holdout.height)):
        print(f"| {name} | {n} | {r['wall']:.1f} | {r['cpu']:.1f} | {r['rss_mb']:.0f} |")
    print()
    print(f"full build / naive wall: {full_run['wall'] / naive['wall']:.2f} (target <= 0.75)")
    print(f"+1 listing / full build wall: {incr['wall'] / full_run['wall']:.3f} (target <= 0.10)")
    print(f"peak memory growth {n_first} -> {n_full}: {full_run['rss_mb'] / first['rss_mb']:.2f}x for "
          f"{n_full / n_first:.2f}x rows (target: no faster than rows; every process <= 2048 MB)")
    print()
    steps = stages["steps"]
    print("| stage (full build + incremental run) | seconds |")
    print("|---|---|")
    for label, key in (("decode + split (listing_records step)", "listing_records"),
                       ("per-abstract work (abstracts step, wall)", "abstracts"),
                       ("dedup + tables + checks (dataset_tables step)", "dataset_tables"),
                       ("publish (release step)", "release")):
        print(f"| {label} | {steps.get(key, 0.0):.1f} |")
    for k in ("clean", "quarantine", "language", "urls", "metrics", "hashing"):
        print(f"| &nbsp;&nbsp;{k} (CPU s over workers) | {stages['cpu'].get(k, 0.0):.1f} |")
    total_steps = sum(steps.values())
    print(f"| Dagster + process overhead (wall of both runs - steps) | "
          f"{full_run['wall'] + incr['wall'] - total_steps:.1f} |")
    print(f"\nwork folder: {work}")
    (work / "results.json").write_text(json.dumps({"first": first, "full": full_run, "naive": naive,
                                                   "incremental": incr, "stages": stages}, indent=2))


if __name__ == "__main__":
    main()
