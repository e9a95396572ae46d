"""The releases from the command line (``releases``, ``diff A B``, ``show PAPER_ID``) and words that agree
with the data, on a real warehouse made by ``python -m pipeline run``'s code: release 1 from the two seed
listings, release 2 after adding the NeurIPS 2023 sample listing (6 new papers, one re-listed seed paper),
release 3 after adding a listing no codec can decode (no paper changes: the lineage only).
"""

import contextlib
import io
import json
import re
import shutil

import dagster as dg
import polars as pl
import pytest

from pipeline import cli, release
from pipeline.release import history
from tests.conftest import DATA, point_at

pytestmark = pytest.mark.integration

#: A UTF-16 BOM, then a lone surrogate: no codec can decode it (quarantined whole, reason ``undecodable``).
UNDECODABLE = b"\xff\xfeI\x00C\x00\x00\xd8a\x00"
LINEAGE_ONLY = (
    "no paper added, changed or removed; lineage only (1 listing): broken_2025.txt (new listing): "
    "1 record: 1 quarantined (undecodable 1)"
)


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    root = tmp_path_factory.mktemp("history")
    with pytest.MonkeyPatch.context() as mp:
        raw = point_at(root, mp)
        assert cli.run() == 0
        shutil.copy(DATA / "listings" / "NeurIPS_2023_sample.txt", raw / "NeurIPS_2023_sample.txt")
        assert cli.run() == 0
        (raw / "broken_2025.txt").write_bytes(UNDECODABLE)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert cli.run() == cli.EXIT_QUARANTINED  # published; broken_2025.txt quarantined whole
        (root / "run3.txt").write_text(out.getvalue())
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            # nothing changed: no release; the full path (pipeline.cli_unchanged's shortcut would record no
            # Dagster run, tests/cli/test_unchanged_run.py), so the unchanged release step's log is checked
            assert cli.run(check_unchanged=False) == cli.EXIT_QUARANTINED
        (root / "run4.txt").write_text(out.getvalue())
        yield root


def _main(capsys, *argv) -> tuple[int, str, str]:
    capsys.readouterr()
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _body(markdown: str) -> str:
    """The changelog from its first section on (the title and parent lines name the releases)."""
    return markdown[markdown.index("## Added") :]


@pytest.mark.parametrize("parent,child", [(1, 2), (2, 3)])
def test_diff_of_a_parent_and_its_child_is_the_childs_changelog(project, capsys, parent, child):
    wh = project / "warehouse"
    status, out, _ = _main(capsys, "diff", str(parent), str(child))
    assert status == 0
    changelog = (wh / f"release={child}" / "CHANGELOG.md").read_text()
    assert _body(out) == _body(changelog) + "\n"  # print adds the last line end
    assert out.startswith(f"# Changes from release {parent} to release {child}\n\nParent: {parent}\n")
    status, out, _ = _main(capsys, "diff", str(parent), str(child), "--json")
    data = json.loads(out)
    table = pl.read_parquet(wh / f"release={child}" / "changelog.parquet")
    manifest = release.read_manifest(wh / f"release={child}")
    for kind in ("added", "removed", "changed"):
        ids = sorted(table.filter(pl.col("change") == kind)["paper_id"])
        assert [p["paper_id"] for p in data[kind]] == ids
        assert data["counts"][kind] == manifest.changes[kind] == len(ids)
    if child == 2:
        # the re-listed seed paper now has two sources
        assert data["counts"] == {"added": 6, "removed": 0, "changed": 1}
        assert data["changed"][0]["columns"] == ["n_sources"]
        assert {p["listing"] for p in data["added"]} == {"NeurIPS_2023_sample.txt"}
        assert all(set(p) == {"paper_id", "title", "listing"} for p in data["added"])
        assert data["lineage"] == [
            {
                "listing": "NeurIPS_2023_sample.txt",
                "change": "new",
                "before": {"published": 0, "duplicate": 0, "quarantined": 0},
                "after": {"published": 6, "duplicate": 1, "quarantined": 0},
                "reasons": {},
            }
        ]


def test_diff_any_two_releases_either_way(project, capsys):
    status, out, _ = _main(capsys, "diff", "3", "1", "--json")
    data = json.loads(out)
    assert status == 0 and data["counts"] == {"added": 0, "removed": 6, "changed": 1}
    assert {p["listing"] for p in data["removed"]} == {"NeurIPS_2023_sample.txt"}
    assert {c["listing"]: c["change"] for c in data["lineage"]} == {
        "NeurIPS_2023_sample.txt": "gone",
        "broken_2025.txt": "gone",
    }


