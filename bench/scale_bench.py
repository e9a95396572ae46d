"""`make bench-scale`: memory and cost of a 120,000- and a 1,000,000-abstract build (``--abstracts``: other
sizes) and of adding one 500-abstract listing to each.

The dev corpus (../shared/corpus/real_abstracts_dev.parquet, 58,671 abstracts; the benchmark says so and
stops when it is absent) is too small, so the raw folder is made of distinct variants of its abstracts:

- variant 0 is the abstract as it is; variant k >= 1 swaps every word at a position p = offset (mod period)
  with the word after it (words split on whitespace), for the (period, offset) pairs of VARIANT_SWAPS:
  periods 5 to 8, 22 variants, 1.28 million abstracts at most. A swap changes every word 3-shingle that covers
  p or p + 1, i.e. 4 of every ``period`` shingles, so a variant's Jaccard similarity with the original is
  about (period - 4) / (period + 4) (1/3 at period 8), and with another variant lower: on 150 corpus
  abstracts of 20 shingles or more, every pair of the 23 variants had a Jaccard similarity of at most 0.44
  and a containment of at most 0.63 (the hashed words are not quite the whitespace words), far below the
  near-duplicate threshold (pipeline.build.dedup.JACCARD_THRESHOLD, 0.8) and the containment threshold (0.9): every
  variant is a distinct paper for the pipeline, and is analysed afresh (its raw text, hence its raw_sha256,
  differs). Vocabulary, numbers and URLs are kept, so language and extraction work as on real text.
- Variants 0, 1, 2, ... are taken in order until the build holds the size asked for; each variant is a
  sub-folder ``v<k>/`` of 500-abstract listings (bench/listings.py). The +1 listing is 500 original
  abstracts held out of every variant (the last 500 of the largest venue/year).

Then, for each size, each as one ``python -m pipeline run`` process (the way `make run` runs it,
``PIPELINE_WORKERS`` default: all CPUs) with an empty warehouse and DAGSTER_HOME: the full build, then the
held-out listing added and the pipeline run again. A sampler reads /proc every ``--interval`` seconds: the
RSS of the run's process and of each helper it started. Peak RSS per step = the largest sample while the
step ran (its start and end from the run's Dagster step records). Prints wall, CPU and peak RSS of each run,
the per-step table, the +1 / full ratios, and the gaps against the targets of TARGETS (120,000: every
process <= 1 GB and +1 <= 0.03 x full; 1,000,000: <= 3 GB and <= 0.01 x).

Figures and their commands: docs/scale-out.md, "Scale".

usage: python -m bench.scale_bench [--abstracts 120000 1000000] [--keep DIR] [--interval 0.5]
       python -m bench.pipeline_bench --scale [same options]   (make bench ARGS=--scale)
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

# `python bench/scale_bench.py` needs the repository root on the path for `bench` and `pipeline`;
# `python -m bench.scale_bench` (the Makefile) and imports from tests do not
if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
import polars as pl  # noqa: E402

from bench.listings import load_corpus, write_listings  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
PY = sys.executable
#: Variant k >= 1 swaps every word at a position p = offset (mod period) with the word after it; the
#: variants are every (period, offset) below, in this order (the first four are the 250,000 build's).
#: A swap changes the word 3-shingles that cover p or p + 1 (4 of every ``period``), so the Jaccard
#: similarity of a variant with the original is about (period - 4) / (period + 4), 1/3 at period 8, far
#: below pipeline.build.dedup.JACCARD_THRESHOLD (0.8); measured in the module docstring.
VARIANT_SWAPS: tuple[tuple[int, int], ...] = (
    *((5, o) for o in range(4)),
    *((6, o) for o in range(5)),
    *((7, o) for o in range(6)),
    *((8, o) for o in range(7)),
)
MAX_VARIANT = len(VARIANT_SWAPS)
#: The build sizes `make bench-scale` runs by default, the speed targets' sizes.
DEFAULT_SIZES = (120_000, 1_000_000)
#: Targets per build size (abstracts -> largest process MB, +1 wall / full wall), the speed issue's table;
#: a size not listed is held to the nearest smaller one.
TARGETS: dict[int, tuple[float, float]] = {
    120_000: (1024, 0.03),
    250_000: (2048, 0.05),
    1_000_000: (3072, 0.01),
}
PAGE_KB = os.sysconf("SC_PAGE_SIZE") // 1024


def variant(text: str, k: int) -> str:
    """Variant ``k`` of an abstract (0: unchanged; k >= 1: VARIANT_SWAPS[k - 1], see its comment)."""
    if k == 0:
        return text
    period, offset = VARIANT_SWAPS[k - 1]
    words = text.split()
    for p in range(offset, len(words) - 1, period):
        words[p], words[p + 1] = words[p + 1], words[p]
    return " ".join(words)


def targets(n: int) -> tuple[float, float]:
    """(largest process MB, +1 / full wall) that a build of ``n`` abstracts is held to (:data:`TARGETS`)."""
    return TARGETS[max([size for size in TARGETS if size <= n], default=min(TARGETS))]


def build_raw(corpus: pl.DataFrame, n: int, raw: Path) -> tuple[int, list[int]]:
    """Write variant sub-folders of ``corpus`` into ``raw`` until ``n`` abstracts; returns (abstracts written,
    abstracts per variant)."""
    written, per_variant = 0, []
    for k in range(MAX_VARIANT + 1):
        take = min(corpus.height, n - written)
        if take <= 0:
            break
        part = corpus.head(take).with_columns(
            pl.col("abstract").map_elements(lambda t, k=k: variant(t, k), return_dtype=pl.String)
        )
        write_listings(part, raw / f"v{k}")
        written += take
        per_variant.append(take)
    if written < n:
        sys.exit(
            f"only {written} abstracts from {MAX_VARIANT + 1} variants of {corpus.height}; asked for {n}"
        )
    return written, per_variant


class RssSampler:
    """Samples, every ``interval`` s, the RSS (MB) of process ``pid`` and of each of its descendants, from
    /proc."""

    def __init__(self, pid: int, interval: float):
        self.pid, self.interval = pid, interval
        self.samples: list[tuple[float, float, float, int]] = []  # (time, largest process, all, processes)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def _tree(self) -> list[int]:
        children: dict[int, list[int]] = {}
        for d in os.listdir("/proc"):
            if not d.isdigit():
                continue
            try:
                stat = Path(f"/proc/{d}/stat").read_text()
            except OSError:
                continue
            ppid = int(stat.rsplit(")", 1)[1].split()[1])
            children.setdefault(ppid, []).append(int(d))
        out, todo = [], [self.pid]
        while todo:
            p = todo.pop()
            out.append(p)
            todo.extend(children.get(p, []))
        return out

    @staticmethod
    def _rss_mb(pid: int) -> float:
        try:
            return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE_KB / 1024
        except (OSError, IndexError):
            return 0.0

    def _loop(self) -> None:
        while not self._stop.is_set():
            rss = [self._rss_mb(p) for p in self._tree()]
            self.samples.append((time.time(), max(rss, default=0.0), sum(rss), len(rss)))
            self._stop.wait(self.interval)

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    def peak(self, start: float = 0.0, end: float = float("inf")) -> tuple[float, float]:
        """(largest single process, sum over the processes) in MB, over the samples within [start, end]; a
        window shorter than the interval gets the sample just after it (the nearest one that saw it)."""
        inside = [s for s in self.samples if start <= s[0] <= end]
        if not inside:
            inside = [s for s in self.samples if s[0] >= end][:1]
        return (max((s[1] for s in inside), default=0.0), max((s[2] for s in inside), default=0.0))


#: Seconds between the progress lines a long run prints (the per-step peaks so far).
PROGRESS_SECONDS = 300


def _progress(name: str, dagster_home: Path, sampler: RssSampler, t0: float, stop: threading.Event) -> None:
    """Every PROGRESS_SECONDS until ``stop``: the peaks so far of each step of the run in progress (a run
    cut short still leaves its figures in the log)."""
    while not stop.wait(PROGRESS_SECONDS):
        try:
            windows = step_windows(dagster_home, newest_run_only=True, running=True)
            if windows and windows[0][1] < t0:  # the newest run is an earlier one: this run has no steps yet
                windows = []
        except Exception as e:  # the instance is being written to: report and try again later
            print(f"[{name} +{time.time() - t0:.0f} s] step records not readable yet ({e})", flush=True)
            continue
        rows = "; ".join(
            f"{k} {r['s']:.0f} s peak {r['peak_mb']:,.0f} / {r['all_mb']:,.0f} MB"
            for k, r in per_step(windows, sampler).items()
        )
        big, total = sampler.peak()
        print(
            f"[{name} +{time.time() - t0:.0f} s] peak so far {big:,.0f} MB largest process / {total:,.0f} MB "
            f"all; steps (largest / all): {rows or '-'}",
            flush=True,
        )


def measure(
    cmd: list[str], env: dict, log: Path, interval: float, name: str = "run"
) -> tuple[dict, RssSampler]:
    """Run ``cmd`` under the sampler; wall s, CPU s (with children) and peak RSS (largest process, from the
    kernel's ru_maxrss) of the run. Prints the per-step peaks so far every PROGRESS_SECONDS."""
    with open(log, "w") as out:
        t0 = time.perf_counter()
        start = time.time()
        proc = subprocess.Popen(cmd, env=env, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT)
        with RssSampler(proc.pid, interval) as sampler:
            stop = threading.Event()
            args = (name, Path(env["DAGSTER_HOME"]), sampler, start, stop)
            progress = threading.Thread(target=_progress, args=args, daemon=True)
            progress.start()
            _, status, ru = os.wait4(proc.pid, 0)
            stop.set()
            progress.join()
        wall = time.perf_counter() - t0
    if status != 0:
        print(
            f"command failed ({status}): {' '.join(cmd)}; log: {log}\n{log.read_text()[-3000:]}", flush=True
        )
    return {
        "wall": wall,
        "cpu": ru.ru_utime + ru.ru_stime,
        "rss_mb": ru.ru_maxrss / 1024,
        "failed": status != 0,
    }, sampler


def step_windows(
    dagster_home: Path, newest_run_only: bool, running: bool = False
) -> list[tuple[str, float, float]]:
    """(step key, start, end) of every step of the runs recorded in a Dagster instance (or its newest run),
    from the steps' start and end events in the run's event log; ``running``: a step not ended yet ends
    now."""
    if not (dagster_home / "dagster.yaml").exists() and not (dagster_home / "history").exists():
        return []
    os.environ["DAGSTER_HOME"] = str(dagster_home)
    import dagster as dg

    with dg.DagsterInstance.get() as instance:
        runs = instance.get_runs(limit=1) if newest_run_only else list(reversed(instance.get_runs()))
        return [
            (s.step_key, s.start_time, s.end_time or time.time())
            for run in runs
            for s in instance.get_run_step_stats(run.run_id)
            if s.start_time and (s.end_time or running)
        ]


def per_step(windows, sampler) -> dict[str, dict]:
    """Step key → wall s (summed over runs), peak RSS MB of the largest process and of all processes, from
    the samples taken while that step ran (its start and end from the run's Dagster step records)."""
    out: dict[str, dict] = {}
    for key, start, end in windows:
        big, total = sampler.peak(start, end)
        row = out.setdefault(key, {"s": 0.0, "peak_mb": 0.0, "all_mb": 0.0, "runs": 0})
        row["s"] += end - start
        row["peak_mb"], row["all_mb"] = max(row["peak_mb"], big), max(row["all_mb"], total)
        row["runs"] += 1
    return out


def print_steps(name: str, windows, sampler) -> None:
    """Print the per-step table of one run as soon as it is done (so a run cut short still leaves it)."""
    print(f"| {name}: step | s | peak MB, largest process | peak MB, all processes |")
    print("|---|---|---|---|")
    for key, r in per_step(windows, sampler).items():
        print(f"| {key} | {r['s']:.1f} | {r['peak_mb']:,.0f} | {r['all_mb']:,.0f} |")
    outside = [s for s in sampler.samples if not any(a <= s[0] <= b for _, a, b in windows)]
    print(
        f"| (outside any step: start-up, sensor, Dagster) | - | {max((s[1] for s in outside), default=0):,.0f} "
        f"| {max((s[2] for s in outside), default=0):,.0f} |",
        flush=True,
    )


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument(
        "--abstracts",
        type=int,
        nargs="+",
        default=list(DEFAULT_SIZES),
        help="abstracts in the full build; several sizes run one after the other (default: %(default)s)",
    )
    ap.add_argument("--keep", type=Path, help="keep the work folder here instead of a temporary one")
    ap.add_argument("--interval", type=float, default=0.5, help="seconds between RSS samples")
    args = ap.parse_args(argv)

    corpus = load_corpus()
    sizes = (
        corpus.group_by("venue", "year").len().sort("len", "venue", "year", descending=[True, False, False])
    )
    venue, year = sizes.row(0)[:2]
    corpus = corpus.with_row_index("i")
    held = set(corpus.filter(pl.col("venue") == venue, pl.col("year") == year)["i"].tail(500).to_list())
    holdout = corpus.filter(pl.col("i").is_in(list(held))).drop("i")
    base = corpus.filter(~pl.col("i").is_in(list(held))).drop("i")
    work = args.keep or Path(tempfile.mkdtemp(prefix="pipeline-scale-"))
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    summary = [run_size(base, holdout, n, work / f"n{n}", args.interval) for n in args.abstracts]
    print()
    print(
        "| abstracts | full build wall s | +1 wall s | +1 / full | target | largest process MB | target MB |"
    )
    print("|---|---|---|---|---|---|---|")
    for n, ratio, peak in summary:
        max_mb, max_ratio = targets(n)
        print(
            f"| {n:,} | {ratio[1]:.1f} | {ratio[2]:.1f} | {ratio[0]:.3f} | <= {max_ratio} | {peak:,.0f} | <= {max_mb:,.0f} |"
        )
    print(f"work folder: {work}")


def run_size(
    base: pl.DataFrame, holdout: pl.DataFrame, n: int, work: Path, interval: float
) -> tuple[int, tuple[float, float, float], float]:
    """The full build of ``n`` abstracts (variants of ``base``) and the +1 run with ``holdout`` added, in
    ``work``; prints their tables and returns (n, (+1 / full wall, full wall, +1 wall), largest process MB).
    Writes ``work/results.json``."""
    work.mkdir(parents=True)
    raw = work / "raw"
    t0 = time.perf_counter()
    n, per_variant = build_raw(base, n, raw)
    new_listing = write_listings(holdout, work / "holdout")[0]
    new_listing = new_listing.rename(new_listing.with_name("new_" + new_listing.name))
    n_files = sum(1 for p in raw.rglob("*.txt"))
    print(
        f"raw folder: {n} abstracts in {n_files} listings (variants {per_variant}) built in "
        f"{time.perf_counter() - t0:.0f} s; +1 listing {new_listing.name} ({holdout.height} abstracts)",
        flush=True,
    )

    env = dict(
        os.environ,
        PIPELINE_RAW_DIR=str(raw),
        PIPELINE_WAREHOUSE_DIR=str(work / "warehouse"),
        DAGSTER_HOME=str(work / "dagster_home"),
    )
    cmd = [PY, "-m", "pipeline", "run"]
    full, full_s = measure(cmd, env, work / "full.log", interval, "full build")
    full_steps = step_windows(work / "dagster_home", newest_run_only=False)
    print(f"full build: {full}", flush=True)
    print_steps("full build", full_steps, full_s)
    if full["failed"]:  # the +1 run still measures the per-listing steps; its global steps fail the same way
        print(f"full build failed (log {work / 'full.log'}); the +1 run goes on for its per-step figures")
    shutil.copy(new_listing, raw / new_listing.name)
    incr, incr_s = measure(cmd, env, work / "incremental.log", interval, "+1 listing")
    incr_steps = step_windows(work / "dagster_home", newest_run_only=True)
    print(f"+1 listing: {incr}", flush=True)
    print_steps("+1 listing", incr_steps, incr_s)

    full_rows, incr_rows = per_step(full_steps, full_s), per_step(incr_steps, incr_s)
    print()
    print(
        "| run | abstracts | wall s | CPU s | peak RSS MB, largest process (kernel) | peak RSS MB, all processes (sampled) |"
    )
    print("|---|---|---|---|---|---|")
    for name, r, s, k in (("full build", full, full_s, n), ("+1 listing", incr, incr_s, holdout.height)):
        print(
            f"| {name} | {k:,} | {r['wall']:.1f} | {r['cpu']:.1f} | {r['rss_mb']:,.0f} | {s.peak()[1]:,.0f} |"
        )
    print()
    print("| step | full: s | full: peak MB (largest / all) | +1: s | +1: peak MB (largest / all) |")
    print("|---|---|---|---|---|")
    for key in dict.fromkeys([k for k, _, _ in full_steps] + [k for k, _, _ in incr_steps]):
        f, i = full_rows.get(key), incr_rows.get(key)
        cell = lambda r: f"{r['s']:.1f} | {r['peak_mb']:,.0f} / {r['all_mb']:,.0f}" if r else "- | -"  # noqa: E731
        print(
            f"| {key}{' (' + str(f['runs']) + ' runs)' if f and f['runs'] > 1 else ''} | {cell(f)} | {cell(i)} |"
        )
    print()
    ratio_wall, ratio_cpu = incr["wall"] / full["wall"], incr["cpu"] / full["cpu"]
    peak = max(full["rss_mb"], incr["rss_mb"])
    max_mb, max_ratio = targets(n)
    print(
        f"{n:,} abstracts: +1 listing / full build: wall {ratio_wall:.3f}, CPU {ratio_cpu:.3f} (target <= {max_ratio})"
    )
    print(
        f"{n:,} abstracts: largest process: {peak:,.0f} MB (target <= {max_mb:,.0f} MB): "
        f"{'met' if peak <= max_mb else f'{peak - max_mb:,.0f} MB over'}",
        flush=True,
    )
    (work / "results.json").write_text(
        json.dumps(
            {
                "abstracts": n,
                "variants": per_variant,
                "full": full,
                "incremental": incr,
                "full_steps": full_rows,
                "incremental_steps": incr_rows,
                "samples": {"full": full_s.samples, "incremental": incr_s.samples},
            },
            indent=1,
        )
    )
    return n, (ratio_wall, full["wall"], incr["wall"]), peak


if __name__ == "__main__":
    main()
