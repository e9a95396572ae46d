"""The main job end to end on the real seed listings, with Dagster's in-process execution."""

import json
import re
import shutil

import duckdb
import polars as pl
import pyarrow.dataset as ds
import pytest

from pipeline import cli, release
from tests.conftest import DATA, ROOT, SEEDS

pytestmark = pytest.mark.integration

TABLES = ["papers", "paper_urls", "paper_metrics", "listing_lineage", "benchmarks", "benchmark_results"]
SEED_URLS = {
    "https://github.com/Puning97/EUA-for-LLM-Unlearning": "code",
    "https://anonymous.4open.science/r/DisAlign-7F35": "anonymous_code",
    "https://oublalkhalid.github.io/MStar-Diffusion": "project_page",
    "https://github.com/HaoxinSun98/SignedForestDiagonal": "code",
    "https://github.com/gaorch85/Graph-of-States": "code",
}


@pytest.fixture
def published(project):
    assert cli.run() == 0
    return project


def _latest(root):
    return (root / "warehouse" / "LATEST").read_text().strip()


def test_run_publishes_release_1_readable_by_every_reader(published):
    rel = published / "warehouse" / "release=1"
    assert _latest(published) == "1"
    for table in TABLES:
        polars_df = pl.read_parquet(rel / table, hive_partitioning=True)
        duck = duckdb.sql(
            f"SELECT count(*) FROM read_parquet('{rel}/{table}/**/*.parquet', hive_partitioning=true)"
        )
        arrow = ds.dataset(rel / table, partitioning="hive", format="parquet").to_table()
        assert duck.fetchall()[0][0] == polars_df.height == arrow.num_rows, table
    papers = pl.read_parquet(rel / "papers", hive_partitioning=True)
    assert papers.height == 38
    assert papers["paper_id"].n_unique() == 38
    assert set(papers["venue"]) == {"ICML"} and set(papers["year"]) == {2026}
    lineage = pl.read_parquet(rel / "listing_lineage", hive_partitioning=True)
    assert lineage.height == 38 and set(lineage["status"]) == {"published"}
    manifest = json.loads((rel / "manifest.json").read_text())
    assert manifest["release"] == 1 and manifest["parent"] is None
    assert {i["listing"] for i in manifest["inputs"]} == {f.name for f in SEEDS}
    assert manifest["tables"]["papers"]["rows"] == 38
    assert release.verify(published / "warehouse") == []


def test_seed_urls_found_with_their_kinds(published):
    urls = pl.read_parquet(published / "warehouse" / "release=1" / "paper_urls", hive_partitioning=True)
    found = dict(zip(urls["url"], urls["kind"]))
    for url, kind in SEED_URLS.items():
        assert found.get(url) == kind, (url, found.get(url))


def test_seed_metrics_found(published):
    m = pl.read_parquet(published / "warehouse" / "release=1" / "paper_metrics", hive_partitioning=True)

    def has(value, unit, **attrs):
        rows = m.filter((pl.col("value") - value).abs() < 1e-9, pl.col("unit").eq_missing(unit))
        for k, v in attrs.items():
            rows = rows.filter(pl.col(k).str.contains(v))
        return rows.height >= 1

    assert has(54.0, "%", metric="F1", dataset="LoCoMo")
    assert has(1.41, "x")
    assert has(80.0, "%", metric="KV cache")
    assert has(13.6, "%", dataset="SWE-bench")
    assert has(12.3, "%", dataset="SWE-bench")


def test_rerun_makes_no_new_release_and_tables_are_byte_identical(published, capsys):
    wh = published / "warehouse"
    before = json.loads((wh / "release=1" / "manifest.json").read_text())
    capsys.readouterr()
    assert cli.run() == 0
    out = capsys.readouterr().out
    assert "listings processed: 0 new or changed; 2 unchanged, reused" in out
    assert "38 paragraphs -> 38 published, 0 duplicate, 0 quarantined" in out
    assert "release 1 unchanged: the content equals the latest release, no new release" in out
    assert _latest(published) == "1"
    assert release.list_releases(wh) == [1]
    # a fresh warehouse from the same raw files gives byte-identical tables and the same release_id
    shutil.rmtree(wh)
    shutil.rmtree(published / ".dagster_home")
    assert cli.run() == 0
    after = json.loads((wh / "release=1" / "manifest.json").read_text())
    assert after["release_id"] == before["release_id"]
    for table in TABLES:
        assert after["tables"][table]["files"] == before["tables"][table]["files"]