def test_a_lineage_only_release_says_what_changed(project):
    wh = project / "warehouse"
    changelog = (wh / "release=3" / "CHANGELOG.md").read_text()
    assert "## Added (0)" in changelog and "differs from its parent in the lineage only" in changelog
    assert (
        "## Lineage (1 listing)\n\n- broken\\_2025.txt (new listing): 1 record: 1 quarantined (undecodable 1)\n"
        in (changelog)
    )
    run3 = (project / "run3.txt").read_text()
    assert f"release 3 published: {LINEAGE_ONLY}; {wh / 'release=3'}" in run3
    # release 2's changelog also tells the new listing's records: 6 published, 1 duplicate
    changelog2 = (wh / "release=2" / "CHANGELOG.md").read_text()
    assert "NeurIPS\\_2023\\_sample.txt (new listing): 7 records: 6 published, 1 duplicate" in changelog2
    assert "lineage only" not in changelog2


def test_the_logs_and_the_ui_agree_with_the_data(project):
    """An unchanged run says "content unchanged" and no list of changes; the release asset carries the lineage
    changes; each table's row count in the UI is its rows in the release."""
    wh = project / "warehouse"
    assert "release 3 unchanged" in (project / "run4.txt").read_text()
    with dg.DagsterInstance.get() as instance:
        runs = instance.get_runs(limit=1)
        messages = [e.user_message for e in instance.all_logs(runs[0].run_id) if e.dagster_event is None]
        said = [m for m in messages if "content unchanged" in m]
        assert said == ["content unchanged: no new release, latest is 3"]
        # the last materialisation of release is release 3's (the unchanged run re-materialises it)
        meta = {
            k: getattr(v, "value", v)
            for k, v in instance.fetch_materializations(dg.AssetKey("release"), limit=1)
            .records[0]
            .asset_materialization.metadata.items()
        }
        assert meta["release"] == 3
        for table in release.TABLES:
            m = instance.fetch_materializations(dg.AssetKey(table), limit=1).records[0]
            rows = m.asset_materialization.metadata["dagster/row_count"].value
            assert rows == release.read_table(wh, table, 3).height, table
    # the release asset's own table is its changelog: its row count is changelog.parquet's
    assert meta["dagster/row_count"] == pl.read_parquet(wh / "release=3" / "changelog.parquet").height == 0


def test_releases_lists_every_release_and_marks_latest(project, capsys):
    status, out, _ = _main(capsys, "releases", "--json")
    rows = json.loads(out)
    assert status == 0
    assert [(r["release"], r["parent"], r["papers"], r["added"], r["latest"]) for r in rows] == [
        (1, None, 38, 38, False),
        (2, 1, 44, 6, False),
        (3, 2, 44, 0, True),
    ]
    index = release.read_index(project / "warehouse")
    assert [r["release_id"] for r in rows] == [e["release_id"] for e in index]
    status, out, _ = _main(capsys, "releases")
    lines = out.splitlines()
    assert (
        status == 0 and len(lines) == 4 and lines[0].split()[:4] == ["release", "created", "parent", "papers"]
    )
    assert lines[3].split()[0] == "3" and lines[3].endswith("LATEST")
    assert lines[2].split()[2:5] == ["1", "44", "6"]


def test_show_a_paper_its_urls_metrics_lineage_and_releases(project, capsys):
    wh = project / "warehouse"
    lineage = release.read_table(wh, "listing_lineage", 3)
    dup = lineage.filter(pl.col("status") == "duplicate")
    pid = dup["paper_id"][0]  # the seed paper re-listed in the NeurIPS sample
    status, out, _ = _main(capsys, "show", pid, "--json")
    info = json.loads(out)
    assert status == 0 and info["releases"] == [1, 2, 3] and info["release"] == 3
    assert info["paper"]["paper_id"] == pid and info["paper"]["first_release"] == 1
    assert sorted((r["listing"], r["status"]) for r in info["lineage"]) == [
        (info["paper"]["source_listing"], "published"),
        ("NeurIPS_2023_sample.txt", "duplicate"),
    ]
    for table, key in (("paper_urls", "urls"), ("paper_metrics", "metrics")):
        rows = release.read_table(wh, table, 3).filter(pl.col("paper_id") == pid)
        assert len(info[key]) == rows.height
    new = release.read_table(wh, "papers", 3).filter(pl.col("venue") == "NeurIPS")["paper_id"][0]
    assert history.show_paper(wh, new)["releases"] == [2, 3]
    status, out, _ = _main(capsys, "show", pid)
    assert status == 0 and out.startswith(f"paper {pid} (release 3; in releases 1, 2, 3)")
    assert "lineage (2 records):" in out


@pytest.mark.parametrize(
    "argv,words",
    [
        (["diff", "1", "9"], "unknown release 9 in "),
        (["rollback", "9"], "unknown release 9 in "),
        (["show", "xyz"], "'xyz' is not a paper id"),
        (["show", "p0123456789abcdef"], "paper p0123456789abcdef is in no committed release of "),
    ],
)
def test_errors_are_one_line_with_a_non_zero_exit(project, capsys, argv, words):
    status, out, err = _main(capsys, *argv)
    assert status == 1 and err.startswith(f"error: {words}") and err.count("\n") == 1, err
    assert re.search(r"releases (are )?1-3", err) or "paper id" in err
