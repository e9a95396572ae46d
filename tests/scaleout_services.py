"""Real local servers for the scale-out tests: a PostgreSQL server (``initdb`` + ``pg_ctl`` in a temporary
folder on a free loopback port) and a Redis broker (``redis-server`` on a free loopback port), each stopped
by its PID, and the reason to skip when a machine lacks what they need.

A machine without the Debian packages or the ``scaleout`` extra skips these tests with the reason (shown by
``pytest -ra``); with ``PIPELINE_REQUIRE_SCALEOUT=1`` (set by ``.ci/run``) a missing piece fails instead.
"""

from __future__ import annotations

import importlib
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

import pytest

#: Where Debian's postgresql package puts initdb and pg_ctl (not on PATH): /usr/lib/postgresql/<major>/bin.
DEBIAN_PG_ROOT = Path("/usr/lib/postgresql")
#: The unprivileged user the server runs as when the tests run as root (initdb refuses root); the Debian
#: package creates it.
PG_SYSTEM_USER = "postgres"
#: Role created by initdb (trust authentication on 127.0.0.1 only).
PG_ROLE = "pipeline"
STOP_DEADLINE_S = 30


def require(what: str, ok: bool, how: str) -> None:
    """Skip (or fail, under PIPELINE_REQUIRE_SCALEOUT=1) when ``ok`` is false, naming what is missing and how
    to get it."""
    if ok:
        return
    reason = f"scale-out test needs {what}: {how}"
    if os.environ.get("PIPELINE_REQUIRE_SCALEOUT") == "1":
        pytest.fail(reason + " (PIPELINE_REQUIRE_SCALEOUT=1: must not be skipped)")
    pytest.skip(reason)


