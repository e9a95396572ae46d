"""One publisher at a time: an exclusive, non-blocking lock on ``<warehouse>/.publish.lock`` (the
``filelock`` library; ``flock`` on POSIX, released by the kernel when the holder dies)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import filelock

from pipeline.release.layout import LOCK_FILE, ReleaseError


class PublishInProgressError(ReleaseError):
    """Another process holds the warehouse's publish lock."""


@contextmanager
def publish_lock(warehouse: Path) -> Iterator[None]:
    """Hold the warehouse's publish lock for the ``with`` block.

    Raises PublishInProgressError at once (no waiting) when another process holds it."""
    lock = filelock.FileLock(Path(warehouse) / LOCK_FILE, timeout=0)
    try:
        lock.acquire()
    except filelock.Timeout:
        raise PublishInProgressError(
            f"publish in progress in {warehouse} (lock {lock.lock_file} held by another "
            "process); wait for it to finish, then run again"
        ) from None
    try:
        yield
    finally:
        lock.release()
