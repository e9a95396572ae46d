"""Progress of a run: ``python -m pipeline run`` on the repository's raw listings (not a terminal under
pytest) writes plain progress lines with each step's counts; ``--quiet`` writes none."""

import json
import os
import re
import subprocess
import sys

import polars as pl
import pytest

pytestmark = pytest.mark.integration

STEPS = ("listings", "abstracts", "partitions", "files written")


def _run(project, *args) -> subprocess.CompletedProcess:
    env = {**os.environ, "PIPELINE_WORKERS": "1"}
    env.pop("PIPELINE_PROGRESS", None)
    return subprocess.run(
        [sys.executable, "-m", "pipeline", "run", *args],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
    )


def _final_counts(stderr: str) -> dict[str, tuple[int, int]]:
    """Step → (n, N) of its last line (``<step>: n/N in S s, R <unit>/s``)."""
    found = re.findall(
        r"^(listings|abstracts|partitions|files written): (\d+)/(\d+) in [\d.]+ s", stderr, re.M
    )
    return {step: (int(n), int(total)) for step, n, total in found}


def test_a_run_not_on_a_terminal_prints_plain_progress_lines_with_the_counts(project):
    out = _run(project)
    assert out.returncode == 0, out.stderr
    rel = project / "warehouse" / "release=1"
    lineage = pl.read_parquet(rel / "listing_lineage", hive_partitioning=True)
    manifest = json.loads((rel / "manifest.json").read_text())
    listings = len(list((project / "raw").iterdir()))
    abstracts = lineage["raw_sha256"].n_unique()  # distinct readable abstracts (the seeds decode)
    partitions = lineage.select("venue", "year").unique().height
    files = sum(len(t["files"]) for t in manifest["tables"].values())
    assert _final_counts(out.stderr) == {
        "listings": (listings, listings),
        "abstracts": (abstracts, abstracts),
        "partitions": (partitions, partitions),
        "files written": (files, files),
    }
    # each step opens with its total before any work is counted
    for step, total in (("listings", listings), ("abstracts", abstracts), ("files written", files)):
        assert f"{step}: 0/{total} (0 %)" in out.stderr
    assert listings == 2 and abstracts == 38


def test_quiet_prints_no_progress(project):
    out = _run(project, "--quiet")
    assert out.returncode == 0, out.stderr
    assert (project / "warehouse" / "release=1" / "manifest.json").exists()
    assert not any(line.startswith(tuple(f"{s}:" for s in STEPS)) for line in out.stderr.splitlines())
    assert "release 1 published" in out.stdout  # the summary stays
