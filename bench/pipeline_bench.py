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
       python bench/pipeline_bench.py --scale [--abstracts 120000 1000000] [--keep DIR] [--interval 0.5]
(``--scale``, also ``make bench ARGS=--scale``: the 120,000- and 1,000,000-abstract builds and one added listing of
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


#: The step of each asset whose materialisations carry the step's ``cpu_seconds`` (pipeline/defs/assets.py).
STEP_ASSETS = {
    "listing_records": "listing_records",
    "abstracts": "abstracts",
    "dataset_tables": "papers",
    "release": "release",
}


def stage_breakdown(dagster_home: Path, newest_run_only: bool = False) -> dict:
    """Seconds per stage of the runs recorded in a Dagster instance (or of its newest run only): step wall
    times (``steps``), the main process's CPU seconds of each step (``step_cpu``, the materialisations'
    ``cpu_seconds``), and the seconds of each per-abstract stage summed over the processes that did the work
    (``cpu``: wall clock inside a chunk, plus ``chunk_cpu`` / ``chunk_wall``, the chunks' CPU and wall)."""
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
        step_cpu: dict[str, float] = {}
        for step, asset in STEP_ASSETS.items():
            counted = (
                set()
            )  # a range run records one materialisation per partition, each with the step's figure
            for rec in instance.fetch_materializations(dg.AssetKey(asset), limit=10000).records:
                meta = (
                    rec.asset_materialization.metadata.get("cpu_seconds") if rec.run_id in run_ids else None
                )
                if meta is not None and rec.run_id not in counted:
                    counted.add(rec.run_id)
                    step_cpu[step] = step_cpu.get(step, 0.0) + meta.value
        cpu: dict[str, float] = {}
        seen_runs = set()
        for rec in instance.fetch_materializations(dg.AssetKey("abstracts"), limit=10000).records:
            if rec.run_id in seen_runs or rec.run_id not in run_ids:
                continue
            seen_runs.add(rec.run_id)
            meta = rec.asset_materialization.metadata.get("stage_seconds")
            for k, v in (meta.value if meta else {}).items():
                cpu[k] = cpu.get(k, 0.0) + v
    return {"steps": steps, "cpu": cpu, "step_cpu": step_cpu}


#: Run in a fresh interpreter by :func:`fixed_cost`: wall and CPU seconds at each point of a run's fixed
#: start-up (the interpreter itself up to the first line, the command line module, Dagster, the pipeline's
#: definitions, the instance opened).
FIXED_COST_PROBE = """
import json, os, sys, time
c, w = time.process_time, time.perf_counter
out = {"interpreter": [c(), None]}
w0 = w()
import pipeline.cli
out["import pipeline.cli"] = [c(), w() - w0]
import dagster as dg
out["import dagster"] = [c(), w() - w0]
import pipeline.definitions
out["load the definitions (assets, rules, pandera)"] = [c(), w() - w0]
with dg.DagsterInstance.get() as instance:
    instance.get_runs(limit=1)
out["open the instance"] = [c(), w() - w0]
print(json.dumps(out))
"""


def fixed_cost(env: dict) -> dict[str, tuple[float, float]]:
    """What a run pays before its first step, measured in a fresh interpreter against ``env``'s instance:
    ``{point: (CPU s of that point alone, wall s of it)}``; the interpreter's start-up as CPU only (its
    wall is the command's wall minus the points')."""
    t0 = time.perf_counter()
    done = subprocess.run(
        [PY, "-c", FIXED_COST_PROBE], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    total_wall = time.perf_counter() - t0
    points = json.loads(done.stdout)
    out, prev_cpu, prev_wall = {}, 0.0, 0.0
    for name, (cpu, wall) in points.items():
        out[name] = (cpu - prev_cpu, (wall if wall is not None else 0.0) - prev_wall)
        prev_cpu, prev_wall = cpu, wall if wall is not None else 0.0
    out["interpreter"] = (out["interpreter"][0], total_wall - prev_wall)
    return out


#: Run by :func:`dev_extra_cost`: the import time of what pandera also imports when the dev extra put it in
#: the venv (pandas, pyspark), which a `make run` venv (no extra) does not have.
DEV_EXTRA_PROBE = """
import importlib.util, json, time
found = [m for m in ("pandas", "pyspark.sql") if importlib.util.find_spec(m.split(".")[0])]
t = time.perf_counter()
for m in found:
    __import__(m)
print(json.dumps({"modules": found, "wall": time.perf_counter() - t}))
"""


def dev_extra_cost() -> tuple[list[str], float]:
    """(the dev extra's modules pandera imports that this venv has, their import wall s in a fresh
    interpreter): part of the definitions' load in this venv, none of it in a `make run` venv."""
    done = subprocess.run([PY, "-c", DEV_EXTRA_PROBE], cwd=ROOT, capture_output=True, text=True, check=True)
    out = json.loads(done.stdout)
    return out["modules"], out["wall"]


def decode_seconds(raw: Path) -> tuple[float, float]:
    """CPU and wall seconds of decoding every listing of ``raw`` to text (pipeline.ingest.readers.decoding,
    what the listing_records step does before a reader splits the text), in this process."""
    from pipeline.ingest.readers import decoding

    files = sorted(p for p in raw.rglob("*") if p.is_file())
    datas = [(p.name, p.read_bytes()) for p in files]
    c0, w0 = time.process_time(), time.perf_counter()
    for name, data in datas:
        decoding.decode_listing(data, name)
    return time.process_time() - c0, time.perf_counter() - w0


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
    if "--scale" in sys.argv[1:]:  # the 120k and 1M builds instead (bench/scale_bench.py, its options)
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
    full_env = pipeline_env(work / "full", raw_full)
    full_run = measure(cmd, full_env, work / "full.log")
    print(f"pipeline, full: {full_run}")
    full_stages = stage_breakdown(work / "full" / "dagster_home")
    # nothing changed: the shortcut (pipeline/cli_unchanged.py), then the full path over the same state
    # (its stamp removed), which rebuilds the tables and finds the content unchanged
    unchanged = measure(cmd, full_env, work / "unchanged.log")
    (work / "full" / "dagster_home" / ".pipeline_last_run.json").unlink()
    unchanged_full = measure(cmd, full_env, work / "unchanged_full.log")
    unchanged_full["stages"] = stage_breakdown(work / "full" / "dagster_home", newest_run_only=True)
    print(f"pipeline, nothing changed: {unchanged}; full path: {_plain(unchanged_full)}")
    fixed = fixed_cost(full_env)
    decode = decode_seconds(raw_full)
    naive = measure(
        [PY, str(ROOT / "bench" / "naive_script.py"), str(raw_full), str(work / "naive.parquet")],
        dict(os.environ),
        work / "naive.log",
    )
    print(f"naive script, full: {naive}")
    incr, runs = incremental_runs(cmd, work, raw_full, new_listing, args.incremental_runs)
    n_full, n_first = full.height, min(args.first, full.height)
    print(f"\nload average at the end: {os.getloadavg()[0]:.2f} (1 min); {os.cpu_count()} cores")
    print()
    print("| run | abstracts | wall s | CPU s | cores busy | peak RSS MB |")
    print("|---|---|---|---|---|---|")
    for name, r, n in (
        ("naive script", naive, n_full),
        (f"pipeline, first {n_first}", first, n_first),
        ("pipeline, full build", full_run, n_full),
        (f"pipeline, +1 listing ({holdout.height}; median of {len(runs)})", incr, holdout.height),
        ("pipeline, nothing changed", unchanged, 0),
        ("pipeline, nothing changed, full path (no stamp)", unchanged_full, 0),
    ):
        print(
            f"| {name} | {n} | {r['wall']:.2f} | {r['cpu']:.2f} | {r['cpu'] / r['wall']:.2f} of "
            f"{os.cpu_count()} | {r['rss_mb']:.0f} |"
        )
    print()
    print(f"full build / naive wall: {full_run['wall'] / naive['wall']:.2f} (target <= 0.35)")
    print(f"+1 listing / full build wall: {incr['wall'] / full_run['wall']:.3f} (target <= 0.04)")
    print(f"nothing changed: {unchanged['wall']:.2f} s wall (target <= 3 s)")
    print(
        f"peak memory growth {n_first} -> {n_full}: {full_run['rss_mb'] / first['rss_mb']:.2f}x for "
        f"{n_full / n_first:.2f}x rows (target: no faster than rows; every process <= 2048 MB)"
    )
    print()
    print_stages(
        {
            f"full build ({n_full})": (full_run, full_stages),
            f"+1 listing ({holdout.height})": (incr, incr["stages"]),
            "nothing changed, full path": (unchanged_full, unchanged_full["stages"]),
        },
        decode,
    )
    print()
    print("Fixed cost of a run, in a fresh interpreter against the full build's instance:")
    print()
    print("| point | CPU s | wall s |")
    print("|---|---|---|")
    for name, (cpu, wall) in fixed.items():
        print(f"| {name} | {cpu:.2f} | {wall:.2f} |")
    extra, extra_wall = dev_extra_cost()
    if extra:
        print()
        print(
            f"This venv has the dev extra: pandera imports {', '.join(extra)} with the definitions, "
            f"{extra_wall:.2f} s wall of every run above; a `make run` venv (no extra) has neither."
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
                "unchanged": unchanged,
                "unchanged_full": unchanged_full,
                "fixed_cost": fixed,
                "decode": decode,
            },
            indent=2,
        )
    )


