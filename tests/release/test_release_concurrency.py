"""Releases under crashes and concurrency, with real processes.

(a) a publisher killed with SIGKILL at each step of a publish (and at random moments) leaves the previous
release readable and LATEST unchanged, and the next publish cleans up and succeeds; (b) two publishers
started together give two consecutive releases or one release and a "publish in progress" error, never a
mixed folder; (c) a reader looping over LATEST while releases are published never sees a mixed release.

Every release of generation ``g`` has ``BASE + g * STEP`` papers whose abstracts all say ``gen g tag T``,
and as many lineage rows, so a mixed or half-written read is detectable.
"""

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time

import duckdb
import polars as pl
import pytest

from pipeline import release
from tests.conftest import ROOT

pytestmark = [pytest.mark.integration, pytest.mark.slow]

BASE, STEP = 10_000, 1_000
VENUES = ["ICML", "NeurIPS", "ICLR", "ACL"]
INPUTS = [{"listing": "a.txt", "sha256": "0" * 64}]
#: The steps of a publish at which a child stops and waits to be killed (the release package's own calls):
#: writing table files, fsync, the rename into place, the index write, the LATEST write (the commit point).
KILL_POINTS = [
    "write:papers",
    "write:paper_metrics",
    "fsync",
    "rename",
    "replace:releases.json",
    "replace:LATEST",
]


def make_tables(gen: int, tag: str = "A") -> dict[str, pl.DataFrame]:
    n = BASE + gen * STEP
    ids = [f"p{i:016x}" for i in range(n)]
    venue = [VENUES[i % 4] for i in range(n)]
    year = [2020 + i % 5 for i in range(n)]
    papers = pl.DataFrame(
        {
            "paper_id": ids,
            "venue": venue,
            "year": year,
            "abstract": [f"gen {gen} tag {tag} paper {i}" for i in range(n)],
        }
    )
    metrics = pl.DataFrame(
        {
            "paper_id": ids[: gen + 1],
            "venue": venue[: gen + 1],
            "year": year[: gen + 1],
            "value": [float(gen)] * (gen + 1),
            "start": [0] * (gen + 1),
            "end": [1] * (gen + 1),
            "kind": ["score"] * (gen + 1),
            "value_text": [str(gen)] * (gen + 1),
        }
    )
    urls = pl.DataFrame(
        {
            "paper_id": ids[:1],
            "venue": venue[:1],
            "year": year[:1],
            "url": [f"https://x/{gen}"],
            "start": [0],
            "end": [1],
        }
    )
    lineage = pl.DataFrame(
        {
            "listing": [f"gen{gen}.txt"] * n,
            "venue": venue,
            "year": year,
            "paragraph": list(range(1, n + 1)),
            "paper_id": ids,
        }
    )
    return {"papers": papers, "paper_urls": urls, "paper_metrics": metrics, "listing_lineage": lineage}


_PAUSED = threading.Lock()


def _pause(label: str) -> None:
    """Print ``AT <label>``, then wait to be killed, or until the file named by env CONTINUE_FILE exists.

    Partition files are written by several threads: only the first to arrive prints (one whole line), the
    others wait without printing, so the parent reads exactly ``AT <label>``."""
    if _PAUSED.acquire(blocking=False):
        print(f"AT {label}", flush=True)
    go = os.environ.get("CONTINUE_FILE")
    deadline = time.monotonic() + 600
    while time.monotonic() < deadline and not (go and os.path.exists(go)):
        time.sleep(0.01)


def pause_at(kill_at: str) -> None:
    """Make this process stop (print ``AT <step>``, then sleep until killed) right before the publish step
    ``kill_at``: ``write:<table>``, ``fsync``, ``rename``, ``replace:<file name>`` (an atomic write of
    releases.json or LATEST) or ``prune`` (right after the first release folder was renamed into the trash).
    The real functions run otherwise."""
    from pathlib import Path

    from pipeline.release import layout, writer

    def stop_before(name, fn):
        def wrapped(*args, **kwargs):
            if name == "write":
                label = f"write:{args[0].rel.split('/')[0]}"
            elif name == "replace":
                label = f"replace:{Path(args[0]).name}"
            else:
                label = name
            if label == kill_at:
                _pause(label)
            return fn(*args, **kwargs)

        return wrapped

    writer.write_partition = stop_before("write", writer.write_partition)
    writer.fsync_tree = stop_before("fsync", writer.fsync_tree)
    layout.write_atomic = stop_before("replace", layout.write_atomic)
    real_rename = os.rename

    def rename(src, dst, *a, **kw):
        if kill_at == "rename" and Path(src).parent.name == "_staging":
            _pause("rename")
        real_rename(src, dst, *a, **kw)
        if kill_at == "prune" and Path(dst).parent.name == "_trash":
            _pause("prune")

    os.rename = rename


