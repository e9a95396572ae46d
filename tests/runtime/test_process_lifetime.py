"""No process outlives its run: ``kill -9`` of ``python -m pipeline run`` takes its warm helpers and
multiprocessing's resource tracker with it (real processes, a real SIGKILL)."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from pipeline.runtime import parallel

pytestmark = [pytest.mark.integration, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def _role(pid: int) -> str:
    try:
        cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return "gone"
    return "tracker" if b"resource_tracker" in cmd else "helper" if b"spawn_main" in cmd else "other"


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


def _wait_gone(pids: list[int], seconds: float) -> list[int]:
    """The processes of ``pids`` still alive after ``seconds``; those are then killed (by pid), so a failing
    test leaves nothing behind either."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(_alive(p) for p in pids):
        time.sleep(0.1)
    left = [p for p in pids if _alive(p)]
    for p in left:
        os.kill(p, signal.SIGKILL)
    return left


def _start_run(project: Path) -> subprocess.Popen:
    env = {**os.environ, "PIPELINE_WORKERS": "3"}
    return subprocess.Popen(
        [sys.executable, "-m", "pipeline", "run"],
        cwd=project,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def test_kill_9_of_a_run_leaves_no_helper_behind(project):
    for when in (0.3, 2.5):  # while the helpers warm up, and mid-run (Dagster open, listings being analysed)
        proc = _start_run(project)
        kids: set[int] = set()
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and not {"helper", "tracker"} <= {_role(k) for k in kids}:
            kids |= set(_children(proc.pid))
            time.sleep(0.05)
        end = time.monotonic() + when
        while time.monotonic() < end:
            kids |= set(_children(proc.pid))
            time.sleep(0.05)
        assert proc.poll() is None and {"helper", "tracker"} <= {_role(k) for k in kids}, kids
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        assert _wait_gone(sorted(kids), 10 * parallel.WATCHDOG_SECONDS + 5) == []


def test_helpers_of_an_own_pool_end_with_their_parent(tmp_path):
    """A pool made with spawn_pool (the records step's own pool under ``dagster dev``) ends with the process
    that made it, here a short script killed with SIGKILL while its helpers idle."""
    script = tmp_path / "owner.py"
    script.write_text(
        "import time\nfrom pipeline.runtime import parallel\nif __name__ == '__main__':\n"
        "    pool = parallel.spawn_pool(2)\n    print(pool.submit(sum, [1, 2]).result(), flush=True)\n"
        "    time.sleep(60)\n"
    )
    proc = subprocess.Popen([sys.executable, str(script)], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert proc.stdout.readline().strip() == "3"
    kids = _children(proc.pid)
    assert kids
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert _wait_gone(kids, 10 * parallel.WATCHDOG_SECONDS + 5) == []
