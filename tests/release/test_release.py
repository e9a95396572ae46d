"""Releases: numbering, no-op on unchanged content, changelog, crash safety, the lock, verify, retention."""

import fcntl
import json

import polars as pl
import pytest

from pipeline import release
from pipeline.release import PublishInProgressError


def _tables(abstracts: dict[str, str], release_no: int = 1) -> dict[str, pl.DataFrame]:
    ids = sorted(abstracts)
    n = len(ids)
    papers = pl.DataFrame(
        {
            "paper_id": ids,
            "venue": ["ICML"] * n,
            "year": [2026] * n,
            "abstract": [abstracts[i] for i in ids],
            "abstract_raw": [abstracts[i] for i in ids],
            "first_release": [release_no] * n,
        }
    )
    urls = pl.DataFrame(
        {
            "paper_id": ids[:1],
            "venue": ["ICML"],
            "year": [2026],
            "url": ["https://github.com/a/b"],
            "start": [0],
            "end": [10],
        }
    )
    metrics = pl.DataFrame(
        {
            "paper_id": ids[:1],
            "venue": ["ICML"],
            "year": [2026],
            "value": [54.0],
            "start": [3],
            "end": [6],
            "kind": ["score"],
            "value_text": ["54"],
        }
    )
    lineage = pl.DataFrame(
        {
            "listing": ["a.txt"] * n,
            "venue": ["ICML"] * n,
            "year": [2026] * n,
            "paragraph": list(range(1, n + 1)),
            "paper_id": ids,
        }
    )
    return {"papers": papers, "paper_urls": urls, "paper_metrics": metrics, "listing_lineage": lineage}


INPUTS = [{"listing": "a.txt", "sha256": "0" * 64}]


def test_publish_numbering_noop_and_changelog(tmp_path):
    r1 = release.publish(tmp_path, _tables({"p1": "first text", "p2": "second text"}), INPUTS)
    assert (r1.release, r1.created) == (1, True)
    again = release.publish(tmp_path, _tables({"p1": "first text", "p2": "second text"}), INPUTS)
    assert (again.release, again.created) == (1, False)
    assert release.list_releases(tmp_path) == [1]
    r2 = release.publish(tmp_path, _tables({"p1": "first text EDITED", "p3": "third"}), INPUTS)
    assert (r2.release, r2.created) == (2, True)
    assert (tmp_path / "LATEST").read_text() == "2"
    changes = pl.read_parquet(tmp_path / "release=2" / "changelog.parquet")
    assert changes.rows() == [
        ("p3", "added", None),
        ("p1", "changed", "abstract,abstract_raw"),
        ("p2", "removed", None),
    ]
    manifest = json.loads((tmp_path / "release=2" / "manifest.json").read_text())
    assert manifest["changes"] == {"added": 1, "removed": 1, "changed": 1}
    assert manifest["parent"] == 1
    assert manifest["tables"]["papers"]["files"][0]["path"] == "papers/venue=ICML/year=2026/part-0.parquet"
    # venue/year live in the path only, so every reader sees one consistent partition dtype
    assert (
        "venue"
        not in pl.read_parquet(
            tmp_path / "release=2" / manifest["tables"]["papers"]["files"][0]["path"]
        ).columns
    )


def test_crash_between_file_writes_keeps_previous_release(tmp_path, monkeypatch):
    from pipeline.release import writer

    release.publish(tmp_path, _tables({"p1": "a"}), INPUTS)
    real = writer.write_partition

    def crash_on_second_table(part, *args):
        if part.rel.startswith("paper_urls/"):
            raise OSError("disk full (simulated)")
        return real(part, *args)

    monkeypatch.setattr(writer, "write_partition", crash_on_second_table)
    with pytest.raises(OSError):
        release.publish(tmp_path, _tables({"p1": "a", "p2": "b"}), INPUTS)
    assert (tmp_path / "LATEST").read_text() == "1"
    assert release.list_releases(tmp_path) == [1]
    assert release.verify(tmp_path) == []
    assert not (tmp_path / "_staging").exists()  # a publish that raises removes its staging folder
    monkeypatch.setattr(writer, "write_partition", real)
    r = release.publish(tmp_path, _tables({"p1": "a", "p2": "b"}), INPUTS)
    assert r.release == 2 and not (tmp_path / "_staging").exists()


