"""Faults leave clear words and no debris: releases.json records each release's manifest sha256 when it
commits and verify checks it (a table file changed together with its sha256 in manifest.json is detected; an
index written before the field existed still verifies); a missing parent file gets the same one-line error as
a damaged one; unfinished builds of finished runs are removed before a tables step writes."""

import hashlib
import json

import pytest

from pipeline import release
from pipeline.release import build_files
from tests.release.test_release_concurrency import INPUTS, make_tables


def _sha(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_a_manifest_changed_after_commit_is_detected(tmp_path):
    wh = tmp_path / "wh"
    release.publish(wh, make_tables(1), INPUTS)
    root = wh / "release=1"
    index = json.loads((wh / "releases.json").read_text())
    assert [e["manifest_sha256"] for e in index] == [_sha(root / "manifest.json")]
    assert release.verify(wh) == []
    # change a Parquet file and write its new sha256 and size into manifest.json: the files agree again
    manifest = json.loads((root / "manifest.json").read_text())
    entry = manifest["tables"]["papers"]["files"][0]
    path = root / entry["path"]
    data = bytearray(path.read_bytes())
    data[-20] ^= 0xFF  # inside the footer's metadata: rows and columns still read
    path.write_bytes(bytes(data))
    entry["sha256"], entry["bytes"] = _sha(path), len(data)
    (root / "manifest.json").write_text(json.dumps(manifest, indent=1))
    problems = release.verify(wh)
    assert problems == [
        f"{root / 'manifest.json'}: sha256 differs from the one releases.json recorded when release 1 was "
        "committed"
    ]
    # an index written before manifest_sha256 was recorded: verify checks what it can, as before
    (wh / "releases.json").write_text(
        json.dumps([{k: v for k, v in e.items() if k != "manifest_sha256"} for e in index])
    )
    assert release.verify(wh) == []


def test_a_missing_parent_file_gets_the_damaged_release_error(tmp_path):
    wh = tmp_path / "wh"
    release.publish(wh, make_tables(1), INPUTS)
    manifest = json.loads((wh / "release=1" / "manifest.json").read_text())
    path = wh / "release=1" / manifest["tables"]["paper_metrics"]["files"][0]["path"]
    path.unlink()
    for read in (
        lambda: release.table_schema(wh, "paper_metrics", 1),
        lambda: release.read_verified(wh, 1, "paper_metrics"),
    ):
        with pytest.raises(release.ReleaseError) as err:
            read()
        assert str(err.value).startswith(f"release 1 is damaged: {path} is missing")
        assert "\n" not in str(err.value)
    path.write_bytes(b"not parquet")
    with pytest.raises(release.ReleaseError, match=r"release 1 is damaged: .* cannot be read as Parquet"):
        release.table_schema(wh, "paper_metrics", 1)


def test_unfinished_builds_of_finished_runs_are_removed(tmp_path):
    builds = tmp_path / build_files.BUILDS_DIR
    for name, marker in [
        ("died", None),
        ("running", None),
        ("complete", build_files.PLAN_FILE),
        ("failed", build_files.FAILED_FILE),
    ]:
        (builds / name / "papers").mkdir(parents=True)
        (builds / name / "papers" / "batch-0000.arrow").write_bytes(b"x" * 1000)
        if marker:
            (builds / name / marker).write_text("{}")
    removed = build_files.clean_unfinished(tmp_path, lambda run_id: run_id == "running")
    assert removed == [builds / "died"]
    assert sorted(p.name for p in builds.iterdir()) == ["complete", "failed", "running"]


def test_an_unfinished_build_whose_writer_was_killed_is_removed_though_its_run_looks_active(tmp_path):
    """A run killed with kill -9 stays "started" in Dagster's instance: its build is debris all the same
    once the process that claimed it is gone (a real process, started and ended here)."""
    import subprocess
    import sys

    builds = tmp_path / build_files.BUILDS_DIR
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    build_files.claim(builds / "killed")
    build_files.claim(builds / "writing")  # claimed by this process, which is alive
    (builds / "killed" / build_files.WRITER_FILE).write_text(
        json.dumps({"pid": int(dead.stdout), "host": __import__("socket").gethostname()})
    )
    (builds / "elsewhere").mkdir()
    (builds / "elsewhere" / build_files.WRITER_FILE).write_text(
        json.dumps({"pid": int(dead.stdout), "host": "?"})
    )
    removed = build_files.clean_unfinished(tmp_path, lambda run_id: True)
    assert removed == [builds / "killed"]  # another host's writer cannot be checked here: kept
    assert sorted(p.name for p in builds.iterdir()) == ["elsewhere", "writing"]


def test_a_table_file_that_is_no_longer_parquet_is_a_mismatch_not_an_error(tmp_path):
    """The file's footer overwritten and its new sha256 written into the manifest: verify names the file and
    the manifest, it does not stop on pyarrow's error."""
    wh = tmp_path / "wh"
    release.publish(wh, make_tables(1), INPUTS)
    root = wh / "release=1"
    manifest = json.loads((root / "manifest.json").read_text())
    entry = manifest["tables"]["papers"]["files"][0]
    path = root / entry["path"]
    data = path.read_bytes()
    path.write_bytes(data[:-12] + b"\0" * 8 + data[-4:])  # footer length and thrift bytes gone, magic kept
    entry["sha256"], entry["bytes"] = _sha(path), path.stat().st_size
    (root / "manifest.json").write_text(json.dumps(manifest, indent=1))
    problems = release.verify(wh)
    assert problems[0].endswith("when release 1 was committed")
    assert problems[1].startswith(f"{path}: cannot be read as Parquet (")
    assert len(problems) == 2
