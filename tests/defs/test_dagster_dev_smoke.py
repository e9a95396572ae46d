"""Smoke test of the code location under ``dagster dev`` (what ``make dev`` starts).

Starts ``dagster dev -w workspace.yaml`` on a free 127.0.0.1 port with a temporary DAGSTER_HOME, raw folder
(one seed listing, processed by ``python -m pipeline run`` first) and warehouse; waits for ``/server_info``;
asks GraphQL for the asset keys, sensors and schedules (and that they are RUNNING without any switch);
launches a run of one ``listings`` partition through GraphQL and waits for it to succeed; then stops the
server by its PID. SIGINT/SIGTERM are reset to their defaults before exec (``dagster dev`` started from a
non-interactive shell ignores them otherwise;
../shared/notes/dagster.md §5). Bounded: every wait has a deadline, and the whole test a budget.
"""

import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from pipeline import cli
from pipeline.ingest.listings import partition_key
from tests.conftest import ROOT, SEEDS

pytestmark = [pytest.mark.integration, pytest.mark.slow]

LOCATION = "abstracts_pipeline"  # workspace.yaml location_name == [tool.dg.project] code_location_name
#: Measured here: /server_info after 8-12 s, a 2-step multiprocess run 5-15 s (notes/dagster.md §5e); the
#: test must finish in < 90 s on a fresh 2-core machine.
SERVER_DEADLINE_S = 45
RUN_DEADLINE_S = 45
TOTAL_BUDGET_S = 90
EXPECTED_ASSETS = {
    "raw_listing",
    "listing_records",
    "abstracts",
    "papers",
    "paper_urls",
    "paper_metrics",
    "listing_lineage",
    "benchmarks",
    "benchmark_results",
    "release",
}

# Resets SIGINT and SIGTERM to their defaults, then execs the command (../shared/notes/dagster.md §5).
EXEC_WITH_DEFAULT_SIGNALS = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "signal.signal(signal.SIGTERM, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])"
)

