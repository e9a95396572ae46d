"""Re-materialising single assets from the command line (docs/operations.md, "Re-running one listing or one
global asset").

A listing is fixed (its last abstract removed); only its partition is re-run with ``dg launch``, then the
dataset tables and the release with ``dagster asset materialize``. The release this makes must equal the
one a full run (``python -m pipeline run``, with its warm helper process) makes from the same files: same
release_id, byte-identical table files and charts. Two CLI calls only (each loads the code location: ~7-14 s
here)."""

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from pipeline import cli, release
from pipeline.ingest.listings import partition_key
from tests.conftest import ROOT, SEEDS

pytestmark = [pytest.mark.integration, pytest.mark.slow]

BIN = Path(sys.executable).parent
FIXED = SEEDS[0].name
OTHER = SEEDS[1].name


def _fix(raw: Path) -> None:
    """The fix: drop the listing's last paragraph (an abstract listed by mistake)."""
    path = raw / FIXED
    text = path.read_text(encoding="utf-8")
    path.write_text(text.rstrip("\n").rsplit("\n\n", 1)[0] + "\n", encoding="utf-8")


def _cli(args: list[str]) -> None:
    """Run a CLI the way docs/operations.md shows it: from the project root, paths from the environment."""
    out = subprocess.run(args, cwd=ROOT, env=dict(os.environ), capture_output=True, text=True, timeout=180)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]


def _manifest(root: Path) -> dict:
    wh = root / "warehouse"
    return json.loads((release.release_dir(wh, release.latest_release(wh)) / "manifest.json").read_text())


def test_rerun_one_partition_and_the_dataset_from_the_cli_equals_a_full_run(
    project, tmp_path_factory, monkeypatch
):
    key = partition_key(FIXED)
    assert cli.run() == 0
    other_work = project / "warehouse" / "_work" / "abstracts" / f"{partition_key(OTHER)}.parquet"
    other_before = (other_work.stat().st_mtime_ns, other_work.read_bytes())
    _fix(project / "raw")

    # docs/operations.md: re-run one listing's partition, then the dataset tables and the release
    _cli([str(BIN / "dg"), "launch", "--assets", "listing_records,abstracts", "--partition", key])
    assert (
        other_work.stat().st_mtime_ns,
        other_work.read_bytes(),
    ) == other_before  # the other listing untouched
    fixed_rows = pl.read_parquet(project / "warehouse" / "_work" / "abstracts" / f"{key}.parquet").height
    assert fixed_rows == 18
    _cli(
        [
            str(BIN / "dagster"),
            "asset",
            "materialize",
            "-m",
            "pipeline.definitions",
            "--select",
            "group:dataset",
        ]
    )
    by_cli = _manifest(project)
    assert by_cli["release"] == 2 and by_cli["changes"] == {"added": 0, "removed": 1, "changed": 0}

    # the same history through full runs, in a second project
    full = tmp_path_factory.mktemp("full")
    shutil.copytree(project / "raw", full / "raw")
    shutil.copy(SEEDS[0], full / "raw" / FIXED)  # back to the original file
    monkeypatch.setenv("PIPELINE_RAW_DIR", str(full / "raw"))
    monkeypatch.setenv("PIPELINE_WAREHOUSE_DIR", str(full / "warehouse"))
    monkeypatch.setenv("DAGSTER_HOME", str(full / ".dagster_home"))
    monkeypatch.setenv(
        "PIPELINE_WORKERS", "2"
    )  # `python -m pipeline run`: a warm helper process (pipeline.runtime.parallel)
    assert cli.main(["run"]) == 0
    _fix(full / "raw")
    assert cli.main(["run"]) == 0
    by_full = _manifest(full)
    assert by_full["release"] == 2
    assert by_cli["release_id"] == by_full["release_id"]
    assert by_cli["inputs"] == by_full["inputs"]
    for table, entry in by_full["tables"].items():
        assert by_cli["tables"][table]["rows"] == entry["rows"], table
        assert [f["sha256"] for f in by_cli["tables"][table]["files"]] == [
            f["sha256"] for f in entry["files"]
        ]
    charts = {f["path"]: f["sha256"] for f in by_full["files"] if f["path"].startswith("charts/")}
    assert len(charts) == 5 and charts == {
        f["path"]: f["sha256"] for f in by_cli["files"] if f["path"].startswith("charts/")
    }
