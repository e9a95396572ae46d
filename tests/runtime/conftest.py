"""Fixtures of the runtime tests."""

import importlib
import sys

import pytest


def _rebuild_definitions() -> None:
    """Import the code location afresh when this process has imported it: its ``defs`` (the executor above
    all: ``PIPELINE_EXECUTOR``, ``PIPELINE_CELERY_BROKER``) are built from the environment when it loads and
    kept for the life of the process.

    Every module of ``pipeline.defs`` is imported again with it, not ``pipeline.definitions`` alone: a test
    that reloads one of them (tests/defs/test_versions_dagster.py reloads the assets to see new code versions)
    leaves new asset objects beside jobs and sensors that target the old ones, and a code location loaded
    from that mix is refused ("a different asset with the same key was provided")."""
    if "pipeline.definitions" not in sys.modules:
        return
    for name in [n for n in sys.modules if n == "pipeline.definitions" or n.startswith("pipeline.defs")]:
        del sys.modules[name]
    importlib.import_module("pipeline.definitions")


@pytest.fixture
def definitions_from_environment(monkeypatch):
    """The code location built from the environment the test starts with, and rebuilt after the test once
    its environment changes are undone.

    The scale-out tests set ``PIPELINE_EXECUTOR=celery`` and a broker that is stopped after them; any
    in-process import of ``pipeline.definitions`` meanwhile (``python -m pipeline run`` imports it) would
    otherwise leave a Celery executor pointing at the dead broker to every later test in the process (the
    Postgres sensor test then failed with "Retry limit exceeded while trying to reconnect to the Celery
    result store")."""
    _rebuild_definitions()
    yield
    monkeypatch.undo()  # the test's environment, before rebuilding from it
    _rebuild_definitions()