WORKSPACE_QUERY = """
{ workspaceOrError { __typename ... on Workspace { locationEntries { name
    locationOrLoadError { __typename ... on PythonError { message }
      ... on RepositoryLocation { repositories { name
        assetNodes { assetKey { path } }
        sensors { name sensorType sensorState { status } }
        schedules { name cronSchedule scheduleState { status } } } } } } } } }
"""
LAUNCH_MUTATION = """
mutation Launch($params: ExecutionParams!) { launchRun(executionParams: $params) { __typename
  ... on LaunchRunSuccess { run { runId } }
  ... on PythonError { message }
  ... on InvalidSubsetError { message }
  ... on RunConfigValidationInvalid { errors { message } } } }
"""
RUNS_QUERY = """
{ runsOrError { __typename ... on Runs { results { runId status tags { key value } } } } }
"""
RUN_QUERY = """
query Run($id: ID!) { runOrError(runId: $id) { __typename ... on Run { status } } }
"""


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _graphql(port: int, query: str, variables: dict | None = None) -> dict:
    body = json.dumps({"query": query, "variables": variables or {}}).encode()
    req = urllib.request.Request(
        f"http://127.0.0.1:{port}/graphql", data=body, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(req, timeout=30) as resp:
        out = json.loads(resp.read())
    assert "errors" not in out, out["errors"]
    return out["data"]


def _wait(predicate, deadline_s: float, budget_end: float, what: str, proc: subprocess.Popen, log):
    """Poll ``predicate`` until it returns something truthy, for at most ``deadline_s`` and never past
    ``budget_end`` (the whole test's budget); fail with the server's log otherwise."""
    end = min(time.monotonic() + deadline_s, budget_end)
    while time.monotonic() < end:
        if proc.poll() is not None:
            pytest.fail(f"dagster dev exited ({proc.returncode}) while waiting for {what}:\n{log()}")
        value = predicate()
        if value:
            return value
        time.sleep(0.5)
    pytest.fail(f"timed out waiting for {what}:\n{log()}")


def _stop(proc: subprocess.Popen) -> None:
    """SIGTERM to the PID; after 20 s, SIGKILL to the process group it leads (its webserver, daemon and
    code-server children), so nothing is left behind even when shutdown hangs."""
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


def test_dagster_dev_serves_the_location_and_runs_a_partition(project):
    started = time.monotonic()
    budget_end = started + TOTAL_BUDGET_S - 15  # leaves time to stop the server within the budget
    for extra in sorted((project / "raw").iterdir())[1:]:  # one listing keeps the daemon's own runs few
        extra.unlink()
    seed = SEEDS[0].name
    key = partition_key(seed)
    # as after `make run`: the partition exists and is processed, so the sensor has nothing to launch and
    # our run is the only one writing this partition's work files
    assert cli.run() == 0
    port = _free_port()
    log_path = project / "dagster_dev.log"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    dagster = shutil.which("dagster", path=os.path.dirname(sys.executable)) or "dagster"
    with open(log_path, "wb") as log_file:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-c",
                EXEC_WITH_DEFAULT_SIGNALS,
                dagster,
                "dev",
                "-w",
                str(ROOT / "workspace.yaml"),
                "-h",
                "127.0.0.1",
                "-p",
                str(port),
            ],
            cwd=project,
            env=env,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    log = lambda: log_path.read_text(errors="replace")[-4000:]  # noqa: E731
    try:

        def server_info():
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/server_info", timeout=2) as resp:
                    return json.loads(resp.read())
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                return None

        info = _wait(server_info, SERVER_DEADLINE_S, budget_end, "/server_info", proc, log)
        assert "dagster_webserver_version" in info
        print(f"/server_info after {time.monotonic() - started:.1f} s")

        def loaded_location():
            entries = _graphql(port, WORKSPACE_QUERY)["workspaceOrError"].get("locationEntries", [])
            loc = next((e["locationOrLoadError"] for e in entries if e["name"] == LOCATION), None)
            if loc and loc["__typename"] == "PythonError":
                pytest.fail(f"code location failed to load: {loc['message']}")
            return loc if loc and loc["__typename"] == "RepositoryLocation" else None

        location = _wait(loaded_location, SERVER_DEADLINE_S, budget_end, f"location {LOCATION}", proc, log)
        repo = location["repositories"][0]
        assert {"/".join(a["assetKey"]["path"]) for a in repo["assetNodes"]} == EXPECTED_ASSETS
        sensors = {s["name"]: s for s in repo["sensors"]}
        assert sensors["raw_listings_sensor"]["sensorState"]["status"] == "RUNNING"
        assert sensors["dataset_automation"]["sensorType"] == "AUTO_MATERIALIZE"
        assert sensors["dataset_automation"]["sensorState"]["status"] == "RUNNING"
        schedules = {s["name"]: s for s in repo["schedules"]}
        assert schedules["daily_refresh"]["cronSchedule"] == "0 3 * * *"
        assert schedules["daily_refresh"]["scheduleState"]["status"] == "RUNNING"

        params = {
            "selector": {
                "repositoryLocationName": LOCATION,
                "repositoryName": repo["name"],
                "jobName": "listing_job",
            },
            "runConfigData": {},
            "executionMetadata": {"tags": [{"key": "dagster/partition", "value": key}]},
        }
        work = project / "warehouse" / "_work" / "abstracts" / f"{key}.parquet"
        work_before = work.stat().st_mtime_ns
        launched = _graphql(port, LAUNCH_MUTATION, {"params": params})["launchRun"]
        assert launched["__typename"] == "LaunchRunSuccess", launched
        run_id = launched["run"]["runId"]
        print(f"run launched after {time.monotonic() - started:.1f} s")

        def finished():
            status = _graphql(port, RUN_QUERY, {"id": run_id})["runOrError"]["status"]
            return status if status in ("SUCCESS", "FAILURE", "CANCELED") else None

        assert _wait(finished, RUN_DEADLINE_S, budget_end, f"run {run_id}", proc, log) == "SUCCESS", log()
        print(f"run succeeded after {time.monotonic() - started:.1f} s")
        assert work.stat().st_mtime_ns > work_before  # the run rewrote the partition's work file
        runs = _graphql(port, RUNS_QUERY)["runsOrError"]["results"]
        by_sensor = [
            r for r in runs if {"key": "dagster/sensor_name", "value": "raw_listings_sensor"} in r["tags"]
        ]
        assert by_sensor == []  # the work was current: the sensor did not redo it
    finally:
        _stop(proc)
    assert proc.returncode is not None
    print(f"stopped after {time.monotonic() - started:.1f} s")
    assert time.monotonic() - started < TOTAL_BUDGET_S
