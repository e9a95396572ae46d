"""What the Dagster UI shows about each asset explains itself: every column of every asset's column schema has
a description, and no description (asset, column or check) cites a document outside the repository; after a
real run each published table's ``path`` is its folder in the release, not an internal work file."""

import dagster as dg
import pytest

from pipeline import cli
from pipeline.definitions import defs

#: Text that points outside the repository (the shared design notes, the issue tracker, its sections).
OUTSIDE = ("../shared", "issue ", "design §")
TABLES = ("papers", "paper_urls", "paper_metrics", "listing_lineage", "benchmarks", "benchmark_results")


def _specs(tables_only: bool = True):
    """(name, spec) of every asset; with ``tables_only`` only those that write a table (the external
    ``raw_listing`` asset stands for the raw files and has no column schema)."""
    for key in defs.resolve_all_asset_keys():
        assets_def = defs.resolve_assets_def(key)
        if assets_def.is_materializable or not tables_only:
            yield key.to_user_string(), assets_def.specs_by_key[key]


def test_every_column_of_every_asset_has_a_description():
    seen = 0
    for name, spec in _specs():
        columns = spec.metadata["dagster/column_schema"].columns
        for column in columns:
            assert column.description and column.description.strip(), f"{name}.{column.name}"
            seen += 1
    assert seen >= 100  # 7 assets: 17 + 26 record/abstract columns, the four tables, the changelog (114)


def test_no_description_cites_a_document_outside_the_repository():
    texts = []
    for name, spec in _specs(tables_only=False):
        texts.append((name, spec.description or ""))
        schema = spec.metadata.get("dagster/column_schema")
        texts += [(f"{name}.{c.name}", c.description or "") for c in (schema.columns if schema else [])]
    for check in defs.resolve_asset_graph().asset_check_keys:
        spec = defs.resolve_assets_def(check.asset_key).get_spec_for_check_key(check)
        texts.append((f"check {check.name}", spec.description or ""))
    assert len(texts) > 80
    bad = [(where, text) for where, text in texts for word in OUTSIDE if word in text]
    assert bad == []


@pytest.mark.integration
def test_published_tables_point_at_their_release_folder(project):
    # one listing: its per-listing steps record their table metadata too (a run over a range does not)
    (project / "raw" / "003_73385858203932a9.txt").unlink()
    assert cli.run() == 0
    release_dir = project / "warehouse" / "release=1"
    with dg.DagsterInstance.get() as instance:
        for asset in ("listing_records", "abstracts"):
            meta = instance.fetch_materializations(dg.AssetKey(asset), limit=1).records[0]
            columns = meta.asset_materialization.metadata["dagster/column_schema"].schema.columns
            assert len(columns) >= 17 and all(c.description for c in columns), asset
        release = instance.fetch_materializations(dg.AssetKey("release"), limit=1).records[0]
        assert release.asset_materialization.metadata["path"].value == str(release_dir)
        for table in TABLES:
            observed = instance.fetch_observations(dg.AssetKey(table), limit=1).records[0]
            path = observed.asset_observation.metadata["path"].value
            assert path == str(release_dir / table)
            assert sorted(p.name for p in (release_dir / table).rglob("*.parquet")) == ["part-0.parquet"]
            built = instance.fetch_materializations(dg.AssetKey(table), limit=1).records[0]
            meta = built.asset_materialization.metadata
            assert "_work" not in str(meta.get("path", ""))  # the work file is not what users read
            columns = meta["dagster/column_schema"].schema.columns
            assert columns and all(c.description for c in columns), table
