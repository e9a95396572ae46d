"""Immutable, numbered releases of the published tables.

Layout under the warehouse folder::

    LATEST                         the current release number; replaced last (the commit point)
    releases.json                  index of committed releases: release, release_id, parent, created_at
    release=N/
      manifest.json                release, release_id, parent, created_at, code/schema version, inputs,
                                   per table: rows, columns, files (path, rows, bytes, sha256); changes
      CHANGELOG.md                 added / removed / changed paper_ids against the parent
      changelog.parquet            the same as a table: paper_id, change, columns
      <table>/venue=V/year=Y/part-0.parquet   Hive partitions; venue/year live in the path only
    _staging/                      a publish in progress (cleaned by the next publish)
    _trash/                        releases being deleted (cleaned by the next publish)
    .publish.lock                  held while publishing: one publisher at a time

One module per job (the commit protocol is stated in :mod:`~pipeline.release.publish`'s docstring). What each
decides and where its tests are: docs/design.md, "Where each rule lives"; operating and reading releases:
docs/releases.md.

A rollback (:func:`rollback`, ``python -m pipeline rollback N``: under the publish lock, verified, LATEST
replaced atomically) keeps newer releases, hidden from :func:`read_all`, and the next release gets the next
unused number with the rolled-back release as parent. :mod:`~pipeline.release.history` lists the releases,
diffs any two and shows one paper across them. Publishing content equal to the latest release (same
``release_id``) makes no new release.
"""

from pipeline.release import build_files
from pipeline.release.build_files import build_dir
from pipeline.release.conform import SchemaDriftError, conform
from pipeline.release.layout import (
    GLOBAL_TABLES,
    PARTITION_COLUMNS,
    PARTITIONED_TABLES,
    RELEASE_DIR_PREFIX,
    SORT_KEYS,
    TABLES,
    ReleaseError,
    committed_releases,
    latest_release,
    list_releases,
    read_index,
    release_dir,
)
from pipeline.release.lock import PublishInProgressError
from pipeline.release.manifest import FileEntry, Manifest, TableEntry, read_manifest
from pipeline.release.plan import (
    CHANGELOG_SCHEMA,
    HISTORY_COLUMNS,
    MAX_REMOVAL_SHARE,
    PlanOutdatedError,
    ReleasePlan,
    RemovalGuardError,
    diff_papers,
    plan_release,
)
from pipeline.release.publish import (
    PublishResult,
    ReleaseVerifyError,
    RollbackRefusedError,
    publish,
    rollback,
)
from pipeline.release.read import read_all, read_table, read_verified, table_schema
from pipeline.release.retention import prune
from pipeline.release.verify import verify, verify_all, verify_targets

__all__ = [
    "CHANGELOG_SCHEMA",
    "HISTORY_COLUMNS",
    "MAX_REMOVAL_SHARE",
    "GLOBAL_TABLES",
    "PARTITION_COLUMNS",
    "PARTITIONED_TABLES",
    "RELEASE_DIR_PREFIX",
    "SORT_KEYS",
    "TABLES",
    "FileEntry",
    "Manifest",
    "PlanOutdatedError",
    "PublishInProgressError",
    "PublishResult",
    "ReleaseError",
    "ReleasePlan",
    "ReleaseVerifyError",
    "RemovalGuardError",
    "RollbackRefusedError",
    "SchemaDriftError",
    "TableEntry",
    "build_files",
    "build_dir",
    "committed_releases",
    "conform",
    "diff_papers",
    "latest_release",
    "list_releases",
    "plan_release",
    "prune",
    "publish",
    "read_all",
    "read_index",
    "read_manifest",
    "read_table",
    "read_verified",
    "release_dir",
    "rollback",
    "table_schema",
    "verify",
    "verify_all",
    "verify_targets",
]