def require_modules(*modules: str) -> None:
    missing = []
    for m in modules:
        try:
            importlib.import_module(m)
        except ImportError:
            missing.append(m)
    require(f"the Python packages {', '.join(missing)}", not missing, "pip install -e '.[scaleout]'")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pg_bin() -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``: on PATH, else the newest Debian major version."""
    found = shutil.which("initdb")
    if found:
        return Path(found).parent
    versions = sorted(
        DEBIAN_PG_ROOT.glob("*/bin/initdb"),
        key=lambda p: int(p.parent.parent.name) if p.parent.parent.name.isdigit() else 0,
    )
    return versions[-1].parent if versions else None


def _stop_pid(pid: int, sig: int) -> None:
    """Send ``sig`` to ``pid`` and wait until it is gone (SIGKILL after :data:`STOP_DEADLINE_S`)."""
    try:
        os.kill(pid, sig)
    except ProcessLookupError:
        return
    end = time.monotonic() + STOP_DEADLINE_S
    while time.monotonic() < end:
        if not _alive(pid):
            return
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (an exited child not yet reaped, state Z, counts as gone)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


@dataclass
class Postgres:
    port: int
    pid: int
    folder: Path

    def url(self, database: str) -> str:
        return f"postgresql+psycopg2://{PG_ROLE}@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """Create an empty database; returns its URL."""
        import psycopg2

        conn = psycopg2.connect(host="127.0.0.1", port=self.port, user=PG_ROLE, dbname="postgres")
        try:
            conn.autocommit = True
            with conn.cursor() as cur:
                cur.execute(f'CREATE DATABASE "{name}"')
        finally:
            conn.close()
        return self.url(name)

    def log(self) -> str:
        path = self.folder / "server.log"
        return path.read_text(errors="replace")[-3000:] if path.exists() else ""


@contextmanager
def postgres_server():
    """A fresh PostgreSQL cluster in a temporary folder, listening on 127.0.0.1 on a free port (fsync off:
    a throw-away test cluster), stopped by its PID (SIGINT: fast shutdown) and deleted afterwards. As root,
    initdb and the server run as :data:`PG_SYSTEM_USER` (the folder is owned by it)."""
    require_modules("psycopg2", "dagster_postgres")
    bindir = pg_bin()
    require("PostgreSQL's initdb and pg_ctl", bindir is not None, "apt-get install -y postgresql")
    as_user: dict = {}
    folder = Path(tempfile.mkdtemp(prefix="pipeline-pg-"))
    if os.geteuid() == 0:
        try:
            pw = pwd.getpwnam(PG_SYSTEM_USER)
        except KeyError:
            shutil.rmtree(folder)
            require(
                f"an unprivileged user {PG_SYSTEM_USER!r} to run PostgreSQL as (initdb refuses root)",
                False,
                "apt-get install -y postgresql (creates it)",
            )
        os.chown(folder, pw.pw_uid, pw.pw_gid)
        as_user = {
            "user": pw.pw_uid,
            "group": pw.pw_gid,
            "extra_groups": [],
            "env": {**os.environ, "HOME": str(folder), "USER": PG_SYSTEM_USER},
        }
    data = folder / "data"
    port = free_port()
    run = lambda args: subprocess.run(
        args,
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=120,  # noqa: E731
        **as_user,
    )
    out = run(
        [
            str(bindir / "initdb"),
            "-D",
            str(data),
            "-U",
            PG_ROLE,
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        ]
    )
    assert out.returncode == 0, out.stdout + out.stderr
    options = (
        f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off "
        "-c full_page_writes=off -c max_connections=200"
    )
    out = run(
        [
            str(bindir / "pg_ctl"),
            "-D",
            str(data),
            "-l",
            str(folder / "server.log"),
            "-o",
            options,
            "-w",
            "-t",
            "60",
            "start",
        ]
    )
    assert out.returncode == 0, out.stdout + out.stderr + (folder / "server.log").read_text(errors="replace")
    pid = int((data / "postmaster.pid").read_text().split()[0])
    try:
        yield Postgres(port, pid, folder)
    finally:
        _stop_pid(pid, signal.SIGINT)
        shutil.rmtree(folder, ignore_errors=True)


@dataclass
class Redis:
    port: int
    pid: int

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"


@contextmanager
def redis_server():
    """``redis-server`` on 127.0.0.1 and a free port, nothing saved to disk, stopped by its PID (SIGTERM)."""
    require_modules("redis", "celery", "dagster_celery")
    exe = shutil.which("redis-server")
    require("redis-server", exe is not None, "apt-get install -y redis-server")
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="pipeline-redis-"))
    proc = subprocess.Popen(
        [
            exe,
            "--port",
            str(port),
            "--bind",
            "127.0.0.1",
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(folder),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        import redis

        client = redis.Redis(host="127.0.0.1", port=port)
        end = time.monotonic() + 20
        while True:
            try:
                client.ping()
                break
            except redis.exceptions.ConnectionError:
                if time.monotonic() > end or proc.poll() is not None:
                    raise
                time.sleep(0.1)
        yield Redis(port, proc.pid)
    finally:
        _stop_pid(proc.pid, signal.SIGTERM)
        proc.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)


# Resets SIGINT and SIGTERM to their defaults, then execs the command: a Dagster CLI started from a
# non-interactive shell ignores them otherwise (see tests/defs/test_dagster_dev_smoke.py).
EXEC_WITH_DEFAULT_SIGNALS = (
    "import os, signal, sys; signal.signal(signal.SIGINT, signal.SIG_DFL); "
    "signal.signal(signal.SIGTERM, signal.SIG_DFL); os.execvp(sys.argv[1], sys.argv[1:])"
)


def start_group(args: list[str], log: Path, cwd: Path, env: dict | None = None) -> subprocess.Popen:
    """Start ``args`` as the leader of a new process group (its children join it), output to ``log``."""
    with open(log, "wb") as out:
        return subprocess.Popen(
            [sys.executable, "-c", EXEC_WITH_DEFAULT_SIGNALS, *args],
            cwd=cwd,
            env=env or dict(os.environ),
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )


def stop_group(proc: subprocess.Popen, timeout: float = 20) -> None:
    """SIGTERM to the group led by ``proc`` (its PID); SIGKILL to the group after ``timeout`` s."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
    try:  # helpers left in the group (e.g. a worker's pool process) go too
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def wait_for(predicate, deadline_s: float, what: str, log=lambda: ""):
    """Poll ``predicate`` every 0.5 s until it returns something truthy; fail after ``deadline_s``."""
    end = time.monotonic() + deadline_s
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.5)
    pytest.fail(f"timed out after {deadline_s} s waiting for {what}\n{log()}")
