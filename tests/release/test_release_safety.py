"""Releases nothing can corrupt or wipe: the commit protocol under kills, damaged parents, mass removal,
unreadable pointers, debris of dead processes, and a kill in the middle of pruning.

Real publisher processes are stopped at an exact step (tests.release.test_release_concurrency.pause_at) and killed
with SIGKILL; damage is done to real files.
"""

import json
import os
import shutil
import signal
import subprocess

import polars as pl
import pytest

from pipeline import cli, release
from tests.conftest import DATA, SEEDS
from tests.release.test_release_concurrency import INPUTS, _check_release, _spawn, make_tables

pytestmark = [pytest.mark.integration, pytest.mark.slow]


def _kill_at(wh, point: str, gen: int, **env) -> None:
    proc = _spawn(wh, [gen], KILL_AT=point, **env)
    assert proc.stdout.readline().strip() == "START"
    assert proc.stdout.readline().strip() == f"AT {point}"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)


def _flip_byte(path, offset: int = 40) -> None:
    """Damage a file in place (the inode every hard link shares)."""
    with open(path, "r+b") as f:
        f.seek(offset)
        b = f.read(1)
        f.seek(offset)
        f.write(bytes([b[0] ^ 0xFF]))


@pytest.mark.parametrize("point", ["replace:releases.json", "replace:LATEST"])
def test_a_release_that_was_ever_latest_is_never_deleted(tmp_path, point):
    """Killed around the index and LATEST writes, then a publish, a rollback and a publish: every release
    that was ever LATEST is still there and in releases.json."""
    wh = tmp_path / "wh"
    release.publish(wh, make_tables(1), INPUTS)
    _kill_at(wh, point, 2)
    ever_latest = {1, release.latest_release(wh)}
    r3 = release.publish(wh, make_tables(3), INPUTS)
    ever_latest.add(r3.release)
    release.rollback(wh, 1)  # the rollback of docs/releases.md
    r4 = release.publish(wh, make_tables(4), INPUTS)
    ever_latest.add(r4.release)
    indexed = {e["release"] for e in release.read_index(wh)}
    for n in ever_latest:
        assert n in indexed and (wh / f"release={n}" / "manifest.json").exists(), (point, n)
        assert release.verify(wh, n) == []
    assert json.loads((wh / f"release={r4.release}" / "manifest.json").read_text())["parent"] == 1


def test_latest_missing_from_the_index_is_added_back_before_anything_is_deleted(tmp_path):
    """The state an interrupted publish of the earlier protocol left (LATEST written, releases.json not):
    the next publish adds LATEST's release to the index, so a later rollback cannot delete it."""
    wh = tmp_path / "wh"
    release.publish(wh, make_tables(1), INPUTS)
    release.publish(wh, make_tables(2), INPUTS)
    index = json.loads((wh / "releases.json").read_text())
    (wh / "releases.json").write_text(json.dumps([e for e in index if e["release"] == 1]))
    assert (wh / "LATEST").read_text() == "2"
    assert release.publish(wh, make_tables(3), INPUTS).release == 3
    (wh / "LATEST").write_text("1")
    assert release.publish(wh, make_tables(4), INPUTS).release == 4
    assert [e["release"] for e in release.read_index(wh)] == [1, 2, 3, 4]
    assert _check_release(wh, 2) == 2


