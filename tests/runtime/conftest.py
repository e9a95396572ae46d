"""Fixtures of the runtime tests."""

import importlib
import sys

import pytest


def _rebuild_definitions() -> None:
    """Re-import ``pipeline.definitions`` when this process has imported it: its ``defs`` (the executor
    above all: ``PIPELINE_EXECUTOR``, ``PIPELINE_CELERY_BROKER``) are built from the environment at import
    time and kept for the life of the process."""
    module = sys.modules.get("pipeline.definitions")
    if module is not None:
        importlib.reload(module)


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
