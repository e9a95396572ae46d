"""A run with nothing changed (pipeline.cli_unchanged): the same printed outcome as the full path, nothing
published, no Dagster run recorded, Dagster not even imported; and every kind of change takes the full path."""

import os
import shutil
import subprocess
import sys

import dagster as dg
import pytest

from pipeline import cli, cli_unchanged, release
from tests.conftest import DATA, ROOT

pytestmark = pytest.mark.integration


def _run(capsys, **kwargs) -> tuple[int, str]:
    capsys.readouterr()
    status = cli.run(**kwargs)
    return status, capsys.readouterr().out


def _runs() -> int:
    with dg.DagsterInstance.get() as instance:
        return len(instance.get_runs())


def _tree(folder) -> dict:
    return {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in sorted(folder.rglob("*"))}


def test_nothing_changed_prints_the_full_paths_outcome_and_records_nothing(project, capsys):
    raw, wh = project / "raw", project / "warehouse"
    (raw / ".notes.txt").write_text("a hidden entry: both paths print its note\n")
    assert _run(capsys)[0] == 0
    status, full = _run(capsys, check_unchanged=False)  # the full path over unchanged content
    assert status == 0 and "release 1 unchanged: the content equals the latest release" in full
    assert "note: 1 hidden entries" in full
    assert (project / ".dagster_home" / cli_unchanged.STAMP).is_file()
    runs, tree = _runs(), _tree(wh)
    status, quick = _run(capsys)
    assert status == 0 and quick == full
    assert _runs() == runs and _tree(wh) == tree and release.list_releases(wh) == [1]
    # the command line itself: the same lines, and neither Dagster nor the steps imported
    probe = (
        "import sys; from pipeline import cli; s = cli.main(['run', '-q']); "
        "print('imported:', sorted(m for m in ('dagster', 'polars', 'pandera') if m in sys.modules)); "
        "sys.exit(s)"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout == full + "imported: []\n"
    assert _runs() == runs and _tree(wh) == tree


def _add_listing(project, mp):
    shutil.copy(DATA / "listings" / "NeurIPS_2023_sample.txt", project / "raw" / "NeurIPS_2023_sample.txt")


def _touch_work_file(project, mp):
    sidecar = next((project / "warehouse" / "_work" / "abstracts").glob("*.json"))
    os.utime(sidecar, ns=(1, 1))


def _remove_stamp(project, mp):
    (project / ".dagster_home" / cli_unchanged.STAMP).unlink()


def _record_a_run(project, mp):
    from pipeline.definitions import defs

    with dg.DagsterInstance.get() as instance:
        assert defs.resolve_job_def("publish_job").execute_in_process(instance=instance).success


def _new_environment(project, mp):
    mp.setenv("PIPELINE_KEEP_RELEASES", "5")


@pytest.mark.parametrize(
    "change", [_add_listing, _touch_work_file, _remove_stamp, _record_a_run, _new_environment]
)
def test_any_change_takes_the_full_path(project, capsys, monkeypatch, change):
    """A new listing, a work file touched, no stamp, a run recorded in the instance since, another
    PIPELINE_* setting: the full path runs (a Dagster run is recorded); the run after it takes the shortcut
    again and prints what the full path prints."""
    wh = project / "warehouse"
    assert _run(capsys)[0] == 0
    change(project, monkeypatch)
    runs = _runs()
    status, out = _run(capsys)
    assert status == 0 and _runs() > runs
    said = "release 2 published" if change is _add_listing else "release 1 unchanged"
    assert said in out and release.list_releases(wh) == ([1, 2] if change is _add_listing else [1])
    runs = _runs()
    status, quick = _run(capsys)
    assert status == 0 and _runs() == runs
    assert (0, quick) == _run(capsys, check_unchanged=False)


@pytest.mark.parametrize("text", ["", "{not json", "[]", '{"format": 0}', '{"format": 1}'])
def test_a_damaged_or_foreign_stamp_means_the_full_path(project, text):
    """No outcome (the full path runs) for an empty, invalid, other-format or incomplete stamp."""
    home = project / ".dagster_home"
    home.mkdir()
    (home / cli_unchanged.STAMP).write_text(text)
    assert cli_unchanged.unchanged_outcome(project / "raw") is None
