"""The dynamic partition set ``listings``: one partition per listing file in the raw folder (design §2)."""

from __future__ import annotations

import hashlib
from pathlib import Path
from urllib.parse import quote, unquote

import dagster as dg

listings_partitions = dg.DynamicPartitionsDefinition(name="listings")


def partition_key(listing: str) -> str:
    """Filesystem- and Dagster-safe partition key of a listing path relative to the raw folder.

    Percent-encodes everything but ASCII letters, digits, ``-``, ``_`` and ``.``, so ``/``, spaces, ``|``
    (Dagster's multi-partition separator), ``,`` and non-ASCII are encoded; ``..`` (part of Dagster's range
    separator ``...``) becomes ``.%2E``. Reversible with :func:`listing_name`.
    """
    key = quote(listing, safe="-_.")
    while ".." in key:
        key = key.replace("..", ".%2E")
    return key


def listing_name(key: str) -> str:
    """The listing path (relative to the raw folder) of a partition key."""
    return unquote(key)


def scan_raw_dir(raw_dir: Path) -> dict[str, str]:
    """Every listing file under ``raw_dir`` (recursively; hidden files and folders skipped) mapped to the
    sha256 of its bytes. Keys are paths relative to ``raw_dir`` with ``/`` separators, sorted."""
    out: dict[str, str] = {}
    if not raw_dir.is_dir():
        return out
    for path in sorted(raw_dir.rglob("*")):
        rel = path.relative_to(raw_dir)
        if path.is_file() and not any(part.startswith(".") for part in rel.parts):
            out[rel.as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out
