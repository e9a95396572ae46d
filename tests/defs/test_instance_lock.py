"""Two first runs at once on a fresh DAGSTER_HOME: both succeed (one waits for the other to create the
instance) and the instance stays usable. Real ``python -m pipeline run`` processes started together."""

import os
import subprocess
import sys

import pytest

pytestmark = [pytest.mark.integration, pytest.mark.slow]

TRIALS = 2


@pytest.mark.parametrize("trial", range(TRIALS))
def test_two_first_runs_at_once_share_one_fresh_instance(project, trial):
    home = project / f".dagster_home_{trial}"
    env = {**os.environ, "DAGSTER_HOME": str(home), "PIPELINE_WORKERS": "1"}
    # one warehouse each: the instance is what they share (two publishes into one warehouse are serialised by
    # the publish lock, tested with the releases)
    envs = [{**env, "PIPELINE_WAREHOUSE_DIR": str(project / f"warehouse_{trial}_{i}")} for i in range(2)]
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "pipeline", "run"],
            cwd=project,
            env=e,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for e in envs
    ]
    outs = [p.communicate(timeout=300) for p in procs]
    for p, (_out, err) in zip(procs, outs):
        assert p.returncode == 0, err[-3000:]
        assert "more than one head" not in err
    # the instance is usable afterwards: a third run opens it and finds everything done
    again = subprocess.run(
        [sys.executable, "-m", "pipeline", "run"],
        cwd=project,
        env=envs[0],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert again.returncode == 0, again.stderr[-3000:]
    assert "0 new, 0 changed" in again.stdout


def test_many_processes_opening_a_fresh_instance_at_once_all_see_a_sound_instance(tmp_path):
    """Three ``python -m pipeline run`` at once over an empty raw folder (each opens the instance, syncs the
    partitions and stops: nothing to process), on a fresh DAGSTER_HOME each trial: every one gives the
    ordinary "no listing files" answer, none a database error, and the instance works afterwards."""
    (tmp_path / "raw").mkdir()
    for trial in range(4):
        env = {
            **os.environ,
            "DAGSTER_HOME": str(tmp_path / f"home_{trial}"),
            "PIPELINE_WORKERS": "1",
            "PIPELINE_RAW_DIR": str(tmp_path / "raw"),
            "PIPELINE_WAREHOUSE_DIR": str(tmp_path / "wh"),
        }
        procs = [
            subprocess.Popen(
                [sys.executable, "-m", "pipeline", "run"],
                cwd=tmp_path,
                env=env,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
            for _ in range(3)
        ]
        for p in procs:
            out, err = p.communicate(timeout=120)
            assert p.returncode == 1 and err.strip() == "error: no listing files to process", err[-3000:]
        check = subprocess.run(
            [
                sys.executable,
                "-c",
                "import dagster as dg\nwith dg.DagsterInstance.get() as i:\n"
                "    i.add_dynamic_partitions('listings', ['a'])\n"
                "    print(i.get_dynamic_partitions('listings'), len(i.get_runs()))",
            ],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert check.returncode == 0 and check.stdout.strip() == "['a'] 0", check.stderr[-3000:]
