"""The tables step built partition by partition (pipeline.release.dataset) equals the whole-table build it replaced:
same rows, same partition files and fingerprints, same diff and history columns, same release.

Inputs: every record of the repository's listing files (tests/data/{readers,listings,seeds,cases}), analysed
once (tests/versions_golden.py), written as one abstracts work file per listing."""

from __future__ import annotations

import datetime as dt
import json

import polars as pl
import pytest

from pipeline import release
from pipeline.build import benchmarks, dedup, tables
from pipeline.release import dataset, writer
from pipeline.release.layout import TABLES
from pipeline.release.plan import CHANGELOG_SCHEMA, HISTORY_COLUMNS, PaperDiff, diff_papers
from tests import versions_golden

INPUTS = [{"listing": "all", "sha256": "0" * 64}]


def _work_files(frame: pl.DataFrame, folder) -> list:
    """One Parquet file per listing, in listing order (the order the tables step reads them)."""
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, (_, part) in enumerate(frame.group_by("listing", maintain_order=True)):
        path = folder / f"{i:04d}.parquet"
        part.write_parquet(path)
        paths.append(path)
    return paths


def _whole(frame: pl.DataFrame, number: int = 1) -> dict[str, pl.DataFrame]:
    """Every table built from the whole frame at once, stamped as a first release (the benchmark tables
    from the whole paper_metrics and papers tables)."""
    built = tables.build_tables(frame, dedup.cluster(tables.publishable(frame)))
    built["papers"], _ = release.ReleasePlan(number, None).stamp(built["papers"])
    return {**built, **benchmarks.from_tables(built["paper_metrics"], built["papers"])}


def _exact_diff(old: pl.DataFrame, new: pl.DataFrame) -> pl.DataFrame:
    """Reference changelog by exact value comparison (ne_missing) of every shared column."""
    compare = [c for c in new.columns if c not in HISTORY_COLUMNS and c != "paper_id" and c in old.columns]
    j = old.select("paper_id", *compare).join(
        new.select("paper_id", *compare), on="paper_id", how="full", suffix="_new", coalesce=False
    )
    added = j.filter(pl.col("paper_id").is_null()).select(pl.col("paper_id_new").alias("paper_id"))
    removed = j.filter(pl.col("paper_id_new").is_null()).select("paper_id")
    both = j.filter(pl.col("paper_id").is_not_null() & pl.col("paper_id_new").is_not_null())
    changed = both.select(
        "paper_id",
        pl.concat_list([pl.when(pl.col(c).ne_missing(pl.col(f"{c}_new"))).then(pl.lit(c)) for c in compare])
        .list.drop_nulls()
        .list.join(",")
        .alias("columns"),
    ).filter(pl.col("columns") != "")
    return (
        pl.concat(
            [
                added.with_columns(change=pl.lit("added"), columns=pl.lit(None, pl.String)),
                removed.with_columns(change=pl.lit("removed"), columns=pl.lit(None, pl.String)),
                changed.with_columns(change=pl.lit("changed")).select("paper_id", "change", "columns"),
            ]
        )
        .select(list(CHANGELOG_SCHEMA))
        .cast(CHANGELOG_SCHEMA)
        .sort("change", "paper_id")
    )


@pytest.fixture(scope="module")
def frame() -> pl.DataFrame:
    return versions_golden.abstracts_frame()