def test_rollback_then_a_new_listing_stamps_the_new_release_number(project):
    """Roll back, publish again: the papers new against the rolled-back-to parent carry the new number."""
    wh = project / "warehouse"
    raw = project / "raw"
    shutil.move(raw / SEEDS[1].name, project / SEEDS[1].name)
    assert cli.run() == 0
    shutil.move(project / SEEDS[1].name, raw / SEEDS[1].name)
    assert cli.run() == 0 and release.latest_release(wh) == 2
    assert cli.main(["rollback", "1"]) == 0  # the rollback of docs/releases.md
    assert release.latest_release(wh) == 1
    shutil.copy(DATA / "listings" / "NeurIPS_2023_sample.txt", raw / "NeurIPS_2023_sample.txt")
    assert cli.run() == 0
    assert release.latest_release(wh) == 3
    manifest = release.read_manifest(wh / "release=3")
    assert manifest.parent == 1
    papers = release.read_table(wh, "papers", 3)
    changes = pl.read_parquet(wh / "release=3" / "changelog.parquet")
    added = set(changes.filter(pl.col("change") == "added")["paper_id"])
    assert len(added) > 19  # the second seed's papers and the new listing's
    new = papers.filter(pl.col("paper_id").is_in(list(added)))
    assert new.height == len(added)
    assert set(new["first_release"]) == {3} and set(new["last_changed_release"]) == {3}
    old = papers.filter(~pl.col("paper_id").is_in(list(added)))
    assert old.height == 19 and set(old["first_release"]) == {1}


def test_a_damaged_parent_file_is_not_reused(tmp_path):
    """One flipped byte in a parent file that the next release would hard-link: the next release writes it
    anew (and says so), verifies clean, and does not share the damaged inode."""
    wh = tmp_path / "wh"
    first = make_tables(1)
    release.publish(wh, first, INPUTS)
    m1 = release.read_manifest(wh / "release=1")
    rel = m1.tables["paper_urls"].files[0].path
    _flip_byte(wh / "release=1" / rel)
    second = dict(first, papers=first["papers"].with_columns(abstract=pl.col("abstract") + " edited"))
    r = release.publish(wh, second, INPUTS)
    assert r.created and r.release == 2
    assert any(rel in w and "damaged" in w for w in r.warnings), r.warnings
    assert release.verify(wh, 2) == []
    assert (wh / "release=2" / rel).stat().st_ino != (wh / "release=1" / rel).stat().st_ino
    assert release.verify(wh, 1) == [f"{wh / 'release=1' / rel}: sha256 differs from the manifest"]
    # an undamaged reused file is still a hard link
    lineage = m1.tables["listing_lineage"].files[0].path
    assert (wh / "release=2" / lineage).stat().st_ino == (wh / "release=1" / lineage).stat().st_ino


def test_a_damaged_parent_papers_file_refuses_the_run_with_a_clear_error(project, capsys):
    """The parent's papers decide ids and history: damaged, the run stops with exit 1, names the file
    and what to do, and LATEST stays."""
    wh = project / "warehouse"
    assert cli.run() == 0
    papers_file = wh / "release=1" / release.read_manifest(wh / "release=1").tables["papers"].files[0].path
    _flip_byte(papers_file, 200)
    shutil.copy(DATA / "listings" / "NeurIPS_2023_sample.txt", project / "raw" / "NeurIPS_2023_sample.txt")
    capsys.readouterr()
    assert cli.run() == 1
    err = capsys.readouterr().err
    assert (
        str(papers_file) in err and "fails its sha256 check" in err and "python -m pipeline rollback N" in err
    )
    assert "Traceback" not in err
    assert release.latest_release(wh) == 1 and release.list_releases(wh, complete=False) == [1]


def test_a_staged_release_that_fails_verification_is_not_committed(tmp_path):
    """A staged file damaged after it was written (between the manifest and the commit): the publisher
    refuses with ReleaseVerifyError, LATEST stays, and nothing of the release remains."""
    wh = tmp_path / "wh"
    release.publish(wh, make_tables(1), INPUTS)
    go = tmp_path / "go"
    proc = _spawn(wh, [2], KILL_AT="fsync", CONTINUE_FILE=str(go))
    assert proc.stdout.readline().strip() == "START"
    assert proc.stdout.readline().strip() == "AT fsync"
    staged = next((wh / "_staging" / "release=2" / "paper_metrics").rglob("*.parquet"))
    _flip_byte(staged)
    go.touch()
    out, _ = proc.communicate(timeout=120)
    result = json.loads(out.strip().splitlines()[-1])
    assert result["kind"] == "ReleaseVerifyError", result
    assert "sha256 differs" in result["error"] and "LATEST still names 1" in result["error"]
    assert (wh / "LATEST").read_text() == "1"
    assert release.list_releases(wh, complete=False) == [1] and not (wh / "_staging").exists()
    assert [e["release"] for e in release.read_index(wh)] == [1]


