"""A rule set's outputs may change only with its RULES_VERSION: the probes of tests/versions_golden.py on
real inputs against tests/data/versions/golden.json (regenerate: `make versions-golden`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pipeline.analyse import cleaning
from pipeline.runtime import versions
from tests import versions_golden as vg

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def golden() -> dict:
    assert vg.GOLDEN.exists(), f"{vg.GOLDEN} is missing: run `{vg.REGENERATE}`"
    return vg.read_golden()


@pytest.mark.parametrize("name", list(vg.PROBES))
def test_outputs_follow_rules_versions(name, golden):
    now = vg.observe(name)
    why = vg.compare(name, golden["probes"].get(name), now)
    if why and golden.get("libraries") != vg.libraries():
        moved = {
            k: f"{golden['libraries'].get(k)} -> {v}"
            for k, v in vg.libraries().items()
            if golden["libraries"].get(k) != v
        }
        why += f" [note: library versions differ from the golden file's: {moved}; if only they changed "
        why += f"the outputs, `{vg.REGENERATE}` is the fix]"
    assert why is None, why


def test_probe_inputs_are_real_and_many():
    raws = vg.raw_abstracts()
    assert len(raws) >= 300
    assert len(vg.listing_files()) >= 20
    # the listing excerpts of every reader shape are read, not only the gold texts
    assert {"readers/openreview_export.csv", "readers/iclr2017.json", "readers/arxiv_feed.jsonl"} <= set(
        vg.listing_files()
    )
    assert sum(k.startswith("readers/") for k in raws) >= 10


@pytest.fixture
def fresh_probes():
    """Probe caches cleared before and after (a test below changes a rule)."""
    caches = (vg.clean_abstracts, vg.abstracts_frame, vg.built_tables, versions.rules_version)
    for c in caches:
        c.cache_clear()
    yield
    for c in caches:
        c.cache_clear()


def test_behaviour_change_without_bump_fails(golden, fresh_probes, monkeypatch):
    real = cleaning.clean_abstract
    monkeypatch.setattr(cleaning, "clean_abstract", lambda raw: real(raw).replace(" the ", " thee "))
    why = vg.compare("cleaning", golden["probes"]["cleaning"], vg.observe("cleaning"))
    assert why is not None
    assert "changed behaviour" in why and "pipeline.analyse.cleaning.RULES_VERSION" in why
    assert vg.REGENERATE in why


def test_bump_without_regenerating_fails(golden, fresh_probes, monkeypatch):
    monkeypatch.setattr(cleaning, "RULES_VERSION", str(int(cleaning.RULES_VERSION) + 1))
    why = vg.compare("language", golden["probes"]["language"], vg.observe("language"))
    assert why is not None and "moved" in why and "'cleaning'" in why and vg.REGENERATE in why


def test_same_outputs_pass(golden):
    """Equal outputs under equal versions pass whatever the source looks like (behaviour, not bytes)."""
    assert vg.compare("urls", golden["probes"]["urls"], vg.observe("urls")) is None


def test_every_rule_file_is_versioned_once():
    """Every module whose rules shape an output belongs to exactly one rule set of pipeline.runtime.versions."""
    covered = [f for rs in versions.RULE_SETS.values() for f in rs.covers]
    assert len(covered) == len(set(covered))
    rule_files = [
        *(p.relative_to(REPO).as_posix() for p in (REPO / "pipeline/ingest/readers").glob("*.py")),
        *(
            p.relative_to(REPO).as_posix()
            for p in (REPO / "pipeline/analyse").rglob("*.py")
            if p.name != "__init__.py" or p.parent.name != "analyse"
        ),
        *(p.relative_to(REPO).as_posix() for p in (REPO / "schemas").glob("*.py")),
        *(f"pipeline/{m}.py" for m in ("ingest/settings", "ingest/records", "build/dedup", "build/tables")),
    ]
    assert sorted(set(rule_files) - set(covered)) == []
    assert all((REPO / f).is_file() for f in covered)


def test_code_versions_follow_rules_versions(monkeypatch):
    before = {a: versions.code_version(a) for a in versions.ASSETS}
    versions.rules_version.cache_clear()
    versions.code_version.cache_clear()
    versions.pipeline_version.cache_clear()
    import pipeline.build.tables

    monkeypatch.setattr(pipeline.build.tables, "RULES_VERSION", "999")
    try:
        after = {a: versions.code_version(a) for a in versions.ASSETS}
        assert {a for a in after if after[a] != before[a]} == {"dataset_tables"}
        assert versions.parts("dataset_tables")["rules/tables"] == "999"
    finally:
        monkeypatch.undo()
        versions.rules_version.cache_clear()
        versions.code_version.cache_clear()
        versions.pipeline_version.cache_clear()
    assert {a: versions.code_version(a) for a in versions.ASSETS} == before
