"""``python -m pipeline rollback N``: under the publish lock, index first, the release verified, LATEST
replaced atomically; refused while a publish runs and for a release that fails verification; the next
publish takes the next unused number with N as its parent. Real publishes of real tables, real lock holders
(another process), real damage to files."""

import json
import subprocess
import sys

import pytest

from pipeline import cli, release
from tests.release.test_release_concurrency import INPUTS, make_tables
from tests.release.test_release_safety import _flip_byte

pytestmark = pytest.mark.integration


@pytest.fixture
def warehouse(tmp_path, monkeypatch):
    wh = tmp_path / "wh"
    for gen in (1, 2, 3):
        release.publish(wh, make_tables(gen), INPUTS)
    monkeypatch.setenv("PIPELINE_WAREHOUSE_DIR", str(wh))
    return wh


def test_rollback_then_publish_takes_the_next_unused_number_with_n_as_parent(warehouse, capsys):
    index = (warehouse / "releases.json").read_text()
    assert cli.main(["rollback", "1"]) == 0
    assert "LATEST now names release 1 (was 3)" in capsys.readouterr().out
    assert (warehouse / "LATEST").read_text() == "1"
    assert (warehouse / "releases.json").read_text() == index  # every release stays in the index
    assert release.committed_releases(warehouse) == [1]
    r4 = release.publish(warehouse, make_tables(4), INPUTS)
    assert r4.release == 4 and release.read_manifest(warehouse / "release=4").parent == 1
    assert [e["release"] for e in release.read_index(warehouse)] == [1, 2, 3, 4]
    # forward again to a release that was rolled back over; then to the latest: nothing to do
    assert cli.main(["rollback", "3"]) == 0 and release.latest_release(warehouse) == 3
    assert cli.main(["rollback", "3"]) == 0
    assert "release 3 is already the latest" in capsys.readouterr().out


def test_rollback_is_refused_while_a_publish_holds_the_lock(warehouse, capsys):
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys; from pipeline.release.lock import publish_lock\n"
            f"with publish_lock({str(warehouse)!r}):\n    print('HELD', flush=True); sys.stdin.read()",
        ],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "HELD"
        capsys.readouterr()
        assert cli.main(["rollback", "1"]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"error: publish in progress in {warehouse}") and err.count("\n") == 1
        assert (warehouse / "LATEST").read_text() == "3"
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
    assert cli.main(["rollback", "1"]) == 0 and (warehouse / "LATEST").read_text() == "1"


def test_rollback_to_a_damaged_release_is_refused(warehouse, capsys):
    damaged = (
        warehouse
        / "release=1"
        / release.read_manifest(warehouse / "release=1").tables["papers"].files[0].path
    )
    _flip_byte(damaged)
    capsys.readouterr()
    assert cli.main(["rollback", "1"]) == 1
    err = capsys.readouterr().err
    assert err == (
        f"error: release 1 fails verification (1 problems, first: {damaged}: sha256 differs from the "
        "manifest); LATEST still names 3. `python -m pipeline verify --all` shows which releases are intact.\n"
    )
    assert (warehouse / "LATEST").read_text() == "3"


def test_rollback_repairs_the_index_before_moving_latest(warehouse):
    """LATEST's release missing from releases.json (a publish of an earlier protocol died between the two):
    the rollback adds it first, so the next publish's clean-up cannot take it for debris."""
    index = json.loads((warehouse / "releases.json").read_text())
    (warehouse / "releases.json").write_text(json.dumps([e for e in index if e["release"] != 3]))
    assert release.rollback(warehouse, 2) == (3, 2)
    assert [e["release"] for e in release.read_index(warehouse)] == [1, 2, 3]
    assert release.publish(warehouse, make_tables(5), INPUTS).release == 4
    assert release.verify(warehouse, 3) == []
