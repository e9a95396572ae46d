"""``python -m pipeline run`` when nothing changed since the last run: decided and told in a fraction of a
second, without importing Dagster or the pipeline's steps (pipeline.cli).

A run that ends with status 0 (or 4, pipeline.cli.EXIT_QUARANTINED) leaves a *stamp* in ``DAGSTER_HOME``
(:data:`STAMP`): the raw folder's listings with their digests (pipeline.ingest.settings.scan_listings: bytes
and settings files), the release ``LATEST`` named, a signature (inode, size, modification time in ns) of the
files that release and the run's work depend on (its ``manifest.json``, ``releases.json``, every listing's
work files and sidecars), of the Dagster instance's databases (``history/runs.db``, ``history/runs/index.db``,
``dagster.yaml``), a digest of the code (every file of the ``pipeline`` and ``schemas`` packages and the
versions of the libraries of pipeline.runtime.versions.ASSETS), the ``PIPELINE_*``/``DAGSTER_*`` environment,
the summary lines it printed and the listings quarantined whole (printed again at the end, with the same exit
status).

The next run first checks the stamp (:func:`unchanged_outcome`), cheapest check first, the raw-folder scan
(which reads and hashes every listing, as the full path does) last. When every one holds, the full path would
register no partition, run no listing step, rebuild tables equal to ``LATEST``'s and publish nothing (the
content is a function of the listings, the settings files and the code: docs/execution.md, "Caching and
versions"), so the run prints exactly what that path prints and ends; no Dagster run is recorded, as the
daily schedule records none when the raw folder is unchanged. Anything else (no stamp, a listing or setting
changed, a work file touched or gone, a run of any kind recorded in the instance since, a Postgres instance,
an unfinished publish, another code or environment) takes the full path, which removes the stamp first
(:func:`forget`) and writes a new one only when it ends with status 0 or 4. So a release published by a run
whose Dagster bookkeeping failed (exit 3) is recorded by the next run, as that message promises.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from dataclasses import dataclass
from pathlib import Path

from pipeline.ingest import rawfiles, settings
from pipeline.runtime import config, versions

#: The stamp's file name in DAGSTER_HOME (``make clean`` removes it with the instance).
STAMP = ".pipeline_last_run.json"
#: Bumped when the stamp's fields change: a stamp of another format is ignored (the full path runs).
FORMAT = 2
#: The embedded SQLite instance's files that every run, partition change or materialisation writes.
INSTANCE_FILES = ("history/runs.db", "history/runs/index.db", "dagster.yaml")
#: Environment variables that do not change what a run makes or records (progress output only).
IGNORED_ENV = ("PIPELINE_PROGRESS",)


@dataclass(frozen=True)
class Unchanged:
    """What a run with nothing changed prints: the raw-folder ``scan`` (its notes are printed again),
    the ``lines`` of the summary, the last one the release's, and ``quarantined``, the ``(listing,
    reason)`` of the listings quarantined whole (pipeline.ingest.listings.quarantined_whole)."""

    scan: rawfiles.RawScan
    lines: list[str]
    quarantined: list[tuple[str, str]]


def _signature(path: Path) -> list[int] | None:
    """[inode, size, mtime in ns] of ``path``, or None when it cannot be stat'ed."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return [st.st_ino, st.st_size, st.st_mtime_ns]


def _package_dir(name: str) -> Path | None:
    """The folder of top-level package ``name`` without importing it (importing ``schemas`` loads pandera)."""
    spec = importlib.util.find_spec(name)
    locations = spec.submodule_search_locations if spec is not None else None
    return Path(next(iter(locations))) if locations else None


def code_digest() -> str:
    """sha256 (hex) of every file of the ``pipeline`` and ``schemas`` packages (path and bytes; compiled
    ``__pycache__`` files left out) and of the installed version of every library
    pipeline.runtime.versions.ASSETS names: any edit of the code, rule data included, or any upgrade of
    those libraries changes it. About 1 MB read."""
    h = hashlib.sha256()
    for name in ("pipeline", "schemas"):
        root = _package_dir(name)
        if root is None:
            h.update(f"{name}: absent\0".encode())
            continue
        for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
            h.update(f"{name}/{path.relative_to(root).as_posix()}\0".encode())
            h.update(path.read_bytes() + b"\0")
    libraries = sorted({lib for spec in versions.ASSETS.values() for lib in spec.libraries})
    h.update("\0".join(f"{lib}={versions.library_version(lib)}" for lib in libraries).encode())
    return h.hexdigest()