@pytest.mark.parametrize("batch_rows", [dataset.BATCH_ROWS, 10])
def test_partition_build_equals_the_whole_table_build(frame, tmp_path, monkeypatch, batch_rows):
    """All partitions in one batch, and (batches of 10 rows) one partition per batch."""
    monkeypatch.setattr(dataset, "BATCH_ROWS", batch_rows)
    built = dataset.build_dataset(_work_files(frame, tmp_path / "work"), tmp_path / "wh", tmp_path / "build")
    whole = _whole(frame)
    assert built.plan.number == 1 and built.plan.parent is None
    assert {name: f for name, f in built.failures.items() if f is not None} == {}
    n_parts = 0
    for name in TABLES:
        expected = writer.partitions(release.conform(whole[name], name, {}), name)
        got = built.tables[name].partitions
        assert [(p.rel, p.rows, p.fingerprint) for p in got] == [
            (p.rel, p.rows, p.fingerprint) for p in expected
        ]
        for g, e in zip(got, expected):
            assert g.load().equals(e.load())
        assert built.tables[name].rows == whole[name].height
        assert built.tables[name].schema == whole[name].schema
        n_parts += len(got)
    # the inputs span 12 venue/year partitions, with duplicates across listings and quarantined rows: the
    # equality above covers the partition boundaries, the clusters and the repeated-notice rule
    assert len(built.tables["papers"].partitions) == 12, n_parts
    assert dict(whole["listing_lineage"].group_by("status").len().iter_rows()) == {
        "published": 118,
        "duplicate": 14,
        "quarantined": 30,
    }
    lineage = whole["listing_lineage"].select("listing", "status").sort("listing", "status")
    assert built.lineage.sort("listing", "status").equals(lineage)
    assert built.plan.changes is not None
    assert built.plan.changes.equals(diff_papers(None, whole["papers"]))


def test_the_diff_by_parts_equals_the_exact_whole_table_diff(frame):
    old = _whole(frame)["papers"]
    ids = old["paper_id"].to_list()
    # a new table: two papers removed, one text edited, one paper moved to another venue, one new paper
    new = (
        old.filter(~pl.col("paper_id").is_in(ids[:2]))
        .with_columns(
            abstract=pl.when(pl.col("paper_id") == ids[5])
            .then(pl.col("abstract") + " Edited.")
            .otherwise(pl.col("abstract")),
            venue=pl.when(pl.col("paper_id") == ids[7]).then(pl.lit("MovedVenue")).otherwise(pl.col("venue")),
        )
        .vstack(old.head(1).with_columns(paper_id=pl.lit("p0000000000000new")))
    )
    differ = PaperDiff(old.lazy(), 2)
    stamped = [differ.stamp(part) for part in new.partition_by("venue", "year", maintain_order=True)]
    changes = differ.changes()
    assert changes.equals(_exact_diff(old, new))
    by_kind = dict(changes.group_by("change").len().iter_rows())
    assert by_kind == {"added": 1, "removed": 2, "changed": 2}
    assert dict(changes.filter(pl.col("change") == "changed").select("paper_id", "columns").iter_rows()) == {
        ids[5]: "abstract",
        ids[7]: "venue",
    }
    hist = pl.concat(stamped).select("paper_id", *HISTORY_COLUMNS)
    row = {r["paper_id"]: r for r in hist.iter_rows(named=True)}
    assert row[ids[5]] == {"paper_id": ids[5], "first_release": 1, "last_changed_release": 2}
    assert row[ids[10]] == {"paper_id": ids[10], "first_release": 1, "last_changed_release": 1}
    assert row["p0000000000000new"]["first_release"] == 2


def test_a_release_from_the_build_equals_one_from_whole_tables(frame, tmp_path):
    built = dataset.build_dataset(_work_files(frame, tmp_path / "work"), tmp_path / "wh", tmp_path / "build")
    from_build = release.publish(tmp_path / "wh", built.tables, INPUTS, plan=built.plan)
    from_frames = release.publish(tmp_path / "wh2", _whole(frame), INPUTS)
    assert from_build.created and from_frames.created
    assert from_build.release_id == from_frames.release_id
    for rel in ("changelog.parquet", "CHANGELOG.md", "README.md", "charts/papers_per_venue_year.png"):
        if (from_frames.path / rel).exists():
            a = (from_build.path / rel).read_bytes()
            b = (from_frames.path / rel).read_bytes()
            if rel == "README.md":  # the creation time differs
                a, b = (b"\n".join(x for x in t.splitlines() if b"created" not in x.lower()) for t in (a, b))
            assert a == b, rel


