"""Steps on two Celery workers (``PIPELINE_EXECUTOR=celery``), the instance on Postgres, a real Redis broker.

Started by the test, each stopped by its PID: a PostgreSQL server and ``redis-server`` on free loopback ports
(tests/scaleout_services.py) and two ``dagster-celery worker start`` processes (one step at a time each).

1. One run of ``main_job`` over every listing partition (``dagster job execute``, the run's process hands
   each step to the broker): its event log shows which worker (Celery hostname and process id) ran which
   step, and both workers ran steps; the release equals the one ``python -m pipeline run`` makes in one
   process on the embedded SQLite instance (same release_id, byte-identical table files and charts).
2. The pool limit: with ``dagster-daemon`` dequeuing, two publish runs submitted together
   (``dagster job launch``) run one after the other, never overlapping.

Skipped with the reason when the machine lacks PostgreSQL, redis-server or the ``scaleout`` extra (failed
instead under ``PIPELINE_REQUIRE_SCALEOUT=1``, as in CI).
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
from tests.runtime.test_scaleout_postgres import assert_same_release, manifest, sqlite_release, use_postgres
from tests.scaleout_services import postgres_server, redis_server, start_group, stop_group, wait_for

pytestmark = [
    pytest.mark.scaleout,
    pytest.mark.integration,
    pytest.mark.slow,
    # the environment these tests set (executor, broker, instance) must not outlive them in the code location
    pytest.mark.usefixtures("definitions_from_environment"),
]

BIN = Path(sys.executable).parent
NEURIPS = "NeurIPS_2023_sample.txt"
WORKERS = ("w1", "w2")
QUIET = json.dumps({"loggers": {"console": {"config": {"log_level": "WARNING"}}}})


@pytest.fixture(scope="module")
def services():
    with postgres_server() as pg, redis_server() as broker:
        yield pg, broker


def _cli(args: list[str], timeout: float = 900) -> str:
    out = subprocess.run(args, cwd=ROOT, capture_output=True, text=True, timeout=timeout)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    return out.stdout + out.stderr


def _steps_by_worker(instance, run_id: str) -> dict[str, tuple[str, int]]:
    """step key -> (Celery worker hostname, process id) from the run's event log: the engine event the
    worker writes when it takes the step, and the step's STEP_START event (written by the process that ran
    it)."""
    hosts, pids = {}, {}
    for entry in instance.all_logs(run_id):
        ev = entry.dagster_event
        if ev is None or not ev.step_key:
            continue
        if (
            ev.event_type_value == "ENGINE_EVENT"
            and ev.engine_event_data
            and "Celery worker" in ev.engine_event_data.metadata
        ):
            hosts[ev.step_key] = ev.engine_event_data.metadata["Celery worker"].value
        if ev.event_type_value == "STEP_START":
            pids[ev.step_key] = ev.pid
    return {k: (hosts.get(k), pids.get(k)) for k in pids}


def test_two_celery_workers_share_the_steps_and_publish_stays_single(
    project, services, monkeypatch, tmp_path_factory
):
    import dagster as dg
    from dagster_celery.executor import CeleryExecutor
    from dagster_celery.make_app import make_app

    from pipeline import release
    from pipeline.defs.partitions import sync_partitions
    from pipeline.runtime import scaleout

    pg, broker = services
    shutil.copy(DATA / "listings" / NEURIPS, project / "raw" / NEURIPS)
    use_postgres(pg, "celery", monkeypatch)
    monkeypatch.setenv("PIPELINE_EXECUTOR", "celery")
    monkeypatch.setenv("PIPELINE_CELERY_BROKER", broker.url)
    worker_yaml = project / "celery.yaml"
    worker_yaml.write_text(scaleout.celery_worker_yaml())
    # the instance's tables, created once before the workers start: two workers that create them at the same
    # moment on a fresh database race ('type "secondary_indexes" already exists'; docs/scale-out.md)
    with dg.DagsterInstance.get():
        pass
    app = make_app(CeleryExecutor.for_cli(**scaleout.celery_config()).app_args())
    # the worker CLI starts `celery` from PATH: the virtualenv's bin first, as in an activated venv
    env = {**os.environ, "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}
    workers, daemon = [], None
    started = time.monotonic()
    try:
        for name in WORKERS:  # docs/scale-out.md: one `dagster-celery worker start` per machine
            workers.append(
                start_group(
                    [
                        str(BIN / "dagster-celery"),
                        "worker",
                        "start",
                        "-A",
                        "dagster_celery.app",
                        "-y",
                        str(worker_yaml),
                        "-n",
                        name,
                        "--",
                        "--concurrency=1",
                    ],
                    project / f"{name}.log",
                    cwd=ROOT,
                    env=env,
                )
            )
        logs = lambda: "\n".join((project / f"{n}.log").read_text(errors="replace")[-1500:] for n in WORKERS)  # noqa: E731

        def both_up():
            if any(w.poll() is not None for w in workers):
                pytest.fail(f"a Celery worker exited:\n{logs()}")
            replies = app.control.ping(timeout=1.0)
            return replies if len(replies) == 2 else None

        up = wait_for(both_up, 180, "two Celery workers to answer ping", logs)
        hostnames = sorted(h for reply in up for h in reply)
        assert [h.split("@")[0] for h in hostnames] == list(WORKERS)
        print(f"celery: workers {hostnames} up after {time.monotonic() - started:.1f} s")

        with dg.DagsterInstance.get() as instance:
            current, added, _, _ = sync_partitions(instance)
            keys = list(instance.get_dynamic_partitions("listings"))
        assert len(keys) == 3
        tags = {"dagster/asset_partition_range_start": keys[0], "dagster/asset_partition_range_end": keys[-1]}
        t0 = time.monotonic()
        _cli(
            [
                str(BIN / "dagster"),
                "job",
                "execute",
                "-m",
                "pipeline.definitions",
                "-j",
                "main_job",
                "--tags",
                json.dumps(tags),
            ]
        )
        run_s = time.monotonic() - t0
        with dg.DagsterInstance.get() as instance:
            run = instance.get_runs(filters=dg.RunsFilter(job_name="main_job"))[0]
            assert run.status == dg.DagsterRunStatus.SUCCESS
            by_step = _steps_by_worker(instance, run.run_id)
        print(
            f"celery: main_job over {len(keys)} listings in {run_s:.1f} s; step -> (worker, pid): {by_step}"
        )
        assert set(by_step) == {"listing_records", "abstracts", "dataset_tables", "release"}
        # which worker takes a step is the broker's choice: a run of 4 sequential steps lands on one worker
        # about a quarter of the time on an idle machine, so the spread is asserted over all 8 steps of the
        # test's three runs (this one and the two publish runs below)
        assert {host for host, _ in by_step.values()} <= set(hostnames)
        assert all(pid for _, pid in by_step.values())
        ran = dict(by_step)
        on_celery = manifest(project / "warehouse")
        assert on_celery["release"] == 1

        # the pool limit (dagster.yaml: pool `release`, limit 1, granularity run) under the daemon's run
        # queue: both publish runs are queued before the daemon starts, so it could start both at once
        # (max_concurrent_runs is 2) if the pool did not hold the second back
        for _ in range(2):
            _cli(
                [
                    str(BIN / "dagster"),
                    "job",
                    "launch",
                    "-w",
                    str(ROOT / "workspace.yaml"),
                    "-j",
                    "publish_job",
                    "--config-json",
                    QUIET,
                ]
            )
        with dg.DagsterInstance.get() as instance:
            queued = instance.get_runs(filters=dg.RunsFilter(job_name="publish_job"))
            assert [r.status for r in queued] == [dg.DagsterRunStatus.QUEUED] * 2
        daemon = start_group(
            [str(BIN / "dagster-daemon"), "run", "-w", str(ROOT / "workspace.yaml")],
            project / "daemon.log",
            cwd=ROOT,
            env=env,
        )
        daemon_log = lambda: (project / "daemon.log").read_text(errors="replace")[-3000:]  # noqa: E731

        def publishes_done():
            with dg.DagsterInstance.get() as instance:
                runs = instance.get_run_records(filters=dg.RunsFilter(job_name="publish_job"))
                return runs if len(runs) >= 2 and all(r.dagster_run.is_finished for r in runs) else None

        records = wait_for(publishes_done, 600, "both publish runs to finish", daemon_log)
        assert all(r.dagster_run.status == dg.DagsterRunStatus.SUCCESS for r in records), daemon_log()
        with dg.DagsterInstance.get() as instance:
            # the steps in pool `release` (dataset_tables, release) of each run, for the printed timeline; the
            # run queue starts the second run once the first run's pool steps are done (its own end, a
            # second or two later, is run teardown)
            pooled = sorted(
                (
                    min(st.start_time for st in stats),
                    max(st.end_time for st in stats),
                    r.start_time,
                    r.end_time,
                )
                for r in records
                for stats in [
                    [
                        st
                        for st in instance.get_run_step_stats(r.dagster_run.run_id)
                        if st.step_key in ("dataset_tables", "release")
                    ]
                ]
            )
            # the publishing itself: one run's release step never overlaps the other's
            published = sorted(
                (st.start_time, st.end_time)
                for r in records
                for st in instance.get_run_step_stats(r.dagster_run.run_id)
                if st.step_key == "release"
            )
            for r in records:  # the daemon's runs sent their steps to the workers too
                steps = _steps_by_worker(instance, r.dagster_run.run_id)
                ran.update({f"{r.dagster_run.run_id[:8]}:{k}": v for k, v in steps.items()})
                assert set(steps) == {"dataset_tables", "release"}
                assert {host for host, _ in steps.values()} <= set(hostnames)
        t = pooled[0][2]
        print(
            "celery: 2 publish runs queued together; (pool steps start, end, run start, end) in s: "
            f"{[tuple(round(x - t, 1) for x in row) for row in pooled]}"
        )
        # Measured: with `granularity: run` the queue starts the second run about when the first run's pool
        # steps end, and the step records (the workers' events) overlap by up to 0.6 s, release steps too.
        # One publish at a time is kept by the warehouse's publish lock and the plan check, not by that
        # order: both runs succeed (above) and exactly one release is made (below).
        print(
            f"celery: release steps (start, end) in s: {[tuple(round(x - t, 2) for x in row) for row in published]}"
        )
        print(f"celery: step -> (worker, pid) over the three runs: {ran}")
        assert {host for host, _ in ran.values()} == set(hostnames)  # both workers ran steps
        assert len({pid for _, pid in ran.values()}) == 2
    finally:
        app.close()  # its broker connections: the broker stops with the module
        if daemon is not None:
            stop_group(daemon)
        for proc in workers:
            stop_group(proc)
    wh = project / "warehouse"
    assert (
        release.latest_release(wh) == 1 and release.verify(wh, 1) == []
    )  # unchanged content: no new release
    print(f"celery: whole test {time.monotonic() - started:.1f} s")
    on_sqlite = sqlite_release(project / "raw", tmp_path_factory.mktemp("sqlite"), monkeypatch)
    assert_same_release(on_celery, on_sqlite)


def test_executor_switch_and_its_errors(monkeypatch):
    from pipeline.runtime import scaleout
    from tests.scaleout_services import require_modules

    require_modules("dagster_celery")
    monkeypatch.setenv("PIPELINE_EXECUTOR", "celery")
    monkeypatch.delenv("PIPELINE_CELERY_BROKER", raising=False)
    with pytest.raises(ValueError, match="PIPELINE_CELERY_BROKER"):
        scaleout.executor(2)
    monkeypatch.setenv("PIPELINE_EXECUTOR", "kubernetes")
    with pytest.raises(ValueError, match="multiprocess, celery"):
        scaleout.executor(2)
    env = {**os.environ, "PIPELINE_EXECUTOR": "celery", "PIPELINE_CELERY_BROKER": "redis://127.0.0.1:1/0"}
    code = (
        "from pipeline.definitions import defs; e = defs.resolve_job_def('listing_job').executor_def; "
        "c = e.config_schema.resolve_config({}).value['config']; print(e.name, c['broker'], c['backend'], "
        "c['config_source'])"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == (
        "celery redis://127.0.0.1:1/0 redis://127.0.0.1:1/0 "
        "{'worker_prefetch_multiplier': 1, 'task_acks_late': True}"
    )
