"""What a user sees when something goes wrong: one line naming the file, release or folder and what to do,
no traceback (``-v`` shows it), and an exit status that tells what happened. Real processes, real files, and
for the full disk a real (small) tmpfs under DAGSTER_HOME."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline import release
from tests.conftest import DATA

pytestmark = pytest.mark.integration


def _run(project, *args, env=None, timeout=240) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pipeline", *args],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=timeout,
        env={**os.environ, "PIPELINE_WORKERS": "1", **(env or {})},
    )


def test_bad_settings_and_paths_give_one_line_without_a_traceback(project):
    cases = [
        ({"PIPELINE_WORKERS": "many"}, 2, "PIPELINE_WORKERS must be a positive integer"),
        ({"PIPELINE_RAW_DIR": str(project / "nope")}, 2, f"raw folder {project / 'nope'} does not exist"),
    ]
    (project / "home_is_a_file").write_text("x")
    cases.append(({"DAGSTER_HOME": str(project / "home_is_a_file")}, 1, str(project / "home_is_a_file")))
    for env, status, words in cases:
        proc = _run(project, "run", env=env)
        assert proc.returncode == status and words in proc.stderr, proc.stderr
        assert "Traceback" not in proc.stderr + proc.stdout
    verbose = _run(project, "run", "-v", env={"DAGSTER_HOME": str(project / "home_is_a_file")})
    assert verbose.returncode == 1 and "Traceback" in verbose.stderr
    assert "error: File exists: " in verbose.stderr


def test_a_failing_step_is_named_with_its_cause(project):
    """A warehouse path that is a file: the listing step cannot write its work files."""
    (project / "wh_file").write_text("x")
    proc = _run(project, "run", env={"PIPELINE_WAREHOUSE_DIR": str(project / "wh_file")})
    assert proc.returncode == 1, proc.stderr
    assert "Traceback" not in proc.stderr and "error: step listing_records failed:" in proc.stderr
    assert str(project / "wh_file") in proc.stderr and "no release was made" in proc.stderr
    assert "Dependencies for step" not in proc.stderr


def _mount_tmpfs(path: Path, size: str) -> bool:
    path.mkdir()
    return (
        subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True
        ).returncode
        == 0
    )


def test_a_full_disk_under_dagster_home_never_makes_the_exit_status_lie(project):
    """DAGSTER_HOME on an 8 MiB tmpfs filled up to ``free`` KiB; each run adds a listing. Whatever step the
    disk stops, the status says what happened: 1 and LATEST unchanged, or 3 and a new release that
    verifies, or 0 and a new release; never a traceback. With space again, the next run is clean."""
    mnt = project / "mnt"
    if os.geteuid() != 0 or not _mount_tmpfs(mnt, "8m"):
        pytest.skip("needs root to mount a small tmpfs (a full disk under DAGSTER_HOME)")
    env = {"DAGSTER_HOME": str(mnt / "home")}
    try:
        assert _run(project, "run", env=env).returncode == 0
        seen = {}
        for i, free in enumerate([60, 400, 600, 800, 1000]):
            shutil.copy(DATA / "listings" / "NeurIPS_2023_sample.txt", project / "raw" / f"added_{i}.txt")
            filler = mnt / "filler"
            filler.unlink(missing_ok=True)
            avail = shutil.disk_usage(mnt).free
            with open(filler, "wb") as f:
                f.truncate(0)
                f.write(b"\0" * max(0, avail - free * 1024))
            before = release.latest_release(project / "warehouse")
            proc = _run(project, "run", env=env)
            after = release.latest_release(project / "warehouse")
            assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr[-3000:]
            assert proc.returncode in (0, 1, 3), proc.stderr[-3000:]
            if proc.returncode == 1:
                assert after == before and "error: " in proc.stderr
            else:
                assert after == before + 1 and release.verify(project / "warehouse", after) == []
            if proc.returncode == 3:
                assert f"release {after} published and verified" in proc.stderr
                assert str(mnt / "home") in proc.stderr
            seen[free] = proc.returncode
        assert 3 in seen.values() and 1 in seen.values(), seen  # both outcomes were met, not only one
        (mnt / "filler").unlink()
        again = _run(project, "run", env=env)
        assert again.returncode == 0 and "Traceback" not in again.stderr, again.stderr[-3000:]
        assert "0 new, 0 changed" in again.stdout
    finally:
        subprocess.run(["umount", "-l", str(mnt)], capture_output=True)