def test_a_second_release_from_the_build_equals_the_whole_table_one(frame, tmp_path, monkeypatch):
    """Against a parent: inherited ids, history columns, the diff, the parent's dtypes and reused files."""
    monkeypatch.setattr(dataset, "BATCH_ROWS", 10)
    listings = frame["listing"].unique(maintain_order=True).to_list()
    first = frame.filter(pl.col("listing") != listings[0])  # release 1 lacks the first listing
    # the clean text of one published paper edited (its content hash, hence its id, kept): a changed paper
    papers = _whole(first)["papers"]
    target = papers.filter(pl.col("source_listing") == listings[1])["content_hash"][0]
    second = frame.with_columns(
        abstract=pl.when(pl.col("content_hash") == target)
        .then(pl.col("abstract") + " Edited.")
        .otherwise(pl.col("abstract"))
    )
    ids = []
    for wh in ("wh_build", "wh_whole"):
        release.publish(tmp_path / wh, _whole(first), INPUTS)
    built = dataset.build_dataset(
        _work_files(second, tmp_path / "work"), tmp_path / "wh_build", tmp_path / "b"
    )
    ids.append(release.publish(tmp_path / "wh_build", built.tables, INPUTS, plan=built.plan))
    plan = release.plan_release(tmp_path / "wh_whole")
    clusters = dedup.cluster(
        tables.publishable(second), tables.previous_id_map(plan.previous_papers, plan.previous_lineage)
    )
    whole = tables.build_tables(second, clusters)
    whole["papers"], plan = plan.stamp(whole["papers"])
    ids.append(release.publish(tmp_path / "wh_whole", whole, INPUTS, plan=plan))
    from_build, from_whole = ids
    assert from_build.release == from_whole.release == 2
    assert from_build.release_id == from_whole.release_id
    assert from_build.changes == from_whole.changes
    assert from_build.changes["added"] > 0 and from_build.changes["changed"] == 1
    for rel in ("changelog.parquet", "CHANGELOG.md"):
        assert (from_build.path / rel).read_bytes() == (from_whole.path / rel).read_bytes()


def test_the_publish_reads_only_the_partitions_that_changed(frame, tmp_path, monkeypatch):
    """An unchanged partition's file is the parent's, linked without reading the build's rows."""
    from pipeline.release import build_files as build_mod

    files = _work_files(frame, tmp_path / "work")
    first = dataset.build_dataset(files, tmp_path / "wh", tmp_path / "b1")
    assert release.publish(tmp_path / "wh", first.tables, INPUTS, plan=first.plan).release == 1
    # one listing removed: only the partitions holding its rows (or papers it was canonical for) change; the
    # first listing whose venue/year partition other listings share, so that partition stays and changes
    shared = (
        frame.group_by("venue", "year").agg(pl.col("listing").n_unique().alias("n")).filter(pl.col("n") > 1)
    )
    gone = frame.join(shared, on=["venue", "year"])["listing"].unique(maintain_order=True)[0]
    kept = [f for f in files if pl.read_parquet(f, columns=["listing"])["listing"][0] != gone]
    second = dataset.build_dataset(kept, tmp_path / "wh", tmp_path / "b2")
    before = {name: {p.rel: p.fingerprint for p in t.partitions} for name, t in first.tables.items()}
    changed = {
        p.rel
        for name, t in second.tables.items()
        for p in t.partitions
        if before[name].get(p.rel) != p.fingerprint
    }
    loaded = []
    real = build_mod._load
    monkeypatch.setattr(
        build_mod,
        "_load",
        lambda table, path, batch: loaded.append((path, batch)) or real(table, path, batch),
    )
    reread = build_mod.read_tables(tmp_path / "b2")  # its partitions load through the patched reader
    result = release.publish(tmp_path / "wh", reread, INPUTS, plan=second.plan, allow_removal=True)
    assert result.created and result.release == 2
    n_parts = sum(len(t.partitions) for t in second.tables.values())
    assert 0 < len(changed) < n_parts
    index = json.loads((tmp_path / "b2" / build_mod.TABLES_FILE).read_text())
    where = {(e["file"], e["batch"]): e["path"] for entries in index.values() for e in entries}
    assert sorted(where[(p.relative_to(tmp_path / "b2").as_posix(), b)] for p, b in loaded) == sorted(changed)
    assert release.verify(tmp_path / "wh") == []