def test_new_listing_makes_release_2_listing_exactly_the_added_papers(published, capsys):
    wh = published / "warehouse"
    r1 = pl.read_parquet(wh / "release=1" / "papers", hive_partitioning=True)
    shutil.copy(DATA / "listings" / "NeurIPS_2023_sample.txt", published / "raw" / "NeurIPS_2023_sample.txt")
    capsys.readouterr()
    assert cli.run() == 0
    assert "3 listings (1 new, 0 changed or made by other rules, 0 removed)" in capsys.readouterr().out
    assert _latest(published) == "2"
    r2 = pl.read_parquet(wh / "release=2" / "papers", hive_partitioning=True)
    added = set(r2["paper_id"]) - set(r1["paper_id"])
    assert len(added) == 6 and r2.height == 44
    # ids of the 38 seed papers did not change
    assert set(r1["paper_id"]) <= set(r2["paper_id"])
    changes = pl.read_parquet(wh / "release=2" / "changelog.parquet")
    assert set(changes.filter(pl.col("change") == "added")["paper_id"]) == added
    changelog_md = (wh / "release=2" / "CHANGELOG.md").read_text()
    assert "## Added (6)" in changelog_md and all(pid in changelog_md for pid in added)
    manifest = json.loads((wh / "release=2" / "manifest.json").read_text())
    assert manifest["parent"] == 1 and manifest["changes"]["added"] == 6
    # the seed abstract re-listed in the NeurIPS sample is a duplicate of its ICML original
    lineage = pl.read_parquet(wh / "release=2" / "listing_lineage", hive_partitioning=True)
    dup = lineage.filter(pl.col("status") == "duplicate")
    assert dup.height == 1 and dup["listing"][0] == "NeurIPS_2023_sample.txt"
    assert dup["duplicate_of"][0].startswith("003_73385858203932a9.txt#")
    assert dup["similarity"][0] == 1.0
    assert lineage.group_by("listing").len().sort("listing")["len"].to_list() == [19, 19, 7]
    papers_2023 = r2.filter(pl.col("venue") == "NeurIPS")
    assert papers_2023.height == 6 and set(papers_2023["year"]) == {2023}
    assert set(r2.filter(pl.col("paper_id").is_in(list(added)))["first_release"]) == {2}
    assert set(r2.filter(~pl.col("paper_id").is_in(list(added)))["first_release"]) == {1}


def test_readme_read_one_liners(published):
    shutil.copy(DATA / "listings" / "NeurIPS_2023_sample.txt", published / "raw" / "NeurIPS_2023_sample.txt")
    assert cli.run() == 0
    readme = (ROOT / "README.md").read_text()
    block = re.search(r"<!-- reads:start -->\s*```python\n(.*?)```\s*<!-- reads:end -->", readme, re.S).group(
        1
    )
    scope: dict = {}
    exec(block, scope)  # the README's lines, run from the project root
    assert len(scope["duck_latest"].fetchall()) == scope["pl_latest"].height == len(scope["pd_latest"]) == 44
    assert len(scope["duck_n"].fetchall()) == scope["pl_n"].height == len(scope["pd_n"]) == 38


def test_removed_listing_removes_its_papers(published):
    (published / "raw" / "000_d1f8394cc51cd0ab.txt").unlink()
    assert cli.run() == 0
    wh = published / "warehouse"
    assert _latest(published) == "2"
    papers = pl.read_parquet(wh / "release=2" / "papers", hive_partitioning=True)
    assert papers.height == 19
    assert set(papers["source_listing"]) == {"003_73385858203932a9.txt"}
    changes = pl.read_parquet(wh / "release=2" / "changelog.parquet")
    assert changes.filter(pl.col("change") == "removed").height == 19


def test_undecodable_listing_is_quarantined_whole_and_the_run_carries_on(published):
    # a UTF-16 BOM, then a lone surrogate: no codec can decode it
    (published / "raw" / "broken_2025.txt").write_bytes(b"\xff\xfeI\x00C\x00\x00\xd8a\x00")
    assert cli.run() == cli.EXIT_QUARANTINED  # published, with the file quarantined whole
    lineage = pl.read_parquet(
        published / "warehouse" / "release=2" / "listing_lineage", hive_partitioning=True
    )
    bad = lineage.filter(pl.col("listing") == "broken_2025.txt")
    assert bad.height == 1 and bad["status"][0] == "quarantined" and bad["paragraph"][0] == 0
    assert "byte offset" in bad["reason"][0]
    assert lineage.filter(pl.col("status") == "published").height == 38