def child() -> None:
    """Entry point of the publisher subprocesses: ``argv = warehouse gens tag`` and env KILL_AT / GO_FILE."""
    wh, gens, tag = sys.argv[1], [int(g) for g in sys.argv[2].split(",")], sys.argv[3]
    kill_at = os.environ.get("KILL_AT")
    if kill_at:
        pause_at(kill_at)
    prepared = {g: make_tables(g, tag) for g in gens}
    if os.environ.get("GO_FILE"):
        print("READY", flush=True)
        while not os.path.exists(os.environ["GO_FILE"]):
            time.sleep(0.001)
    print("START", flush=True)
    for g in gens:
        try:
            r = release.publish(
                wh, prepared[g], INPUTS, keep_last=int(os.environ.get("KEEP_LAST", "0")) or None
            )
            print(json.dumps({"gen": g, "release": r.release, "created": r.created}), flush=True)
        except release.ReleaseError as e:
            print(json.dumps({"gen": g, "error": str(e), "kind": type(e).__name__}), flush=True)


def _spawn(wh, gens, tag="A", **env) -> subprocess.Popen:
    code = "from tests.release.test_release_concurrency import child; child()"
    return subprocess.Popen(
        [sys.executable, "-c", code, str(wh), ",".join(map(str, gens)), tag],
        cwd=ROOT,
        env={**os.environ, **env},
        stdout=subprocess.PIPE,
        text=True,
    )


def _check_release(wh, number: int, tag: str | None = None) -> int:
    """Release ``number`` is intact and holds exactly one generation of one publisher; returns that gen."""
    assert release.verify(wh, number) == []
    papers = release.read_table(wh, "papers", number)
    lineage = release.read_table(wh, "listing_lineage", number)
    gens = set(papers["abstract"].str.extract(r"^gen (\d+)").cast(pl.Int64))
    tags = set(papers["abstract"].str.extract(r" tag (\w+) "))
    assert len(gens) == 1 and len(tags) == 1, (number, gens, tags)
    gen = gens.pop()
    assert papers.height == lineage.height == BASE + gen * STEP
    assert set(lineage["listing"]) == {f"gen{gen}.txt"}
    if tag is not None:
        assert tags == {tag}
    return gen


def test_kill_9_at_every_step_keeps_the_previous_release(tmp_path):
    children = {}
    for point in KILL_POINTS:
        wh = tmp_path / point.replace(":", "_")
        release.publish(wh, make_tables(1), INPUTS)
        children[point] = (wh, _spawn(wh, [2], KILL_AT=point))
    for point, (wh, proc) in children.items():
        assert proc.stdout.readline().strip() == "START"
        assert proc.stdout.readline().strip() == f"AT {point}"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        assert proc.returncode == -signal.SIGKILL
        # readers: LATEST unchanged, release 1 intact, the all-releases read sees release 1 only
        assert (wh / "LATEST").read_text() == "1", point
        assert _check_release(wh, 1) == 1
        assert set(release.read_all(wh, "papers")["release"]) == {1}
        if point.startswith("replace:"):  # renamed into place but never committed: invisible to readers
            assert (wh / "release=2").exists() and release.committed_releases(wh) == [1]
        # the next publish cleans up and succeeds; a release already in the index (killed right before
        # LATEST) is kept like a rolled-back-over one, so the new release is 3 there
        indexed = point == "replace:LATEST"
        r = release.publish(wh, make_tables(3), INPUTS)
        assert (r.release, r.created) == (3 if indexed else 2, True), point
        assert not (wh / "_staging").exists() and not list(wh.glob(".LATEST.*"))
        assert release.list_releases(wh, complete=False) == ([1, 2, 3] if indexed else [1, 2])
        assert [e["release"] for e in release.read_index(wh)] == release.list_releases(wh)
        assert _check_release(wh, r.release) == 3