def test_removal_guard_stops_a_mass_removal_unless_confirmed(project, capsys):
    """A raw folder left with one empty stray file would remove every paper: refused, with the vanished
    listings named, LATEST unchanged; removing one listing on purpose still publishes; --allow-removal
    publishes the removal."""
    wh, raw = project / "warehouse", project / "raw"
    shutil.copy(DATA / "listings" / "NeurIPS_2023_sample.txt", raw / "NeurIPS_2023_sample.txt")
    assert cli.run() == 0
    before = release.read_table(wh, "papers").height
    (raw / "NeurIPS_2023_sample.txt").unlink()  # one listing removed on purpose
    assert cli.run() == 0 and release.latest_release(wh) == 2
    assert release.read_manifest(wh / "release=2").changes["removed"] == before - 38
    for f in SEEDS:
        (raw / f.name).unlink()
    (raw / "notes.txt").write_bytes(b"")
    capsys.readouterr()
    assert cli.run() == 1
    err = capsys.readouterr().err
    assert "would remove 38 of the 38 papers of release 2" in err
    assert all(f.name in err for f in SEEDS) and "--allow-removal" in err and "Traceback" not in err
    assert release.latest_release(wh) == 2 and release.list_releases(wh, complete=False) == [1, 2]
    # published; the empty notes.txt is quarantined whole (empty_file), hence exit 4
    assert cli.main(["run", "--allow-removal"]) == cli.EXIT_QUARANTINED
    assert release.latest_release(wh) == 3 and release.read_table(wh, "papers").height == 0


def test_verify_all_fails_when_latest_names_a_missing_or_incomplete_release(tmp_path, monkeypatch, capsys):
    wh = tmp_path / "wh"
    release.publish(wh, make_tables(1), INPUTS)
    release.publish(wh, make_tables(2), INPUTS)
    monkeypatch.setenv("PIPELINE_WAREHOUSE_DIR", str(wh))
    assert cli.main(["verify", "--all"]) == 0
    (wh / "LATEST").write_text("7")
    capsys.readouterr()
    assert cli.main(["verify", "--all"]) == 1
    assert "MISMATCH release 7: release 7 does not exist" in capsys.readouterr().out
    (wh / "LATEST").write_text("2")
    (wh / "release=2" / "manifest.json").unlink()
    assert cli.main(["verify", "--all"]) == 1
    out = capsys.readouterr().out
    assert "MISMATCH release 2:" in out and "manifest.json is missing" in out


def test_unreadable_latest_or_index_gives_a_clear_error(project, capsys):
    wh = project / "warehouse"
    assert cli.run() == 0
    (wh / "LATEST").write_text("abc")
    capsys.readouterr()
    assert cli.main(["verify"]) == 1
    err = capsys.readouterr().err
    assert f"{wh / 'LATEST'} holds 'abc', not a release number" in err and "Traceback" not in err
    assert cli.run() == 1
    err = capsys.readouterr().err
    assert f"{wh / 'LATEST'} holds 'abc'" in err and "Traceback" not in err
    (wh / "LATEST").write_text("1")
    (wh / "releases.json").write_text('[{"release": 1, "release_id": ')
    assert cli.main(["verify", "--all"]) == 1
    err = capsys.readouterr().err
    assert f"{wh / 'releases.json'} is not valid JSON" in err and "delete it" in err
    assert cli.run() == 1
    err = capsys.readouterr().err
    assert f"{wh / 'releases.json'} is not valid JSON" in err and "Traceback" not in err
    (wh / "releases.json").unlink()  # as the message says: rebuilt from the manifests by the next publish
    assert cli.run() == 0
    assert [e["release"] for e in release.read_index(wh)] == [1]