def _plain(r: dict) -> dict:
    return {k: v for k, v in r.items() if k != "stages"}


def incremental_runs(
    cmd: list[str], work: Path, raw_full: Path, new_listing: Path, n: int
) -> tuple[dict, list]:
    """The +1 run: ``new_listing`` added to the full build's raw folder, the pipeline run ``n`` times from the
    same state (the full build's warehouse and DAGSTER_HOME, restored from a copy); returns the run with the
    median wall time and every run. A short run is at the mercy of the machine's noise, hence the median."""
    before = work / "full_before_incremental"
    shutil.copytree(work / "full", before)
    shutil.copy(new_listing, raw_full / new_listing.name)
    runs = []
    for i in range(n):
        if i:
            shutil.rmtree(work / "full")
            shutil.copytree(before, work / "full")
        runs.append(measure(cmd, pipeline_env(work / "full", raw_full), work / f"incremental{i + 1}.log"))
        runs[-1]["stages"] = stage_breakdown(work / "full" / "dagster_home", newest_run_only=True)
        print(f"pipeline, +1 listing, run {i + 1}: {_plain(runs[-1])}")
    shutil.rmtree(before)
    return sorted(runs, key=lambda r: r["wall"])[len(runs) // 2], runs


def print_stages(columns: dict[str, tuple[dict, dict]], decode: tuple[float, float]) -> None:
    """The per-step and per-stage table: for each run (column: (measure() result, stage_breakdown())), the
    step's wall s (Dagster's step record) / its main-process CPU s (``cpu_seconds``), the per-abstract stages
    (seconds inside the chunks, all processes), and what is left: start-up, imports, instance, run records."""
    names = list(columns)
    print("| step / stage | " + " | ".join(f"{n}: wall s / CPU s" for n in names) + " |")
    print("|---|" + "---|" * len(names))
    for label, key in (
        ("decode + read (listing_records step)", "listing_records"),
        ("per-abstract work (abstracts step; CPU: main process)", "abstracts"),
        ("dedup + tables + checks (dataset_tables step)", "dataset_tables"),
        ("publish (release step)", "release"),
    ):
        cells = [
            f"{st['steps'].get(key, 0.0):.2f} / {st['step_cpu'].get(key, 0.0):.2f}"
            for _, st in columns.values()
        ]
        print(f"| {label} | " + " | ".join(cells) + " |")
    cells = [
        f"{st['cpu'].get('chunk_wall', 0.0):.2f} / {st['cpu'].get('chunk_cpu', 0.0):.2f}"
        for _, st in columns.values()
    ]
    print("| &nbsp;&nbsp;abstracts analysed, all processes (chunks) | " + " | ".join(cells) + " |")
    for k in ("clean", "quarantine", "language", "urls", "metrics", "hashing"):
        cells = []
        for _, st in columns.values():
            wall, share = (
                st["cpu"].get(k, 0.0),
                st["cpu"].get("chunk_cpu", 0.0) / (st["cpu"].get("chunk_wall") or 1),
            )
            cells.append(f"{wall:.2f} / {wall * share:.2f}")
        print(
            f"| &nbsp;&nbsp;{k} (all processes; CPU: wall x the chunks' CPU share) | "
            + " | ".join(cells)
            + " |"
        )
    cells = [
        f"{r['wall'] - sum(st['steps'].values()):.2f} / {r['cpu'] - sum(st['step_cpu'].values()):.2f}"
        for r, st in columns.values()
    ]
    print(
        "| outside the steps: start-up, imports, instance, run records (CPU: the run's minus the steps' "
        "main-process CPU, so the helpers' analysis and warm-up too) | " + " | ".join(cells) + " |"
    )
    print(
        f"\nDecoding alone (pipeline.ingest.readers.decoding over the full build's listings, one process): "
        f"{decode[0]:.2f} s CPU, {decode[1]:.2f} s wall"
    )


if __name__ == "__main__":
    main()
