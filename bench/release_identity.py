"""Release identity: the release id and the sha256 of every table file of two builds, to compare two commits.

"Same inputs -> same release": a refactoring must give byte-identical tables and the same release id. This
builds, each in a fresh temporary warehouse and DAGSTER_HOME the way `make run` does (``python -m pipeline
run``):
  1. ``seeds``: the repository's own ``raw/`` folder;
  2. ``dev5k``: the first 5,000 abstracts of the dev corpus (../shared/corpus/real_abstracts_dev.parquet,
     sorted by venue, year, source_record_id), written as seed-format listings of 500 the way `make bench`
     writes them (bench/listings.py). When the corpus is absent this build and the next are skipped and the
     output says so.
  3. ``dev5k+1``: the next release of the same warehouse after three edits of its raw folder: the last
     listing removed, the next 500 abstracts of the corpus added as a new listing, and one word of the first
     abstract of the first listing changed; so the diff against the parent, the inherited paper ids and
     history columns, and the parent's files reused for unchanged partitions are all exercised.
and prints, per build, the release number, its ``release_id`` (manifest.json) and one line per table file
(``sha256  path``, path relative to the release folder, sorted), then one digest per table over those lines;
for the second release also the changelog (changelog.parquet, CHANGELOG.md) and its counts.
Run it on two checkouts and ``diff`` the outputs: the timing lines at the end are the only lines that may
differ.

usage: python bench/release_identity.py [--repo DIR] [--python PY] [--limit 5000] [--keep DIR]
  --repo: the checkout whose pipeline is run (default: this one); --python: its interpreter (default: DIR's
  .venv/bin/python when it exists, else this one).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# `python bench/release_identity.py` needs the repository root on the path for `bench` and `pipeline`;
# `python -m bench.release_identity` (the Makefile) and imports from tests do not
if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.listings import CORPUS  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
#: The published tables: one folder each in every release folder (Hive-partitioned but the benchmark tables).
TABLES = ("papers", "paper_urls", "paper_metrics", "listing_lineage", "benchmarks", "benchmark_results")


def sha256(path: Path) -> str:
    with open(path, "rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def build(repo: Path, python: str, raw: Path, work: Path) -> tuple[Path, float]:
    """Run the main job of ``repo`` over ``raw`` into ``work/warehouse``; return the warehouse and the wall
    seconds. Exits with the log's tail when the run fails."""
    env = dict(os.environ)
    env.update(
        PYTHONPATH=str(repo),  # this checkout's pipeline, even when the interpreter has another installed
        PIPELINE_RAW_DIR=str(raw),
        PIPELINE_WAREHOUSE_DIR=str(work / "warehouse"),
        DAGSTER_HOME=str(work / "dagster_home"),
    )
    log = work / "run.log"
    t0 = time.perf_counter()
    with open(log, "w") as out:
        status = subprocess.call(
            [python, "-m", "pipeline", "run"], cwd=repo, env=env, stdout=out, stderr=subprocess.STDOUT
        )
    wall = time.perf_counter() - t0
    if status != 0:
        sys.exit(f"pipeline run failed ({status}) over {raw}; log {log}:\n{log.read_text()[-3000:]}")
    return work / "warehouse", wall


def describe(name: str, warehouse: Path) -> list[str]:
    """The identity lines of the latest release in ``warehouse``."""
    number = int((warehouse / "LATEST").read_text().strip())
    folder = warehouse / f"release={number}"
    manifest = json.loads((folder / "manifest.json").read_text())
    lines = [f"[{name}] release {number} release_id {manifest['release_id']} changes {manifest['changes']}"]
    if manifest.get("parent") is not None:
        lines += [f"[{name}] {sha256(folder / f)}  {f}" for f in ("changelog.parquet", "CHANGELOG.md")]
    for table in TABLES:
        files = sorted(p for p in (folder / table).rglob("*") if p.is_file())
        entries = [f"{sha256(p)}  {p.relative_to(folder).as_posix()}" for p in files]
        lines += [f"[{name}] {e}" for e in entries]
        digest = hashlib.sha256("\n".join(entries).encode()).hexdigest()
        lines.append(f"[{name}] table {table}: {len(files)} files, digest {digest}")
    return lines


def edit_raw(paths: list[Path], more, raw: Path) -> None:
    """The three edits of build 3 (module docstring): remove the last listing, add ``more`` (500 corpus
    rows) as a new listing, and swap the first two words of the first listing's first abstract."""
    from bench.listings import write_listings

    paths = sorted(paths)
    paths[-1].unlink()
    added = write_listings(more, raw / "added")
    print(f"[dev5k+1] removed {paths[-1].name}; added {len(added)} listing of {more.height} abstracts")
    text = paths[0].read_text(encoding="utf-8")
    header, body = text.split("\n", 1)
    first, rest = body.lstrip("\n").split("\n\n", 1)
    words = first.split(" ")
    words[0], words[1] = words[1], words[0]
    paths[0].write_text(f"{header}\n\n{' '.join(words)}\n\n{rest}", encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", type=Path, default=ROOT, help="checkout to run (default: this one)")
    ap.add_argument("--python", help="interpreter (default: REPO/.venv/bin/python, else this one)")
    ap.add_argument("--limit", type=int, default=5000, help="dev-corpus abstracts in the dev build")
    ap.add_argument("--keep", type=Path, help="keep the work folder here instead of a temporary one")
    args = ap.parse_args()
    repo = args.repo.resolve()
    venv_py = repo / ".venv" / "bin" / "python"
    python = args.python or (str(venv_py) if venv_py.exists() else sys.executable)
    work = args.keep or Path(tempfile.mkdtemp(prefix="release-identity-"))
    if work.exists():
        shutil.rmtree(work)
    work.mkdir(parents=True)
    commit = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    ).stdout.strip()
    print(f"repo {repo} commit {commit or '?'}")

    timings = []
    (work / "seeds").mkdir()
    warehouse, wall = build(repo, python, repo / "raw", work / "seeds")
    print("\n".join(describe("seeds", warehouse)))
    timings.append(f"seeds build: {wall:.1f} s wall")

    if CORPUS.exists():
        from bench.listings import load_corpus, write_listings

        corpus = load_corpus().head(args.limit)
        raw = work / "dev5k_raw"
        paths = write_listings(corpus, raw)
        print(f"[dev5k] corpus: first {corpus.height} abstracts of {CORPUS.name} in {len(paths)} listings")
        (work / "dev5k").mkdir()
        warehouse, wall = build(repo, python, raw, work / "dev5k")
        print("\n".join(describe("dev5k", warehouse)))
        timings.append(f"dev5k build: {wall:.1f} s wall")
        edit_raw(paths, load_corpus().slice(args.limit, 500), raw)
        warehouse, wall = build(repo, python, raw, work / "dev5k")
        print("\n".join(describe("dev5k+1", warehouse)))
        timings.append(f"dev5k+1 build: {wall:.1f} s wall")
    else:
        print(f"[dev5k] SKIPPED: the dev corpus is absent ({CORPUS} does not exist)")
    for t in timings:
        print(f"timing (may differ) {t}")
    if not args.keep:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