def test_second_publisher_gets_a_clear_error(tmp_path):
    tmp_path.mkdir(exist_ok=True)
    with open(tmp_path / ".publish.lock", "a+") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        with pytest.raises(PublishInProgressError, match="publish in progress"):
            release.publish(tmp_path, _tables({"p1": "a"}), INPUTS)
    assert not (tmp_path / "LATEST").exists()


def test_verify_detects_a_tampered_file(tmp_path):
    release.publish(tmp_path, _tables({"p1": "a", "p2": "b"}), INPUTS)
    assert release.verify(tmp_path, 1) == []
    f = next((tmp_path / "release=1" / "papers").rglob("*.parquet"))
    data = bytearray(f.read_bytes())
    data[10] ^= 0xFF
    f.write_bytes(bytes(data))
    problems = release.verify(tmp_path, 1)
    assert len(problems) == 1 and "sha256" in problems[0]


def test_prune_keeps_last_k_and_never_latest(tmp_path):
    for i in range(4):
        release.publish(tmp_path, _tables({"p1": f"text {i}"}), INPUTS)
    assert release.prune(tmp_path, 2) == [1, 2]
    assert release.list_releases(tmp_path) == [3, 4]
    (tmp_path / "LATEST").write_text("3")  # a rollback: LATEST names an older release
    assert release.prune(tmp_path, 1) == []
    assert release.list_releases(tmp_path) == [3, 4]


def _case17(path) -> dict[str, pl.DataFrame]:
    """The case17 rows as a release: paper_id/abstract/metric_value/lang_confidence become papers
    (abstract, language_score) and paper_metrics (value)."""
    rows = pl.read_ndjson(path)
    base = rows.with_columns(venue=pl.lit("ICML"), year=pl.lit(2026))
    papers = base.select(
        "paper_id",
        "venue",
        "year",
        "abstract",
        *([pl.col("lang_confidence").alias("language_score")] if "lang_confidence" in rows.columns else []),
    )
    metrics = base.filter(pl.col("metric_value").is_not_null()).select(
        "paper_id",
        "venue",
        "year",
        pl.col("metric_value").alias("value"),
        start=pl.lit(0),
        end=pl.lit(1),
        kind=pl.lit("score"),
        value_text=pl.col("metric_value").cast(pl.String),
    )
    urls = pl.DataFrame(
        schema={
            "paper_id": pl.String,
            "venue": pl.String,
            "year": pl.Int64,
            "url": pl.String,
            "start": pl.Int64,
            "end": pl.Int64,
        }
    )
    lineage = base.select(
        pl.lit("a.txt").alias("listing"),
        "venue",
        "year",
        pl.int_range(1, pl.len() + 1).alias("paragraph"),
        "paper_id",
    )
    return {"papers": papers, "paper_urls": urls, "paper_metrics": metrics, "listing_lineage": lineage}


def test_schema_drift_case17_every_release_reads_together(tmp_path, cases):
    import duckdb

    v1, v2 = _case17(cases / "case17_schema_drift_v1.jsonl"), _case17(cases / "case17_schema_drift_v2.jsonl")
    assert v1["paper_metrics"]["value"].dtype == pl.Int64 and "language_score" not in v1["papers"].columns
    release.publish(tmp_path, v1, INPUTS)
    release.publish(tmp_path, v2, INPUTS)
    # value is Float64 (the contract's dtype) from the first release on
    for n in (1, 2):
        assert release.table_schema(tmp_path, "paper_metrics", n)["value"] == pl.Float64
    metrics = release.read_all(tmp_path, "paper_metrics").sort("release", "paper_id")
    assert metrics.select("release", "paper_id", "value").rows() == [
        (1, "p001", 54.0),
        (2, "p001", 54.0),
        (2, "p003", 1.41),
    ]
    papers = release.read_all(tmp_path, "papers").sort("release", "paper_id")
    assert papers.select("release", "paper_id", "language_score").rows() == [
        (1, "p001", None),
        (1, "p002", None),
        (2, "p001", 0.99),
        (2, "p003", 0.97),
    ]
    # the README's all-releases lines: DuckDB by name, polars with the latest schema
    duck = duckdb.sql(
        f"SELECT release, paper_id, language_score FROM read_parquet('{tmp_path}/release=*/papers/**/*.parquet', "
        "hive_partitioning=true, union_by_name=true) ORDER BY release, paper_id"
    ).fetchall()
    assert duck == papers.select("release", "paper_id", "language_score").rows()
    duck_types = dict(
        duckdb.sql(
            f"DESCRIBE FROM read_parquet('{tmp_path}/release=*/paper_metrics/**/*.parquet', "
            "hive_partitioning=true, union_by_name=true)"
        ).fetchall()[i][:2]
        for i in range(4)
    )
    assert duck_types["value"] == "DOUBLE"
    # changelog of release 2: a column new in this release is a schema change (manifest columns), not a
    # change of every paper; p001's other columns are equal (54 == 54.0 once pinned)
    changes = pl.read_parquet(tmp_path / "release=2" / "changelog.parquet")
    assert changes.rows() == [("p003", "added", None), ("p002", "removed", None)]
    manifests = [json.loads((tmp_path / f"release={n}" / "manifest.json").read_text()) for n in (1, 2)]
    assert [[c["name"] for c in m["tables"]["papers"]["columns"]][-1] for m in manifests] == [
        "abstract",
        "language_score",
    ]


