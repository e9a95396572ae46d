"""Charts drawn before, reused when their frame is unchanged.

A chart's PNG is a function of its frame (pipeline.card.charts.chart_frames), of the drawing code
(pipeline/card/charts.py) and of matplotlib's version alone: its bytes are deterministic (see
pipeline.card.charts). A release whose frame of a chart equals an earlier release's (the best value by
year of the largest benchmarks after a listing of another field was added, say) takes that chart's bytes
from the cache instead of drawing it again (0.1 to 0.4 s each on the 2-core machine, docs/benchmarks.md).

The cache is a folder (the publisher passes ``<warehouse>/_work/charts``) of ``<key>-<sha>.png`` files:
``key`` (:func:`chart_key`) names the inputs, ``sha`` the first 16 hex digits of the bytes' sha256, checked
on every read, so a damaged file is drawn again, never published. After each release the folder holds the
charts of that release only (:func:`store`). The publisher calls it under the publish lock: one writer.
"""

from __future__ import annotations

import hashlib
import importlib.metadata as md
import os
from functools import cache
from pathlib import Path

import polars as pl

from pipeline.card import charts

#: Hex digits of the sha256 of the bytes kept in a file name.
SHA_DIGITS = 16


@cache
def _drawing_version() -> str:
    """The drawing code and library the bytes depend on: sha256 of charts.py and matplotlib's version."""
    source = Path(charts.__file__).read_bytes()
    return hashlib.sha256(source).hexdigest() + "/matplotlib " + md.version("matplotlib")


def chart_key(name: str, frame: pl.DataFrame) -> str:
    """32 hex digits naming a chart's inputs: sha256 of the chart's file name, :func:`_drawing_version`, the
    frame's schema and its rows as JSON (polars' ``write_json``: nulls apart from empty strings, floats in
    their shortest round-trip form, so equal frames give equal text however their memory is laid out)."""
    h = hashlib.sha256()
    for part in (name, _drawing_version(), str(frame.schema), frame.write_json()):
        data = part.encode()
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()[:32]


def lookup(folder: Path | None, keys: dict[str, str]) -> dict[str, bytes]:
    """The cached bytes of each chart (file name → its :func:`chart_key`) found in ``folder`` and intact
    (its sha256 matches the file name); charts not found are left out. ``None``: no cache, nothing found."""
    found: dict[str, bytes] = {}
    if folder is None:
        return found
    for name, key in keys.items():
        for path in sorted(Path(folder).glob(f"{key}-*.png")):
            data = path.read_bytes()
            if path.stem.endswith("-" + hashlib.sha256(data).hexdigest()[:SHA_DIGITS]):
                found[name] = data
                break
    return found


def store(folder: Path | None, keys: dict[str, str], pngs: dict[str, bytes]) -> None:
    """Keep exactly the charts ``pngs`` (file name → bytes, under ``keys``' key) in ``folder``: each
    written to a temporary file and renamed, then every other file of the folder removed. An OSError
    (full disk, read-only folder) only costs the next release its reuse: it is not raised."""
    if folder is None:
        return
    folder = Path(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        keep = set()
        for name, data in pngs.items():
            path = folder / f"{keys[name]}-{hashlib.sha256(data).hexdigest()[:SHA_DIGITS]}.png"
            keep.add(path.name)
            if not path.is_file() or path.read_bytes() != data:  # absent, or damaged since
                tmp = folder / f".{path.name}.{os.getpid()}.tmp"
                tmp.write_bytes(data)
                tmp.replace(path)
        for path in folder.iterdir():
            if path.name not in keep and path.suffix == ".png":
                path.unlink(missing_ok=True)
    except OSError:
        pass