def test_temp_files_of_dead_processes_are_removed_by_the_next_publish(tmp_path):
    wh = tmp_path / "wh"
    release.publish(wh, make_tables(1), INPUTS)
    dead = subprocess.Popen(["true"])
    dead.wait()
    work = wh / "_work" / "abstracts"
    work.mkdir(parents=True)
    stale = [
        wh / f".LATEST.{dead.pid}.tmp",
        wh / f".releases.json.{dead.pid}.tmp",
        work / f".x.parquet.{dead.pid}.0a1b2c3d.tmp",
        wh / "_staging" / "release=2" / "papers" / "p.parquet",
    ]
    live = work / f".y.parquet.{os.getpid()}.12345678.tmp"
    for p in [*stale, live]:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(b"partial")
    release.publish(wh, make_tables(2), INPUTS)
    assert [p for p in stale if p.exists()] == [] and not (wh / "_staging").exists()
    assert live.exists()  # its writer is still running


def test_a_kill_mid_prune_never_leaves_a_half_deleted_release(tmp_path):
    wh = tmp_path / "wh"
    for g in (1, 2, 3):
        release.publish(wh, make_tables(g), INPUTS)
    _kill_at(wh, "prune", 4, KEEP_LAST="1")
    latest = release.latest_release(wh)
    assert latest == 4
    # release 1 was renamed into the trash whole; every visible release is complete and intact
    assert not (wh / "release=1").exists() and (wh / "_trash").exists()
    for n in release.list_releases(wh, complete=False):
        assert release.verify(wh, n) == [], n
    r = release.publish(wh, make_tables(5), INPUTS, keep_last=1)
    assert r.release == 5 and release.list_releases(wh, complete=False) == [5]
    assert not (wh / "_trash").exists()
    assert [e["release"] for e in release.read_index(wh)] == [5]


def test_a_plan_whose_parent_is_no_longer_latest_is_refused(tmp_path):
    """The tables were built against release 1; another publish (or a rollback) moved LATEST since: the
    publish with that plan stops under the lock and says what to do; nothing is written."""
    wh = tmp_path / "wh"
    release.publish(wh, make_tables(1), INPUTS)
    plan = release.plan_release(wh)
    assert plan.previous_papers is not None  # a scan of the parent's verified files
    assert (plan.parent, plan.number) == (1, 2)
    assert plan.previous_papers.collect().height == make_tables(1)["papers"].height
    stale = plan.with_changes(make_tables(3)["papers"])
    release.publish(wh, make_tables(2), INPUTS)  # LATEST moves to 2 meanwhile
    with pytest.raises(
        release.PlanOutdatedError, match=r"on top of release 1, but .*LATEST now names 2.*rebuild"
    ):
        release.publish(wh, make_tables(3), INPUTS, plan=stale)
    assert release.list_releases(wh, complete=False) == [1, 2] and (wh / "LATEST").read_text() == "2"
    (wh / "LATEST").write_text("1")  # a rollback: the parent is LATEST again, but number 2 is taken
    with pytest.raises(release.PlanOutdatedError, match="release number 2 was taken"):
        release.publish(wh, make_tables(3), INPUTS, plan=stale)
    fresh = release.plan_release(wh)
    assert (fresh.parent, fresh.number) == (1, 3)
    r = release.publish(wh, make_tables(3), INPUTS, plan=fresh.with_changes(make_tables(3)["papers"]))
    assert (r.release, r.created) == (3, True)


def test_first_release_without_any_paper_is_refused(project, capsys):
    """A fresh warehouse and a raw folder holding only a 0-byte file: no release 1 with zero papers, one
    clear line; --allow-removal publishes it on purpose."""
    wh, raw = project / "warehouse", project / "raw"
    for f in raw.iterdir():
        f.unlink()
    (raw / "notes.txt").write_bytes(b"")
    capsys.readouterr()
    assert cli.run() == 1
    err = capsys.readouterr().err
    assert "the first release" in err and "would hold no paper" in err and "Traceback" not in err
    assert release.latest_release(wh) is None and release.list_releases(wh, complete=False) == []
    assert cli.main(["run", "--allow-removal"]) == cli.EXIT_QUARANTINED  # notes.txt: empty_file
    assert release.latest_release(wh) == 1 and release.read_table(wh, "papers").height == 0