def test_schema_drift_that_loses_data_or_drops_a_column_is_refused(tmp_path):
    first = _tables({"p1": "a", "p2": "b"})
    first["papers"] = first["papers"].with_columns(pages=pl.Series([10, 12]))
    release.publish(tmp_path, first, INPUTS)
    lossy = _tables({"p1": "a", "p2": "c"})
    lossy["papers"] = lossy["papers"].with_columns(pages=pl.Series([10.5, 12.0]))
    with pytest.raises(
        release.SchemaDriftError, match=r"papers.pages: Float64 cannot become the pinned Int64"
    ):
        release.publish(tmp_path, lossy, INPUTS)
    with pytest.raises(
        release.SchemaDriftError, match=r"columns \['pages'\] of the parent release are missing"
    ):
        release.publish(tmp_path, _tables({"p1": "a", "p2": "c"}), INPUTS)
    widened = _tables({"p1": "a", "p2": "c"})
    widened["papers"] = widened["papers"].with_columns(pages=pl.Series([10.0, 13.0]))  # lossless: stays Int64
    assert release.publish(tmp_path, widened, INPUTS).release == 2
    assert release.table_schema(tmp_path, "papers", 2)["pages"] == pl.Int64
    assert release.list_releases(tmp_path, complete=False) == [1, 2]


def test_uncommitted_release_folder_is_invisible_and_cleaned(tmp_path):
    release.publish(tmp_path, _tables({"p1": "a"}), INPUTS)
    release.publish(tmp_path, _tables({"p1": "b"}), INPUTS)
    # as if the publish of 2 died between its rename and LATEST: neither LATEST nor the index name it
    (tmp_path / "LATEST").write_text("1")
    index = json.loads((tmp_path / "releases.json").read_text())
    (tmp_path / "releases.json").write_text(json.dumps([e for e in index if e["release"] == 1]))
    assert release.committed_releases(tmp_path) == [1]
    assert set(release.read_all(tmp_path, "papers")["release"]) == {1}
    r = release.publish(tmp_path, _tables({"p1": "c"}), INPUTS)
    assert r.release == 2 and release.read_table(tmp_path, "papers", 2)["abstract"].to_list() == ["c"]
    assert json.loads((tmp_path / "release=2" / "manifest.json").read_text())["parent"] == 1


def test_verify_checks_changelog_row_counts_and_unlisted_files(tmp_path, monkeypatch, capsys):
    from pipeline import cli

    release.publish(tmp_path, _tables({"p1": "a", "p2": "b"}), INPUTS)
    release.publish(tmp_path, _tables({"p1": "a", "p3": "c"}), INPUTS)
    monkeypatch.setenv("PIPELINE_WAREHOUSE_DIR", str(tmp_path))
    assert cli.main(["verify"]) == 0 and cli.main(["verify", "--all"]) == 0
    rel = tmp_path / "release=1"
    (rel / "CHANGELOG.md").write_text("# Release 1\n\nnothing changed, honestly\n")
    (rel / "papers" / "venue=ICML" / "year=2026" / "part-1.parquet").write_bytes(b"PAR1")
    manifest = json.loads((rel / "manifest.json").read_text())
    manifest["tables"]["listing_lineage"]["files"][0]["rows"] = 3  # a manifest that lies about rows
    manifest["tables"]["listing_lineage"]["rows"] = 3
    (rel / "manifest.json").write_text(json.dumps(manifest))
    problems = release.verify(tmp_path, 1)
    assert [p.replace(str(rel), "R") for p in problems] == [
        # the manifest edited after commit: releases.json recorded its sha256 then
        "R/manifest.json: sha256 differs from the one releases.json recorded when release 1 was committed",
        "R/listing_lineage/venue=ICML/year=2026/part-0.parquet: 2 rows, manifest says 3",
        "listing_lineage: 2 rows in files, manifest says 3",
        f"R/CHANGELOG.md: {(rel / 'CHANGELOG.md').stat().st_size} bytes, manifest says "
        f"{manifest['files'][1]['bytes']}",
        "R/CHANGELOG.md: sha256 differs from the manifest",
        "R/papers/venue=ICML/year=2026/part-1.parquet: not in the manifest",
    ]
    capsys.readouterr()
    assert cli.main(["verify", "1"]) == 1 and cli.main(["verify", "--all"]) == 1 and cli.main(["verify"]) == 0
    out = capsys.readouterr().out
    assert out.count("MISMATCH") == 12 and "release 2" in out