def _environment() -> dict[str, str]:
    return {
        k: v
        for k, v in sorted(os.environ.items())
        if k.startswith(("PIPELINE_", "DAGSTER_")) and k not in IGNORED_ENV
    }


def _stamp_path() -> Path:
    return Path(config.dagster_home_hint()) / STAMP


def _embedded() -> bool:
    from pipeline.runtime import scaleout

    return scaleout.instance_kind() == "sqlite"


def forget() -> None:
    """Remove the stamp (a run that takes the full path does, before it changes anything)."""
    try:
        _stamp_path().unlink()
    except FileNotFoundError:
        pass


def remember(
    raw: Path,
    listings: dict[str, str],
    work_files: list[Path],
    release_dir: Path,
    lines: list[str],
    quarantined: list[tuple[str, str]] | None = None,
) -> None:
    """Write the stamp after a run that ended with status 0 or 4 and closed its instance: ``listings``
    (name → digest, the scan the run synced to), the ``work_files`` of every listing (work files and
    sidecars), the folder of the release ``LATEST`` names, the summary ``lines`` printed before the
    release's and the listings ``quarantined`` whole, ``(listing, reason)``.
    Nothing is written for a Postgres instance (its databases are not files here). Raises OSError when
    DAGSTER_HOME cannot be written."""
    if not _embedded():
        return
    wh, home = config.warehouse_dir(), Path(config.dagster_home_hint())
    files = [release_dir / "manifest.json", wh / "releases.json", *work_files]
    signatures = {os.path.relpath(p, wh): _signature(p) for p in files}
    instance = {name: _signature(home / name) for name in INSTANCE_FILES}
    if None in signatures.values() or None in instance.values():
        return  # a file that should exist does not: no stamp, the next run takes the full path
    stamp = {
        "format": FORMAT,
        "raw": os.path.realpath(raw),
        "warehouse": os.path.realpath(wh),
        "environment": _environment(),
        "code": code_digest(),
        "latest": (wh / "LATEST").read_text(),
        "release_dir": str(release_dir),
        "files": signatures,
        "instance": instance,
        "listings": listings,
        "lines": lines,
        "quarantined": [list(q) for q in quarantined or []],
    }
    path = _stamp_path()
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps(stamp, sort_keys=True))
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)


def _read_stamp() -> dict | None:
    try:
        stamp = json.loads(_stamp_path().read_text())
    except (OSError, ValueError):
        return None
    return stamp if isinstance(stamp, dict) and stamp.get("format") == FORMAT else None


def _holds(stamp: dict, raw: Path) -> bool:
    """Every check of the stamp but the raw-folder scan, cheapest first."""
    wh, home = config.warehouse_dir(), Path(config.dagster_home_hint())
    if (
        stamp["raw"] != os.path.realpath(raw)
        or stamp["warehouse"] != os.path.realpath(wh)
        or stamp["environment"] != _environment()
        or not _embedded()
    ):
        return False
    if any(_signature(home / name) != sig for name, sig in stamp["instance"].items()):
        return False
    try:
        if (wh / "LATEST").read_text() != stamp["latest"]:
            return False
    except OSError:
        return False
    if any((wh / name).exists() for name in ("_staging", "_trash")) or any(wh.glob(".*.tmp")):
        return False  # an unfinished publish or prune: the full path cleans it up
    if any(_signature(wh / rel) != sig for rel, sig in stamp["files"].items()):
        return False
    return stamp["code"] == code_digest()


def unchanged_outcome(raw: Path) -> Unchanged | None:
    """What to print when nothing changed since the last successful run (module docstring), else None (the
    full path must run). Reads and hashes every listing of ``raw`` (as the full path does) only when every
    cheaper check holds. Never raises for a missing or unreadable stamp or warehouse file (None)."""
    stamp = _read_stamp()
    try:
        if stamp is None or not raw.is_dir() or not _holds(stamp, raw):
            return None
    except (KeyError, TypeError):  # a stamp without a field this code reads
        return None
    scan = settings.scan_listings(raw)
    if dict(scan.listings) != stamp["listings"]:
        return None
    n = len(scan.listings)
    number = stamp["latest"].strip()
    lines = [
        f"raw folder {raw}: {n} listings (0 new, 0 changed or made by other rules, 0 removed)",
        f"listings processed: 0 new or changed; {n} unchanged, reused",
        *stamp["lines"],
        f"release {number} unchanged: the content equals the latest release, no new release; "
        f"{stamp['release_dir']}",
    ]
    return Unchanged(scan, lines, [(str(n), str(r)) for n, r in stamp["quarantined"]])
