"""`make bench`: the whole pipeline against the naive script, on listings built from the dev corpus.

Builds 500-abstract listings from ../shared/corpus/real_abstracts_dev.parquet (one listing of 500 held out),
then, each as a separate process the way `make run` runs it (empty warehouse and DAGSTER_HOME):
  1. the pipeline on a first slice (default 15,000 abstracts), for memory growth;
  2. the pipeline on every abstract but the held-out 500 (the full build);
  3. the naive script (bench/naive_script.py) on the same files;
  4. the held-out listing, written as a papercopilot-style JSON file (so a structured reader is timed), added
     to the full build's raw folder, and the pipeline run again (incremental;
     5 times from the same state, the median reported).
Prints wall time, CPU time and peak memory (max RSS of the process and its workers) of each, their ratios,
a per-stage breakdown of the full build read from its Dagster run records, and a cProfile of the slowest
stage (the per-abstract work) on the held-out listing.

usage: python bench/pipeline_bench.py [--limit N] [--first N] [--keep DIR] [--incremental-runs 5]
       python bench/pipeline_bench.py --scale [--abstracts 250000] [--keep DIR] [--interval 0.5]
(``--scale``, also ``make bench ARGS=--scale``: the 250,000-abstract build and one added listing of
bench/scale_bench.py, with wall time and peak RSS per step; see its docstring)
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

# `python bench/pipeline_bench.py` needs the repository root on the path for `bench` and `pipeline`;
# `python -m bench.pipeline_bench` (the Makefile) and imports from tests do not
if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import polars as pl  # noqa: E402

from bench.listings import load_corpus, write_json_listing, write_listings  # noqa: E402

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
    env.update(
        PIPELINE_RAW_DIR=str(raw),
        PIPELINE_WAREHOUSE_DIR=str(root / "warehouse"),
        DAGSTER_HOME=str(root / "dagster_home"),
    )
    return env


def stage_breakdown(dagster_home: Path, newest_run_only: bool = False) -> dict:
    """Seconds per stage of the runs recorded in a Dagster instance (or of its newest run only): step wall
    times, and the CPU seconds of each per-abstract stage summed over the processes that did the work."""
    os.environ["DAGSTER_HOME"] = str(dagster_home)
    import dagster as dg

    with dg.DagsterInstance.get() as instance:
        steps: dict[str, float] = {}
        runs = instance.get_runs(limit=1) if newest_run_only else instance.get_runs()
        run_ids = {run.run_id for run in runs}
        for run in runs:
            for s in instance.get_run_step_stats(run.run_id):
                if s.start_time and s.end_time:
                    steps[s.step_key] = steps.get(s.step_key, 0.0) + s.end_time - s.start_time
        cpu: dict[str, float] = {}
        seen_runs = set()
        for rec in instance.fetch_materializations(dg.AssetKey("abstracts"), limit=10000).records:
            if rec.run_id in seen_runs or rec.run_id not in run_ids:
                continue
            seen_runs.add(rec.run_id)
            meta = rec.asset_materialization.metadata.get("stage_seconds")
            for k, v in (meta.value if meta else {}).items():
                cpu[k] = cpu.get(k, 0.0) + v
    return {"steps": steps, "cpu": cpu}


def slowest_stage_profile(listing: Path, top: int = 12) -> str:
    """cProfile of the slowest stage, the per-abstract work, on one listing in this process (serial; the
    langdetect profiles and first-call set-up are loaded before profiling). Returns a markdown table of the
    ``top`` functions by own time, with the module they belong to."""
    import cProfile
    import pstats

    from pipeline.analyse import abstracts, language
    from pipeline.ingest import records as ingest_records

    frame, _ = ingest_records.listing_records(listing.read_bytes(), listing.name)
    raws = frame["abstract_raw"].to_list()
    language.load_profiles()
    abstracts.analyse_texts(
        raws[:20]
    )  # first-call set-up (regexes, pylatexenc's macro table) out of the profile
    prof = cProfile.Profile()
    t0 = time.perf_counter()
    prof.enable()
    abstracts.analyse_texts(raws)
    prof.disable()
    wall = time.perf_counter() - t0
    stats = pstats.Stats(prof)
    rows = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[:top]
    lines = [
        f"Profile of the per-abstract work on {listing.name} ({len(raws)} abstracts, one process, "
        f"{wall:.2f} s under cProfile):",
        "",
        "| own s | calls | function |",
        "|---|---|---|",
    ]
    for (path, line, name), (_, ncalls, own, _, _) in rows:
        where = (
            "built-in"
            if path == "~"
            else Path(path).as_posix().split("site-packages/")[-1].replace(str(ROOT) + "/", "") + f":{line}"
        )
        lines.append(f"| {own:.3f} | {ncalls} | `{name}` ({where}) |")
    return "\n".join(lines)


def main() -> None:
    if "--scale" in sys.argv[1:]:  # the 250,000-abstract build instead (bench/scale_bench.py, its options)
        from bench import scale_bench

        scale_bench.main([a for a in sys.argv[1:] if a != "--scale"])
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=0, help="use only the first N corpus abstracts (0: all)")
    ap.add_argument("--first", type=int, default=15000, help="abstracts in the first (memory-growth) build")
    ap.add_argument("--keep", type=Path, help="keep the work folder here instead of a temporary one")
    ap.add_argument(
        "--incremental-runs",
        type=int,
        default=5,
        help="repetitions of the +1-listing run from the same state; the median is reported",
    )
    args = ap.parse_args()

    corpus = load_corpus()
    if args.limit:
        corpus = corpus.head(args.limit)
    # the held-out listing: the last 500 abstracts of the largest venue/year, so it is one listing of 500
    sizes = (
        corpus.group_by("venue", "year").len().sort("len", "venue", "year", descending=[True, False, False])
    )
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
    # the added listing is a JSON file (papercopilot shape): the +1 run times the JSON reader
    v, y = holdout["venue"][0], holdout["year"][0]
    new_listing = write_json_listing(holdout, work / "holdout" / f"{v.lower()}{y}.json")
    new_listing = new_listing.rename(
        new_listing.with_name("new_" + new_listing.name)
    )  # never an existing name
    print(
        f"corpus: {full.height} abstracts in {len(list(raw_full.iterdir()))} listings; "
        f"first slice {min(args.first, full.height)}; held-out listing {new_listing.name} ({holdout.height})"
    )

    cmd = [PY, "-m", "pipeline", "run"]
    first = measure(cmd, pipeline_env(work / "first", raw_first), work / "first.log")
    print(f"pipeline, first {min(args.first, full.height)}: {first}")
    full_run = measure(cmd, pipeline_env(work / "full", raw_full), work / "full.log")
    print(f"pipeline, full: {full_run}")
    full_stages = stage_breakdown(work / "full" / "dagster_home")
    naive = measure(
        [PY, str(ROOT / "bench" / "naive_script.py"), str(raw_full), str(work / "naive.parquet")],
        dict(os.environ),
        work / "naive.log",
    )
    print(f"naive script, full: {naive}")
    # the incremental run is short (a few seconds), so one run is at the mercy of the machine's noise: it is
    # repeated from the same state (the full build's warehouse and DAGSTER_HOME, restored from a copy) and
    # the run with the median wall time is reported
    before = work / "full_before_incremental"
    shutil.copytree(work / "full", before)
    shutil.copy(new_listing, raw_full / new_listing.name)
    runs = []
    for i in range(args.incremental_runs):
        if i:
            shutil.rmtree(work / "full")
            shutil.copytree(before, work / "full")
        runs.append(measure(cmd, pipeline_env(work / "full", raw_full), work / f"incremental{i + 1}.log"))
        runs[-1]["stages"] = stage_breakdown(work / "full" / "dagster_home", newest_run_only=True)
        print(f"pipeline, +1 listing, run {i + 1}: { {k: v for k, v in runs[-1].items() if k != 'stages'} }")
    incr = sorted(runs, key=lambda r: r["wall"])[len(runs) // 2]
    shutil.rmtree(before)

    n_full, n_first = full.height, min(args.first, full.height)
    print()
    print("| run | abstracts | wall s | CPU s | peak RSS MB |")
    print("|---|---|---|---|---|")
    for name, r, n in (
        ("naive script", naive, n_full),
        (f"pipeline, first {n_first}", first, n_first),
        ("pipeline, full build", full_run, n_full),
        (f"pipeline, +1 listing ({holdout.height}; median of {len(runs)})", incr, holdout.height),
    ):
        print(f"| {name} | {n} | {r['wall']:.1f} | {r['cpu']:.1f} | {r['rss_mb']:.0f} |")
    print()
    print(f"full build / naive wall: {full_run['wall'] / naive['wall']:.2f} (target <= 0.75)")
    print(f"+1 listing / full build wall: {incr['wall'] / full_run['wall']:.3f} (target <= 0.10)")
    print(
        f"peak memory growth {n_first} -> {n_full}: {full_run['rss_mb'] / first['rss_mb']:.2f}x for "
        f"{n_full / n_first:.2f}x rows (target: no faster than rows; every process <= 2048 MB)"
    )
    print()
    print(f"| stage | full build ({n_full}) s | +1 listing ({holdout.height}) s |")
    print("|---|---|---|")
    both = (full_stages, incr["stages"])
    for label, key in (
        ("decode + split (listing_records step)", "listing_records"),
        ("per-abstract work (abstracts step, wall)", "abstracts"),
        ("dedup + tables + checks (dataset_tables step)", "dataset_tables"),
        ("publish (release step)", "release"),
    ):
        print(f"| {label} | " + " | ".join(f"{st['steps'].get(key, 0.0):.2f}" for st in both) + " |")
    for k in ("clean", "quarantine", "language", "urls", "metrics", "hashing"):
        print(
            f"| &nbsp;&nbsp;{k} (CPU s, all processes) | "
            + " | ".join(f"{st['cpu'].get(k, 0.0):.2f}" for st in both)
            + " |"
        )
    print(
        "| Dagster + process overhead (run wall - steps) | "
        + " | ".join(
            f"{r['wall'] - sum(st['steps'].values()):.2f}"
            for r, st in ((full_run, full_stages), (incr, incr["stages"]))
        )
        + " |"
    )
    print()
    print(slowest_stage_profile(new_listing))
    print(f"\nwork folder: {work}")
    (work / "results.json").write_text(
        json.dumps(
            {
                "first": first,
                "full": full_run,
                "naive": naive,
                "incremental": incr,
                "incremental_runs": runs,
                "full_stages": full_stages,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
