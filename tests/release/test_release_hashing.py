"""Each parent file is hashed once per publish (pipeline.release.writer): files the plan read verified are
hard-linked without a second hash while their identity is unchanged, linked files are not hashed again by
the staged release's verification, and a file damaged after the plan is still never carried over."""

import collections
import importlib

import polars as pl

from pipeline import release
from pipeline.release import read, writer
from tests.release.test_release_concurrency import INPUTS, make_tables
from tests.release.test_release_safety import _flip_byte


def _count_hashes(monkeypatch) -> collections.Counter:
    counts: collections.Counter = collections.Counter()
    real = read.sha256_file

    def counted(path):
        counts[str(path)] += 1
        return real(path)

    # pipeline.release.verify the module (the package exports a function of the same name)
    for module in (writer, importlib.import_module("pipeline.release.verify"), read):
        monkeypatch.setattr(module, "sha256_file", counted)
    return counts


def _second(first):
    """Release 2's tables: new abstracts for every paper; lineage, URLs and metrics unchanged."""
    return dict(first, papers=first["papers"].with_columns(abstract=pl.col("abstract") + " edited"))


def test_each_parent_file_is_hashed_once_and_linked_files_are_not_rehashed(tmp_path, monkeypatch):
    wh = tmp_path / "wh"
    first = make_tables(1)
    release.publish(wh, first, INPUTS)
    m1 = release.read_manifest(wh / "release=1")
    counts = _count_hashes(monkeypatch)
    plan = release.plan_release(wh)  # reads the parent's papers and lineage verified
    want = {f.path for t in ("papers", "listing_lineage") for f in m1.tables[t].files}
    assert set(plan.verified) == want
    # the plan's JSON form (the tables step hands it to the release step) keeps the identities
    back = release.ReleasePlan.from_json(plan.to_json(), None, wh)
    assert back.verified == plan.verified
    r = release.publish(wh, _second(first), INPUTS, plan=plan)
    assert r.created and r.release == 2 and r.warnings == ()
    parent_files = {str(wh / "release=1" / f.path) for f in m1.table_files().values()}
    assert all(counts[p] == 1 for p in parent_files), {p: counts[p] for p in parent_files}
    lineage = m1.tables["listing_lineage"].files[0].path
    linked = wh / "release=2" / lineage
    assert linked.stat().st_ino == (wh / "release=1" / lineage).stat().st_ino
    assert counts[str(wh / "_staging" / "release=2" / lineage)] == 0  # verified by its identity
    # papers were rewritten (new abstracts): those new files were hashed when written and when verified
    new_papers = [wh / "_staging" / "release=2" / f.path for f in m1.tables["papers"].files]
    assert all(counts[str(p)] == 2 for p in new_papers)
    monkeypatch.undo()
    assert release.verify(wh, 2) == [] and release.verify(wh, 1) == []  # the full check, every byte


def test_a_verified_parent_file_damaged_after_the_plan_is_written_anew(tmp_path):
    wh = tmp_path / "wh"
    first = make_tables(1)
    release.publish(wh, first, INPUTS)
    plan = release.plan_release(wh)
    lineage = release.read_manifest(wh / "release=1").tables["listing_lineage"].files[0].path
    assert lineage in plan.verified
    _flip_byte(wh / "release=1" / lineage)  # after the plan checked it: its identity changes
    r = release.publish(wh, _second(first), INPUTS, plan=plan)
    assert r.created and any(lineage in w and "damaged" in w for w in r.warnings), r.warnings
    assert release.verify(wh, 2) == []
    assert (wh / "release=2" / lineage).stat().st_ino != (wh / "release=1" / lineage).stat().st_ino
    assert release.verify(wh, 1) == [f"{wh / 'release=1' / lineage}: sha256 differs from the manifest"]
