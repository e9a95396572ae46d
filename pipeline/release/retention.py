"""Deleting releases and the debris of crashed runs, without ever showing a half-deleted release.

A release is deleted by renaming its folder into ``_trash/`` first (one atomic rename: readers see it
whole or not at all), then dropping it from ``releases.json``, then deleting the trash. The next publish
finishes whatever a killed one left: ``_staging/``, ``_trash/``, temporary files of dead processes, and
``release=N`` folders that were renamed into place but never entered the index.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from pipeline.release.layout import (
    STAGING_DIR,
    TRASH_DIR,
    latest_release,
    list_releases,
    read_index,
    release_dir,
    write_index,
)

#: Temporary files written through a rename: ``.<name>.<pid>.tmp`` (LATEST, releases.json) and
#: ``.<name>.<pid>.<8 hex>.tmp`` (the pipeline's work files). A file is removed only when every reading
#: of its name gives a pid that is not running.
TEMP_FILE_PATTERNS = (re.compile(r"^\..+\.(\d+)\.[0-9a-f]{8}\.tmp$"), re.compile(r"^\..+\.(\d+)\.tmp$"))
#: Folders under the warehouse whose temporary files are swept (the pipeline's work files).
WORK_DIR = "_work"


def process_alive(pid: int) -> bool:
    """True when a process ``pid`` runs on this host (this one included; one of another user counts as
    running). A pid reused since looks alive: callers keep what it might own, the safe side."""
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def remove_release(warehouse: Path, number: int) -> None:
    """Delete release ``number``: rename it into ``_trash/`` (gone for readers at once), then delete it."""
    trash = Path(warehouse) / TRASH_DIR
    trash.mkdir(exist_ok=True)
    target = trash / f"{release_dir(warehouse, number).name}.{os.getpid()}"
    os.rename(release_dir(warehouse, number), target)
    shutil.rmtree(target)


def clean_debris(warehouse: Path, index: list[dict]) -> tuple[list[str], list[dict]]:
    """Remove what crashed publishes and steps left (call under the publish lock).

    ``index``: the current releases.json entries. A ``release=N`` folder neither in it nor named by LATEST
    was renamed into place by a publish that died before the index was written, and is deleted (only when
    an index exists: a warehouse without one keeps every folder). A release found in ``_trash/`` (a prune
    killed midway) is deleted and dropped from the index. Returns what was removed (paths) and the index
    as it is now."""
    warehouse = Path(warehouse)
    removed = []
    trashed = (
        {
            int(m.group(1))
            for p in (warehouse / TRASH_DIR).glob("*")
            if (m := re.match(r"^release=(\d+)\.\d+$", p.name))
        }
        if (warehouse / TRASH_DIR).is_dir()
        else set()
    )
    latest = latest_release(warehouse)
    if trashed - {latest} and any(e["release"] in trashed for e in index):
        index = [e for e in index if e["release"] not in trashed or e["release"] == latest]
        write_index(warehouse, index)
    for name in (STAGING_DIR, TRASH_DIR):
        if (warehouse / name).exists():
            shutil.rmtree(warehouse / name, ignore_errors=True)
            removed.append(str(warehouse / name))
    tmps = [p for p in warehouse.glob(".*.tmp")]
    if (warehouse / WORK_DIR).is_dir():
        tmps += [p for p in (warehouse / WORK_DIR).rglob(".*.tmp")]
    for p in tmps:
        pids = [int(m.group(1)) for m in (pat.match(p.name) for pat in TEMP_FILE_PATTERNS) if m]
        if pids and not any(process_alive(pid) for pid in pids):
            p.unlink(missing_ok=True)
            removed.append(str(p))
    if index:
        committed = {e["release"] for e in index} | {latest}
        for n in list_releases(warehouse, complete=False):
            if n not in committed:
                remove_release(warehouse, n)
                removed.append(str(release_dir(warehouse, n)))
    return removed, index


def prune(warehouse: Path, keep_last: int) -> list[int]:
    """Delete all but the newest ``keep_last`` releases; never the one LATEST names. Each is renamed into
    ``_trash/`` first, then dropped from releases.json, then deleted. Returns the deleted numbers."""
    latest = latest_release(warehouse)
    releases = list_releases(warehouse)
    doomed = [n for n in releases[:-keep_last] if n != latest] if keep_last > 0 else []
    if not doomed:
        return []
    trash = Path(warehouse) / TRASH_DIR
    trash.mkdir(exist_ok=True)
    for n in doomed:
        os.rename(release_dir(warehouse, n), trash / f"{release_dir(warehouse, n).name}.{os.getpid()}")
    index = read_index(warehouse)
    if index:
        write_index(warehouse, [e for e in index if e["release"] not in doomed])
    shutil.rmtree(trash, ignore_errors=True)
    return doomed
