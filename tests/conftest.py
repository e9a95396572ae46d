"""Shared fixtures: a temporary project (raw folder with the real seed listings, warehouse, DAGSTER_HOME)."""

import os
import shutil
from pathlib import Path

import pytest
from hypothesis import settings

# CI (``.ci/run`` sets CI=true): Hypothesis draws the same examples on every run, so a red CI run is
# reproducible and a green one is not luck; the examples that found bugs are pinned with ``@example`` in the
# tests themselves.
settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

ROOT = Path(__file__).resolve().parents[1]
#: The two real seed listings, as shipped in raw/ (copied here so that the tests do not depend on what a user
#: has put into raw/ since).
SEEDS = sorted((ROOT / "tests" / "data" / "seeds").glob("*.txt"))
DATA = ROOT / "tests" / "data"
#: The stage folders of tests/ (the order data moves, as in pipeline/); each test gets its folder's marker
#: (``pytest -m analyse``), registered in pyproject.toml ``[tool.pytest.ini_options] markers``.
STAGE_MARKERS = ("runtime", "ingest", "analyse", "build", "card", "release", "defs", "cli", "schemas")


def pytest_collection_modifyitems(config, items):
    """Mark each test under ``tests/<stage>/`` with ``<stage>`` (STAGE_MARKERS)."""
    tests = ROOT / "tests"
    for item in items:
        try:
            folder = item.path.relative_to(tests).parts[0]
        except ValueError:  # a test collected from outside tests/
            continue
        if folder in STAGE_MARKERS:
            item.add_marker(getattr(pytest.mark, folder))


def point_at(root: Path, mp: pytest.MonkeyPatch, files: list[Path] = SEEDS) -> Path:
    """Make ``root`` a project: ``raw/`` holding copies of ``files``, the pipeline's environment variables
    (raw folder, warehouse, ``DAGSTER_HOME``) pointing under it through ``mp``, and the cwd at it. Returns the
    raw folder."""
    raw = root / "raw"
    raw.mkdir()
    for f in files:
        shutil.copy(f, raw / f.name)
    mp.setenv("PIPELINE_RAW_DIR", str(raw))
    mp.setenv("PIPELINE_WAREHOUSE_DIR", str(root / "warehouse"))
    mp.setenv("DAGSTER_HOME", str(root / ".dagster_home"))
    for var in ("PIPELINE_KEEP_RELEASES", "PIPELINE_MAX_LISTING_BYTES", "PIPELINE_READ_BUDGET_SECONDS"):
        mp.delenv(var, raising=False)
    mp.chdir(root)
    return raw


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A temporary project root holding ``raw/`` (copies of the two seed listings), ``warehouse/`` and
    ``.dagster_home/``; the pipeline's environment variables point there and the cwd is the root."""
    point_at(tmp_path, monkeypatch)
    return tmp_path


@pytest.fixture
def cases() -> Path:
    """Folder of the failure-case listings (copied from ../shared/cases; bytes exactly as given)."""
    return DATA / "cases"