def test_readme_all_releases_lines(tmp_path, cases, monkeypatch):
    import re

    from tests.conftest import ROOT

    wh = tmp_path / "warehouse"
    release.publish(wh, _case17(cases / "case17_schema_drift_v1.jsonl"), INPUTS)
    release.publish(wh, _case17(cases / "case17_schema_drift_v2.jsonl"), INPUTS)
    v3 = _case17(cases / "case17_schema_drift_v2.jsonl")
    v3["papers"] = v3["papers"].with_columns(abstract=pl.lit("Renamed in release 3."))
    release.publish(wh, v3, INPUTS)
    (wh / "LATEST").write_text("2")  # release 3 renamed in, never committed: every read leaves it out
    block = re.search(
        r"<!-- reads-all:start -->\s*```python\n(.*?)```\s*<!-- reads-all:end -->",
        (ROOT / "README.md").read_text(),
        re.S,
    ).group(1)
    monkeypatch.chdir(tmp_path)
    scope: dict = {}
    exec(block, scope)
    rows = scope["pl_all"].sort("release", "paper_id").select("release", "paper_id", "language_score").rows()
    assert rows == [(1, "p001", None), (1, "p002", None), (2, "p001", 0.99), (2, "p003", 0.97)]
    assert (
        sorted(
            scope["duck_all"].select("release", "paper_id", "language_score").fetchall(),
            key=lambda r: (r[0], r[1]),
        )
        == rows
    )


def test_rollback_by_hand_keeps_newer_releases_and_numbers_on(tmp_path):
    for i in range(3):
        release.publish(tmp_path, _tables({"p1": f"text {i}"}), INPUTS)
    assert [e["release"] for e in release.read_index(tmp_path)] == [1, 2, 3]
    (tmp_path / "LATEST").write_text("1")  # a user rolls back to release 1
    r = release.publish(tmp_path, _tables({"p1": "text 9"}), INPUTS)
    assert r.release == 4 and release.list_releases(tmp_path) == [1, 2, 3, 4]
    assert json.loads((tmp_path / "release=4" / "manifest.json").read_text())["parent"] == 1


def test_unchanged_partitions_are_hard_links_to_the_parent_release(tmp_path):
    tables = _tables({"p1": "first text", "p2": "second text"})
    release.publish(tmp_path, tables, INPUTS)
    other = {
        k: pl.concat([v, v.head(1).with_columns(venue=pl.lit("NeurIPS"), year=pl.lit(2025, pl.Int64))])
        if k == "papers"
        else v
        for k, v in tables.items()
    }
    other["papers"] = other["papers"].with_columns(
        paper_id=pl.when(pl.col("venue") == "NeurIPS").then(pl.lit("p9")).otherwise(pl.col("paper_id"))
    )
    r = release.publish(tmp_path, other, INPUTS)
    assert r.release == 2
    same = "papers/venue=ICML/year=2026/part-0.parquet"
    assert (tmp_path / "release=1" / same).stat().st_ino == (tmp_path / "release=2" / same).stat().st_ino
    new = tmp_path / "release=2" / "papers/venue=NeurIPS/year=2025/part-0.parquet"
    assert new.exists() and new.stat().st_nlink == 1
    assert release.verify(tmp_path, 1) == [] and release.verify(tmp_path, 2) == []
    release.prune(tmp_path, 1)  # deleting release 1 leaves release 2 whole
    assert release.verify(tmp_path, 2) == [] and release.read_table(tmp_path, "papers", 2).height == 3
