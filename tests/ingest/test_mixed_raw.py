"""The main job over a raw folder mixing shapes (seed text, papercopilot JSON, markdown schedule, separated
text, CSV with a settings file, gzip JSON Lines, an HTML page no reader fits): every record accounted for,
titles and source fields published, the reader and position of each record in the lineage, listing links in
paper_urls,
and a changelog naming papers by title."""

import gzip
import json
import shutil

import polars as pl
import pytest

from pipeline import cli
from tests.conftest import DATA

pytestmark = pytest.mark.integration

READERS = DATA / "readers"


def test_mixed_raw_folder(project):
    raw = project / "raw"
    shutil.copy(READERS / "iclr2017.json", raw / "iclr2017.json")
    (raw / "awesome-neurips-2023").mkdir()
    shutil.copy(
        READERS / "Not_Presented_Posters.md", raw / "awesome-neurips-2023" / "Not_Presented_Posters.md"
    )
    shutil.copy(READERS / "nips_2016.txt", raw / "nips_2016.txt")
    (raw / "exports").mkdir()
    shutil.copy(READERS / "openreview_export.csv", raw / "exports" / "openreview_export.csv")
    (raw / "exports" / "listing.toml").write_text('venue = "ICLR"\nyear = 2018\n')
    (raw / "feed.jsonl.gz").write_bytes(gzip.compress((READERS / "arxiv_feed.jsonl").read_bytes()))
    (raw / "saved_page.html").write_text("<!DOCTYPE html><html><body>Sign in</body></html>")
    assert cli.run() == cli.EXIT_QUARANTINED  # published; saved_page.html quarantined whole, named at the end
    rel = project / "warehouse" / "release=1"
    papers = pl.read_parquet(rel / "papers", hive_partitioning=True)
    lineage = pl.read_parquet(rel / "listing_lineage", hive_partitioning=True)
    urls = pl.read_parquet(rel / "paper_urls", hive_partitioning=True)
    assert "exports/listing.toml" not in set(lineage["listing"])  # a settings file is not a listing
    by_listing = dict(lineage.group_by("listing").agg(pl.col("reader").first()).iter_rows())
    assert by_listing == {
        "iclr2017.json": "json",
        "awesome-neurips-2023/Not_Presented_Posters.md": "markdown",
        "nips_2016.txt": "separated_text",
        "exports/openreview_export.csv": "csv",
        "feed.jsonl.gz": "jsonl",
        "saved_page.html": None,
        "000_d1f8394cc51cd0ab.txt": "seed_text",
        "003_73385858203932a9.txt": "seed_text",
    }
    page = lineage.filter(pl.col("listing") == "saved_page.html")
    assert page["status"].to_list() == ["quarantined"] and "no reader fits" in page["reason"][0]
    iclr = papers.filter(pl.col("source_listing") == "iclr2017.json").sort("source_id")
    assert iclr["title"].to_list() == [
        "Prototypical Networks for Few-shot Learning",
        "Machine Comprehension Using Match-LSTM and Answer Pointer",
    ]
    assert set(iclr["venue"]) == {"ICLR"} and set(iclr["year"]) == {2017}
    assert iclr["authors"][0].to_list() == ["Jake Snell", "Kevin Swersky", "Richard Zemel"]
    csv_papers = papers.filter(pl.col("source_listing") == "exports/openreview_export.csv")
    assert (
        csv_papers.height == 3 and set(csv_papers["venue"]) == {"ICLR"} and set(csv_papers["year"]) == {2018}
    )
    csv_lineage = lineage.filter(pl.col("listing") == "exports/openreview_export.csv").sort("paragraph")
    assert csv_lineage["position"].to_list() == [1, 2, 3]  # data rows; the header row is not a record
    seps = lineage.filter(pl.col("listing") == "nips_2016.txt").sort("paragraph")
    assert seps["status"][0] == "quarantined" and seps["reason"][0].startswith("preamble")
    assert seps["position"].to_list() == seps["line"].to_list()
    md = papers.filter(pl.col("source_listing") == "awesome-neurips-2023/Not_Presented_Posters.md")
    assert (
        md.height == 3
        and set(md["venue"]) == {"NeurIPS"}
        and not md["abstract"].str.contains("details").any()
    )
    assert (
        urls.filter(pl.col("origin") == "listing").height
        == papers["source_urls"].list.len().fill_null(0).sum()
    )
    changelog = (rel / "CHANGELOG.md").read_text()
    assert "Prototypical Networks for Few-shot Learning — `iclr2017.json`" in changelog


def test_fixed_abstract_keeps_its_id_by_source_id_and_title_and_settings_change_rereads(project):
    raw = project / "raw"
    (raw / "lists").mkdir()
    records = json.loads((READERS / "iclr2017.json").read_text())
    (raw / "lists" / "papers.json").write_text(json.dumps(records))
    (raw / "lists" / "listing.toml").write_text('venue = "ICLR"\nyear = 2017\n')
    assert cli.run() == 0
    wh = project / "warehouse"
    r1 = pl.read_parquet(wh / "release=1" / "papers", hive_partitioning=True).filter(
        pl.col("source_listing") == "lists/papers.json"
    )
    # the abstract rewritten (not a near-duplicate any more), same id and title in the file
    records[0]["abstract"] = (
        "We revisit few-shot classification with a different method entirely: each class is "
        "represented by the mean of its embedded support examples and queries are labelled "
        "by their nearest class mean under a learned metric, which works well in practice."
    )
    (raw / "lists" / "papers.json").write_text(json.dumps(records))
    (raw / "lists" / "listing.toml").write_text('venue = "ICLR"\nyear = 2018\n')
    assert cli.run() == 0
    r2 = pl.read_parquet(wh / "release=2" / "papers", hive_partitioning=True).filter(
        pl.col("source_listing") == "lists/papers.json"
    )
    pid = lambda df: df.filter(pl.col("source_id") == "B1-Hhnslg")["paper_id"].to_list()  # noqa: E731
    assert pid(r1) == pid(r2) and len(pid(r1)) == 1
    assert set(r2["year"]) == {2018}  # the changed settings file re-read its listing