def test_kill_9_at_random_moments(tmp_path):
    rng = random.Random(5)
    for attempt in range(2):
        wh = tmp_path / f"w{attempt}"
        release.publish(wh, make_tables(1), INPUTS)
        proc = _spawn(wh, [2])
        assert proc.stdout.readline().strip() == "START"
        time.sleep(rng.uniform(0.0, 0.4))
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(timeout=30)
        latest = int((wh / "LATEST").read_text())
        assert latest in (1, 2)  # killed before or after the commit point, never in between
        assert _check_release(wh, latest) == latest
        r = release.publish(wh, make_tables(4), INPUTS)
        # latest + 2 when the kill fell between the index write and LATEST (that release is kept)
        assert r.release in (latest + 1, latest + 2) and _check_release(wh, r.release) == 4
        assert release.list_releases(wh, complete=False) == list(range(1, r.release + 1))


def test_two_publishers_started_together(tmp_path):
    outcomes = set()
    for attempt in range(2):
        wh = tmp_path / f"w{attempt}"
        go = tmp_path / f"go{attempt}"
        procs = {tag: _spawn(wh, [1 + attempt], tag, GO_FILE=str(go)) for tag in ("A", "B")}
        assert [p.stdout.readline().strip() for p in procs.values()] == ["READY", "READY"]
        go.touch()  # both are waiting for it, tables built: they call publish within a millisecond
        results = {}
        for tag, proc in procs.items():
            out, _ = proc.communicate(timeout=120)
            assert proc.returncode == 0, out
            results[tag] = json.loads(out.strip().splitlines()[-1])
        errors = [t for t, r in results.items() if "error" in r]
        made = sorted((r["release"], t) for t, r in results.items() if "release" in r)
        assert all("publish in progress" in results[t]["error"] for t in errors)
        if errors:
            assert len(made) == 1 and made[0][0] == 1
            outcomes.add("one release, one clear error")
        else:
            # the lock serialised them: the second saw the first's release as its parent
            assert [n for n, _ in made] == [1, 2]
            outcomes.add("two consecutive releases")
        assert release.list_releases(wh, complete=False) == [n for n, _ in made]
        for n, tag in made:
            assert _check_release(wh, n, tag) == 1 + attempt
        assert not (wh / "_staging").exists()
    assert outcomes <= {"one release, one clear error", "two consecutive releases"}


def test_reader_looping_over_latest_never_sees_a_mixed_release(tmp_path):
    wh = tmp_path / "wh"
    release.publish(wh, make_tables(0), INPUTS)
    proc = _spawn(wh, [1, 2, 3, 4, 5])
    assert proc.stdout.readline().strip() == "START"
    reads, seen = 0, set()
    while proc.poll() is None or reads == 0:
        latest = (wh / "LATEST").read_text().strip()
        glob = f"{wh}/release={latest}"
        if reads % 2:
            papers = pl.read_parquet(f"{glob}/papers/", hive_partitioning=True)
            lineage = pl.read_parquet(f"{glob}/listing_lineage/", hive_partitioning=True)
            abstracts, n_lineage = papers["abstract"], lineage.height
        else:
            abstracts = pl.Series(
                [
                    r[0]
                    for r in duckdb.sql(
                        f"SELECT abstract FROM read_parquet('{glob}/papers/**/*.parquet', hive_partitioning=true)"
                    ).fetchall()
                ]
            )
            n_lineage = duckdb.sql(
                f"SELECT count(*) FROM read_parquet('{glob}/listing_lineage/**/*.parquet')"
            ).fetchall()[0][0]
        gens = set(abstracts.str.extract(r"^gen (\d+)").cast(pl.Int64))
        assert len(gens) == 1, f"mixed release {latest}: generations {gens}"
        gen = gens.pop()
        assert len(abstracts) == n_lineage == BASE + gen * STEP, f"half-written release {latest}"
        assert gen == int(latest) - 1  # generation g is release g + 1
        seen.add(gen)
        reads += 1
    assert proc.wait() == 0
    assert (wh / "LATEST").read_text() == "6"
    assert reads >= 10 and len(seen) >= 3, (reads, seen)  # the reader really overlapped the publishes