def test_a_paper_keeps_the_title_and_authors_another_copy_gives(frame):
    """The canonical copy (chosen by its text, then the most recent year) may come from an abstracts-only
    listing: the paper then takes its title and authors from the copy that has them, and keeps the
    canonical row's venue and year. Real case: tests/data/listings/NeurIPS_2023_sample.txt (seed text, no
    titles) repeats a paper of the NeurIPS 2023 poster-session markdown (titles and authors)."""
    whole = _whole(frame)
    lineage = whole["listing_lineage"]
    pid = lineage.filter(
        pl.col("listing") == "listings/NeurIPS_2023_sample.txt", pl.col("status") == "published"
    ).join(lineage.filter(pl.col("listing").str.contains("Poster_Session1")), on="paper_id")["paper_id"][0]
    copy = frame.join(lineage.filter(pl.col("paper_id") == pid), on=["listing", "paragraph"])
    canonical = copy.filter(pl.col("status") == "published").row(0, named=True)
    donor = copy.filter(pl.col("status") == "duplicate").row(0, named=True)
    assert canonical["title"] is None and canonical["authors"] is None
    paper = whole["papers"].filter(pl.col("paper_id") == pid).row(0, named=True)
    assert paper["title"] == donor["title"] and paper["title"].startswith("[Spotlight] AbDiffuser")
    assert paper["authors"] == donor["authors"] and len(paper["authors"]) == 11
    assert (paper["venue"], paper["year"], paper["source_listing"]) == (
        canonical["venue"],
        canonical["year"],
        "listings/NeurIPS_2023_sample.txt",
    )
    # the papers whose canonical row has a title of its own keep it
    own = frame.join(lineage.filter(pl.col("status") == "published"), on=["listing", "paragraph"])
    titled = own.filter(pl.col("title").is_not_null()).select("paper_id", "title")
    assert (
        titled.join(whole["papers"], on="paper_id").filter(pl.col("title") != pl.col("title_right")).height
        == 0
    )


