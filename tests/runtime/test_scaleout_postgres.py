"""Dagster's instance on a real PostgreSQL server (``PIPELINE_INSTANCE=postgres``, ``DAGSTER_PG_URL``).

A throw-away server (``initdb`` + ``pg_ctl`` in a temporary folder on a free port, stopped by its PID; see
tests/scaleout_services.py) holds the run, event-log and schedule storage. On it:

1. the raw-folder sensor's tick (resolved as the daemon does), one run per listing with the multiprocess
   executor (every step in its own process, each connecting to Postgres itself), then the automation's
   publish; the release must equal the one the embedded SQLite instance makes from the same raw folder
   (same release_id, byte-identical table files and charts);
2. two first runs (``python -m pipeline run``) started at once on a fresh database: both finish (or one
   reports the publish already in progress), the schema is complete, and a third run works.

Skipped with the reason when the machine lacks PostgreSQL or the ``scaleout`` extra (failed instead under
``PIPELINE_REQUIRE_SCALEOUT=1``, as in CI).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import DATA, ROOT
from tests.scaleout_services import postgres_server

pytestmark = [
    pytest.mark.scaleout,
    pytest.mark.integration,
    pytest.mark.slow,
    # the environment these tests set (executor, broker, instance) must not outlive them in the code location
    pytest.mark.usefixtures("definitions_from_environment"),
]

QUIET = {"loggers": {"console": {"config": {"log_level": "WARNING"}}}}
NEURIPS = "NeurIPS_2023_sample.txt"


@pytest.fixture(scope="module")
def pg():
    with postgres_server() as server:
        yield server


def use_postgres(pg, database: str, monkeypatch) -> str:
    """Create ``database`` and point this process (and its children) at it; write dagster.yaml (the tables
    are left to the first run)."""
    from pipeline.runtime import config

    url = pg.create_database(database)
    monkeypatch.setenv("PIPELINE_INSTANCE", "postgres")
    monkeypatch.setenv("DAGSTER_PG_URL", url)
    config.ensure_dagster_home(create_instance=False)
    return url


def recon_job(name: str):
    """The job as the daemon and the step processes load it: from the module ``pipeline.definitions``."""
    from dagster._core.definitions.reconstruct import ReconstructableRepository

    repo = ReconstructableRepository.for_module("pipeline.definitions", "defs", working_directory=str(ROOT))
    return repo.get_reconstructable_job(name)


def manifest(warehouse: Path) -> dict:
    from pipeline import release

    return json.loads(
        (release.release_dir(warehouse, release.latest_release(warehouse)) / "manifest.json").read_text()
    )


def assert_same_release(a: dict, b: dict) -> None:
    """Same release_id, inputs, rows and sha256 of every table file and chart."""
    assert a["release_id"] == b["release_id"]
    assert a["inputs"] == b["inputs"]
    assert set(a["tables"]) == set(b["tables"])
    for table, entry in b["tables"].items():
        assert a["tables"][table]["rows"] == entry["rows"], table
        assert [(f["path"], f["sha256"]) for f in a["tables"][table]["files"]] == [
            (f["path"], f["sha256"]) for f in entry["files"]
        ], table
    charts = lambda m: {f["path"]: f["sha256"] for f in m["files"] if f["path"].startswith("charts/")}  # noqa: E731
    assert charts(a) and charts(a) == charts(b)


def sqlite_release(raw: Path, root: Path, monkeypatch) -> dict:
    """``python -m pipeline run`` (in this process) on the embedded SQLite instance over a copy of ``raw``."""
    from pipeline import cli

    shutil.copytree(raw, root / "raw")
    monkeypatch.delenv("PIPELINE_INSTANCE", raising=False)
    monkeypatch.delenv("DAGSTER_PG_URL", raising=False)
    monkeypatch.setenv("PIPELINE_RAW_DIR", str(root / "raw"))
    monkeypatch.setenv("PIPELINE_WAREHOUSE_DIR", str(root / "warehouse"))
    monkeypatch.setenv("DAGSTER_HOME", str(root / ".dagster_home"))
    assert cli.run() == 0
    assert "storage:" not in (root / ".dagster_home" / "dagster.yaml").read_text()
    return manifest(root / "warehouse")


def test_switch_writes_postgres_storage_and_names_a_missing_url(tmp_path, monkeypatch):
    import yaml

    from pipeline.runtime import config

    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("PIPELINE_INSTANCE", "postgres")
    monkeypatch.delenv("DAGSTER_PG_URL", raising=False)
    with pytest.raises(ValueError, match="DAGSTER_PG_URL"):
        config.ensure_dagster_home(create_instance=False)
    monkeypatch.setenv("DAGSTER_PG_URL", "mysql://h/db")
    with pytest.raises(ValueError, match="must look like"):
        config.ensure_dagster_home(create_instance=False)
    monkeypatch.setenv("DAGSTER_PG_URL", "postgresql://u:secret@db.example:5433/dagster")
    with pytest.raises(ValueError, match=r"postgresql\+psycopg2://u:\*\*\*@db.example:5433/dagster"):
        config.ensure_dagster_home(create_instance=False)
    monkeypatch.setenv("DAGSTER_PG_URL", "postgresql+psycopg2://u:secret@db.example:5433/dagster")
    text = (config.ensure_dagster_home(create_instance=False) / "dagster.yaml").read_text()
    assert "secret" not in text  # the file names the variable; the password stays in the environment
    settings = yaml.safe_load(text)
    assert settings["storage"] == {"postgres": {"postgres_url": {"env": "DAGSTER_PG_URL"}}}
    assert settings["concurrency"]["pools"] == {"granularity": "run", "default_limit": 1}
    monkeypatch.setenv("PIPELINE_INSTANCE", "sqlite")  # switching back rewrites our file without storage
    assert "storage" not in yaml.safe_load(
        (config.ensure_dagster_home(create_instance=False) / "dagster.yaml").read_text()
    )


def test_sensor_runs_and_automation_publish_on_postgres_equal_the_sqlite_release(
    project, pg, monkeypatch, tmp_path_factory
):
    import dagster as dg
    from dagster_postgres import PostgresEventLogStorage, PostgresRunStorage, PostgresScheduleStorage

    from pipeline import release
    from pipeline.definitions import defs
    from pipeline.defs.automation import DATASET_KEYS, LISTING_KEYS, raw_listings_sensor

    shutil.copy(DATA / "listings" / NEURIPS, project / "raw" / NEURIPS)
    use_postgres(pg, "sensor_runs", monkeypatch)
    started = time.monotonic()
    with dg.DagsterInstance.get() as instance:
        assert isinstance(instance.run_storage, PostgresRunStorage)
        assert isinstance(instance.event_log_storage, PostgresEventLogStorage)
        assert isinstance(instance.schedule_storage, PostgresScheduleStorage)
        automation = dg.evaluate_automation_conditions(
            defs=defs, instance=instance
        )  # ticking before the runs
        ctx = dg.build_sensor_context(instance=instance, instance_ref=instance.get_ref(), definitions=defs)
        tick = raw_listings_sensor.evaluate_tick(ctx)
        for req in tick.dynamic_partitions_requests:  # applied as the daemon does
            instance.add_dynamic_partitions(req.partitions_def_name, list(req.partition_keys))
        assert len(tick.run_requests) == 3
        listing_job = recon_job("listing_job")
        for run in tick.run_requests:
            assert list(run.asset_selection) == LISTING_KEYS
            result = dg.execute_job(listing_job, instance, run_config=QUIET, tags=run.tags)
            assert result.success, run.partition_key
            # the multiprocess executor: every step ran in a process of its own, not in this one
            step_pids = {e.pid for e in result.all_events if e.event_type_value == "STEP_START"}
            assert len(step_pids) == 2 and os.getpid() not in step_pids
        automation = dg.evaluate_automation_conditions(defs=defs, instance=instance, cursor=automation.cursor)
        requested = {k for k in defs.resolve_all_asset_keys() if automation.get_num_requested(k)}
        assert requested == set(DATASET_KEYS)
        publish = dg.execute_job(
            recon_job("publish_job"),
            instance,
            run_config=QUIET,
            tags={"dagster/automation_condition": "true"},
        )
        assert publish.success
        runs = instance.get_runs()
        assert len(runs) == 4 and {r.status for r in runs} == {dg.DagsterRunStatus.SUCCESS}
        assert sorted(instance.get_dynamic_partitions("listings")) == sorted(
            r.partition_key for r in tick.run_requests
        )
    print(
        f"postgres: sensor tick, 3 listing runs and the publish (multiprocess) in {time.monotonic() - started:.1f} s"
    )
    on_postgres = manifest(project / "warehouse")
    assert on_postgres["release"] == 1 and release.verify(project / "warehouse", 1) == []
    on_sqlite = sqlite_release(project / "raw", tmp_path_factory.mktemp("sqlite"), monkeypatch)
    assert_same_release(on_postgres, on_sqlite)


#: Imports first, then waits for the go file, then ``python -m pipeline run``: both first runs open the
#: fresh database (creating Dagster's tables) within a few milliseconds of each other.
RACE = (
    "import os, sys, time\n"
    "from pipeline import cli\n"
    "from pipeline.runtime import parallel\n"
    "import dagster\n"
    "from pipeline import definitions\n"
    "print('READY', flush=True)\n"
    "while not os.path.exists(os.environ['GO_FILE']): time.sleep(0.001)\n"
    "sys.exit(cli.main(['run']))\n"
)


def _tables(url: str) -> set[str]:
    import psycopg2

    with psycopg2.connect(url.replace("+psycopg2", "")) as conn, conn.cursor() as cur:
        cur.execute("SELECT table_name FROM information_schema.tables WHERE table_schema = 'public'")
        return {r[0] for r in cur.fetchall()}


def test_two_first_runs_at_once_leave_a_fresh_postgres_instance_usable(project, pg, monkeypatch, tmp_path):
    import dagster as dg

    from pipeline import cli, release

    url = use_postgres(pg, "two_first_runs", monkeypatch)
    assert _tables(url) == set()  # fresh: Dagster creates its tables on first use
    go = tmp_path / "go"
    env = {**os.environ, "GO_FILE": str(go), "PIPELINE_WORKERS": "1"}
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", RACE],
            cwd=project,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for _ in range(2)
    ]
    assert [p.stdout.readline().strip() for p in procs] == ["READY", "READY"]
    go.touch()
    outs = []
    for p in procs:
        out, _ = p.communicate(timeout=900)
        outs.append((p.returncode, out))
    print("\n".join(f"exit {code}:\n{out[-1500:]}" for code, out in outs))
    for code, out in outs:
        # each run either publishes/finds the release, or is told another publish holds the warehouse lock
        assert code == 0 or (code == 1 and "publish in progress" in out.lower()), out[-3000:]
        assert "Traceback" not in out or code == 1, out[-3000:]
    assert any(code == 0 for code, _ in outs)
    # the schema is complete: the same tables a single first use creates
    reference = pg.create_database("reference_schema")
    monkeypatch.setenv("DAGSTER_PG_URL", reference)
    with dg.DagsterInstance.get():
        pass
    assert _tables(url) == _tables(reference)
    monkeypatch.setenv("DAGSTER_PG_URL", url)
    # usable: a third run finds everything done, the runs of the two are recorded with a final status
    assert cli.run() == 0
    with dg.DagsterInstance.get() as instance:
        runs = instance.get_runs()
        assert runs and all(
            r.status in (dg.DagsterRunStatus.SUCCESS, dg.DagsterRunStatus.FAILURE) for r in runs
        )
        assert sorted(instance.get_dynamic_partitions("listings")) == sorted(
            p.name for p in (project / "raw").iterdir()
        )
    wh = project / "warehouse"
    assert release.latest_release(wh) == 1 and release.verify(wh, 1) == []
