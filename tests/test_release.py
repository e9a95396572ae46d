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
    papers = pl.DataFrame({
        "paper_id": ids, "venue": ["ICML"] * n, "year": [2026] * n,
        "abstract": [abstracts[i] for i in ids], "abstract_raw": [abstracts[i] for i in ids],
        "first_release": [release_no] * n,
    })
    urls = pl.DataFrame({"paper_id": ids[:1], "venue": ["ICML"], "year": [2026], "url": ["https://github.com/a/b"],
                         "start": [0], "end": [10]})
    metrics = pl.DataFrame({"paper_id": ids[:1], "venue": ["ICML"], "year": [2026], "value": [54.0], "start": [3],
                            "end": [6], "kind": ["score"], "value_text": ["54"]})
    lineage = pl.DataFrame({"listing": ["a.txt"] * n, "venue": ["ICML"] * n, "year": [2026] * n,
                            "paragraph": list(range(1, n + 1)), "paper_id": ids})
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
    assert changes.rows() == [("p3", "added", None), ("p1", "changed", "abstract,abstract_raw"), ("p2", "removed", None)]
    manifest = json.loads((tmp_path / "release=2" / "manifest.json").read_text())
    assert manifest["changes"] == {"added": 1, "removed": 1, "changed": 1}
    assert manifest["parent"] == 1
    assert manifest["tables"]["papers"]["files"][0]["path"] == "papers/venue=ICML/year=2026/part-0.parquet"
    # venue/year live in the path only, so every reader sees one consistent partition dtype
    assert "venue" not in pl.read_parquet(tmp_path / "release=2" / manifest["tables"]["papers"]["files"][0]["path"]).columns


def test_crash_between_file_writes_keeps_previous_release(tmp_path, monkeypatch):
    release.publish(tmp_path, _tables({"p1": "a"}), INPUTS)
    real = release._write_partitioned
    calls = []

    def crash_on_second_table(df, table, root):
        calls.append(table)
        if len(calls) == 2:
            raise OSError("disk full (simulated)")
        return real(df, table, root)

    monkeypatch.setattr(release, "_write_partitioned", crash_on_second_table)
    with pytest.raises(OSError):
        release.publish(tmp_path, _tables({"p1": "a", "p2": "b"}), INPUTS)
    assert (tmp_path / "LATEST").read_text() == "1"
    assert release.list_releases(tmp_path) == [1]
    assert release.verify(tmp_path) == []
    assert (tmp_path / "_staging").exists()  # debris until the next publish
    monkeypatch.setattr(release, "_write_partitioned", real)
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
