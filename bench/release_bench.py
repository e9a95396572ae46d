"""What a safe publish costs: the +1-listing run on a full warehouse, its publish step, and the price of
checking the files a release reuses from its parent (sha256) against copying them instead.

Builds the listings of `make bench` from ../shared/corpus/real_abstracts_dev.parquet (says so and exits
when it is absent), runs the full build once (or reuses it with --keep DIR), then from that same state
runs `python -m pipeline run` with one more listing --runs times (from --code, default this repository,
so an older checkout can be compared on the same state), and on the last release measures:
  - the sha256 of every file it shares with its parent (what a publish checks before linking them);
  - copying those files instead (with fsync), the alternative to checking them;
  - a full verify of the release (what the publish runs on the staged release before its commit).

usage: python bench/release_bench.py [--keep DIR] [--runs 3] [--code DIR]
"""

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

# `python bench/release_bench.py` needs the repository root on the path for `bench` and `pipeline`;
# `python -m bench.release_bench` (the Makefile) and imports from tests do not
if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import polars as pl  # noqa: E402

from bench.listings import load_corpus, write_listings  # noqa: E402
from bench.pipeline_bench import PY, measure, pipeline_env, stage_breakdown  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def build(work: Path) -> Path:
    """The full build (every corpus abstract but one held-out listing of 500) in ``work/full``; returns
    the held-out listing's path. Skipped when ``work/full`` is already there."""
    corpus = load_corpus()
    sizes = (
        corpus.group_by("venue", "year").len().sort("len", "venue", "year", descending=[True, False, False])
    )
    venue, year = sizes.row(0)[:2]
    corpus = corpus.with_row_index("i")
    held = set(corpus.filter(pl.col("venue") == venue, pl.col("year") == year)["i"].tail(500).to_list())
    holdout = work / "holdout"
    if not holdout.exists():
        write_listings(corpus.filter(pl.col("i").is_in(list(held))).drop("i"), holdout)
    new = next(holdout.glob("*.txt"))
    if not (work / "full" / "warehouse" / "LATEST").exists():
        write_listings(corpus.filter(~pl.col("i").is_in(list(held))).drop("i"), work / "raw_full")
        r = measure(
            [PY, "-m", "pipeline", "run"], pipeline_env(work / "full", work / "raw_full"), work / "full.log"
        )
        print(f"full build: {r}")
    return new


def hash_copy_verify(wh: Path) -> dict:
    """Seconds to sha256 the latest release's files shared with its parent, to copy them (with fsync),
    and to verify the whole release; with their count and MB."""
    from pipeline import release
    from pipeline.release.read import sha256_file

    n = release.latest_release(wh)
    root = release.release_dir(wh, n)
    files = [root / f.path for f in release.read_manifest(root).table_files().values()]
    shared = [p for p in files if p.stat().st_nlink > 1]
    mb = sum(p.stat().st_size for p in shared) / 1e6
    t0 = time.perf_counter()
    for p in shared:
        sha256_file(p)
    t_hash = time.perf_counter() - t0
    out = Path(tempfile.mkdtemp(dir=wh))
    t0 = time.perf_counter()
    for i, p in enumerate(shared):
        dst = out / f"{i}.parquet"
        shutil.copyfile(p, dst)
        fd = os.open(dst, os.O_RDONLY)
        os.fsync(fd)
        os.close(fd)
    t_copy = time.perf_counter() - t0
    shutil.rmtree(out)
    t0 = time.perf_counter()
    problems = release.verify(wh, n)
    t_verify = time.perf_counter() - t0
    return {
        "release": n,
        "files": len(files),
        "shared_files": len(shared),
        "shared_mb": round(mb, 1),
        "hash_shared_s": round(t_hash, 3),
        "copy_shared_s": round(t_copy, 3),
        "verify_release_s": round(t_verify, 3),
        "verify_problems": len(problems),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--keep", type=Path, help="work folder kept between calls (default: a temporary one)")
    ap.add_argument(
        "--runs", type=int, default=3, help="+1-listing runs from the same state (median reported)"
    )
    ap.add_argument(
        "--code", type=Path, default=ROOT, help="checkout whose `python -m pipeline run` is timed"
    )
    args = ap.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="release-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    new = build(work)
    before, state, raw = work / "full", work / "incremental", work / "raw_incremental"
    shutil.rmtree(raw, ignore_errors=True)
    shutil.copytree(work / "raw_full", raw)
    shutil.copy(new, raw / f"new_{new.name}")
    runs = []
    for i in range(args.runs):
        shutil.rmtree(state, ignore_errors=True)
        shutil.copytree(before, state)
        env = pipeline_env(state, raw)
        t0 = time.perf_counter()
        r = measure_in(args.code.resolve(), env, work / f"incremental{i + 1}.log")
        steps = stage_breakdown(state / "dagster_home", newest_run_only=True)["steps"]
        r.update({k: round(steps.get(k, 0.0), 2) for k in ("dataset_tables", "release")})
        runs.append(r)
        print(f"+1 listing run {i + 1} ({time.perf_counter() - t0:.1f} s): {r}")
    med = sorted(runs, key=lambda r: r["wall"])[len(runs) // 2]
    print(
        f"median of {len(runs)}: wall {med['wall']:.2f} s, dataset_tables {med['dataset_tables']} s, "
        f"release {med['release']} s (walls {[round(r['wall'], 2) for r in runs]}, "
        f"stdev {statistics.pstdev([r['wall'] for r in runs]):.2f})"
    )
    print(f"reused files of the +1 release: {hash_copy_verify(state / 'warehouse')}")
    print(f"work folder: {work}")


def measure_in(code: Path, env: dict, log: Path) -> dict:
    """:func:`measure` of `python -m pipeline run` started in ``code`` (another checkout)."""
    import subprocess

    with open(log, "w") as out:
        t0 = time.perf_counter()
        proc = subprocess.Popen(
            [PY, "-m", "pipeline", "run"],
            env={**env, "PYTHONPATH": str(code)},
            stdout=out,
            stderr=subprocess.STDOUT,
            cwd=code,
        )
        _, status, ru = os.wait4(proc.pid, 0)
    if status != 0:
        sys.exit(f"run failed in {code}; log: {log}")
    return {"wall": time.perf_counter() - t0, "cpu": ru.ru_utime + ru.ru_stime, "rss_mb": ru.ru_maxrss / 1024}


if __name__ == "__main__":
    main()