@pytest.mark.parametrize("batch_rows", [dataset.BATCH_ROWS, 10])
def test_partitions_with_unchanged_inputs_come_from_the_parent_and_the_release_is_the_same(
    frame, tmp_path, monkeypatch, batch_rows
):
    """A listing added to a release: the partitions it does not touch are taken from the parent release
    (pipeline.release.reuse), and the release is byte for byte the one a build of every partition gives."""
    import shutil

    monkeypatch.setattr(dataset, "BATCH_ROWS", batch_rows)
    files = _work_files(frame, tmp_path / "work")
    # the added listing: one whose venue/year partition other listings share (that partition changes)
    shared = (
        frame.group_by("venue", "year").agg(pl.col("listing").n_unique().alias("n")).filter(pl.col("n") > 1)
    )
    added = frame.join(shared, on=["venue", "year"])["listing"].unique(maintain_order=True)[0]
    first_files = [f for f in files if pl.read_parquet(f, columns=["listing"])["listing"][0] != added]
    memory = tmp_path / "partition_inputs.json"
    first = dataset.build_dataset(first_files, tmp_path / "wh", tmp_path / "b1", memory=memory)
    assert (
        first.reused == 0
        and release.publish(tmp_path / "wh", first.tables, INPUTS, plan=first.plan).release == 1
    )
    n_partitions = len(json.loads(memory.read_text()))
    shutil.copytree(tmp_path / "wh", tmp_path / "wh_full")
    # with the memory: the untouched partitions are the parent's files, listed, not built
    reused = dataset.build_dataset(files, tmp_path / "wh", tmp_path / "b2", memory=memory)
    index = json.loads((tmp_path / "b2" / "tables.json").read_text())
    from_parent = {e["path"] for t in TABLES for e in index[t] if e.get("parquet")}
    assert 0 < reused.reused < n_partitions and from_parent
    # without it: every partition built
    full = dataset.build_dataset(files, tmp_path / "wh_full", tmp_path / "b3", memory=None)
    assert full.reused == 0
    assert reused.plan.changes.equals(full.plan.changes) and reused.lineage.sort(pl.all()).equals(
        full.lineage.sort(pl.all())
    )
    assert all(reused.failures[t] is None for t in TABLES)
    for t in TABLES:
        assert [(p.rel, p.rows, p.fingerprint) for p in reused.tables[t].partitions] == [
            (p.rel, p.rows, p.fingerprint) for p in full.tables[t].partitions
        ]
        assert (
            reused.tables[t]
            .scan()
            .collect()
            .sort(pl.all())
            .equals(full.tables[t].scan().collect().sort(pl.all()))
        )
    now = dt.datetime(2026, 12, 2, tzinfo=dt.UTC)
    a = release.publish(tmp_path / "wh", reused.tables, INPUTS, plan=reused.plan, now=now, allow_removal=True)
    b = release.publish(
        tmp_path / "wh_full", full.tables, INPUTS, plan=full.plan, now=now, allow_removal=True
    )
    assert a.release == b.release == 2
    ra, rb = (release.release_dir(w, 2) for w in (tmp_path / "wh", tmp_path / "wh_full"))
    names = sorted(p.relative_to(ra).as_posix() for p in ra.rglob("*") if p.is_file())
    assert names == sorted(p.relative_to(rb).as_posix() for p in rb.rglob("*") if p.is_file())
    assert all((ra / n).read_bytes() == (rb / n).read_bytes() for n in names)
    assert release.verify(tmp_path / "wh") == []


def test_a_damaged_parent_file_is_never_reused(frame, tmp_path):
    """A parent file whose bytes no longer match its manifest: its partition is built again, not taken."""
    import shutil

    files = _work_files(frame, tmp_path / "work")
    memory = tmp_path / "partition_inputs.json"
    first = dataset.build_dataset(files[1:], tmp_path / "wh", tmp_path / "b1", memory=memory)
    release.publish(tmp_path / "wh", first.tables, INPUTS, plan=first.plan)
    shutil.copytree(tmp_path / "wh", tmp_path / "wh_damaged")
    intact = dataset.build_dataset(files, tmp_path / "wh", tmp_path / "b2", memory=memory)
    index = json.loads((tmp_path / "b2" / "tables.json").read_text())
    taken = sorted(e["path"] for e in index["paper_metrics"] if e.get("parquet"))
    assert intact.reused and taken
    # not the table's first file (its footer gives the table's schema) and a byte of the first page, not
    # the footer: damage that only the sha256 sees
    first = release.read_manifest(tmp_path / "wh" / "release=1").tables["paper_metrics"].files[0].path
    victim = tmp_path / "wh_damaged" / "release=1" / next(t for t in taken if t != first)
    data = bytearray(victim.read_bytes())
    data[8] ^= 0xFF  # same size, other bytes
    victim.write_bytes(bytes(data))
    damaged = dataset.build_dataset(files, tmp_path / "wh_damaged", tmp_path / "b3", memory=memory)
    index = json.loads((tmp_path / "b3" / "tables.json").read_text())
    assert damaged.reused == intact.reused - 1
    assert victim.relative_to(tmp_path / "wh_damaged" / "release=1").as_posix() not in {
        e["path"] for e in index["paper_metrics"] if e.get("parquet")
    }
    assert [p.fingerprint for p in damaged.tables["paper_metrics"].partitions] == [
        p.fingerprint for p in intact.tables["paper_metrics"].partitions
    ]
