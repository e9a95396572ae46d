"""The two global steps of a full build, alone, on the work files a kept benchmark left: time and memory.

`make bench-scale` takes 20 minutes and more at a million abstracts, most of it the per-listing analysis. When
a change touches only the global steps (``dataset_tables``: duplicate clusters, tables, checks; ``release``:
files, changelog, card, manifest), this re-runs just them on a kept raw folder's analysed listings: the dataset
step (pipeline.release.dataset.build_dataset) into an empty warehouse, then the publish
(pipeline.release.publish) of what it built, in this process, and prints the wall time and the RSS (current
and peak so far, from /proc and ``ru_maxrss``) after each phase of both, then the release it made.

usage: python -m bench.global_steps STATE [--out DIR]
  STATE: a run's folder holding ``warehouse/_work/abstracts/*.parquet``, e.g. ``<keep>/n1000000`` of
  ``python -m bench.scale_bench --keep <keep>`` or ``<keep>/full`` of ``python -m bench.pipeline_bench``.
  --out: the empty warehouse to build into (default: a temporary folder, removed at the end).
"""

from __future__ import annotations

import argparse
import functools
import importlib
import os
import resource
import shutil
import sys
import tempfile
import time
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

#: (module, function) pairs timed and followed, in the order they run.
PHASES = (
    ("pipeline.release.dataset", "_global_frames"),
    ("pipeline.release.dataset", "_global_tables"),
    ("pipeline.card", "start_charts"),
    ("pipeline.release.writer", "write_tables"),
    ("pipeline.release.publish", "changelog_markdown"),
    ("pipeline.card", "write_release_documents"),
    ("pipeline.release.publish", "verify_tree"),
)


def rss() -> str:
    """This process's resident memory now and its peak so far, in MB."""
    current = int(Path("/proc/self/statm").read_text().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return f"RSS {current:,.0f} MB, peak {peak:,.0f} MB"


def follow(module: str, name: str) -> None:
    """Replace ``module.name`` by a wrapper that prints its wall time and :func:`rss` when it returns."""
    mod = importlib.import_module(module)
    inner = getattr(mod, name)

    @functools.wraps(inner)
    def timed(*args, **kwargs):
        t0 = time.perf_counter()
        out = inner(*args, **kwargs)
        print(f"  {module}.{name}: {time.perf_counter() - t0:.2f} s; {rss()}", flush=True)
        return out

    setattr(mod, name, timed)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("state", type=Path, help="a kept run folder with warehouse/_work/abstracts/*.parquet")
    ap.add_argument("--out", type=Path, help="the empty warehouse to build into (default: temporary)")
    args = ap.parse_args(argv)
    files = sorted((args.state / "warehouse" / "_work" / "abstracts").glob("*.parquet"))
    if not files:
        sys.exit(f"no abstracts work files under {args.state / 'warehouse' / '_work' / 'abstracts'}")
    out = args.out or Path(tempfile.mkdtemp(prefix="pipeline-global-"))
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    os.environ["PIPELINE_WAREHOUSE_DIR"] = str(out)
    from pipeline import release
    from pipeline.release import dataset

    for module, name in PHASES:
        follow(module, name)
    try:
        print(f"{len(files)} listings' abstracts from {args.state}; start: {rss()}", flush=True)
        build = out / "_work" / "builds" / "bench"
        build.mkdir(parents=True)
        t0 = time.perf_counter()
        built = dataset.build_dataset(files, out, build, memory=None)
        release.build_files.complete(build, built.plan, [])
        print(f"dataset step: {time.perf_counter() - t0:.1f} s; {rss()}", flush=True)
        t0 = time.perf_counter()
        result = release.publish(
            out,
            release.build_files.read_tables(build),
            [{"listing": f.name, "sha256": "-"} for f in files],
            plan=release.build_files.read_plan(build, out),
        )
        print(f"publish: {time.perf_counter() - t0:.1f} s; {rss()}")
        print(f"release {result.release} ({result.release_id}): {result.changes}")
    finally:
        if args.out is None:
            shutil.rmtree(out, ignore_errors=True)


if __name__ == "__main__":
    main()
