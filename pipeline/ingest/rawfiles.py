"""The raw folder: which entries are listing files, and reading them safely.

Rules (what is read, what is refused, what is skipped):

- Only **regular files inside the raw folder** are read. A symbolic link is followed only when its target
  (fully resolved) is a regular file inside the raw folder; a link out of it (``raw/passwd.txt ->
  /etc/passwd``), a broken link, a link to a folder, a named pipe (FIFO), a device or a socket is **refused**:
  it stays a listing (one ``listing_lineage`` row, status ``quarantined``, reason ``refused: ...``) and is
  never opened. Files are opened with ``O_NOFOLLOW | O_NONBLOCK`` and checked again with ``fstat`` after
  opening, so a file swapped for a link or a FIFO between the scan and the read is refused too, and a FIFO
  never blocks a run.
- **Any legal file name works**: names are handled as the operating system's bytes (``os.fsencode``), so a
  non-UTF-8 name is read like any other; the ``listing`` column shows it as UTF-8 with the undecodable bytes
  as ``\\xNN`` (:func:`display_name`). A file that cannot be read (permissions, gone meanwhile) is refused
  with the system's reason; one bad entry never stops the others.
- **Hidden entries** (a name starting with ``.``: ``.DS_Store``, editor swap files, ``.git/``) are skipped,
  by the convention of every file tool, and listed in :attr:`RawScan.hidden` so the user is told.
- **Nothing is skipped silently**: a folder that cannot be listed (a path over the system's limit, 4,096
  bytes on Linux; no permission) is a refused entry with the system's reason; a listing whose name holds a
  control character (a newline, an escape) is read and named in :attr:`RawScan.control_names` so the run
  warns about it in one line (names are always shown escaped).
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.runtime import config

#: Prefix of the ``decode_error`` (and so the quarantine reason) of a refused entry.
REFUSED = "refused: "


def max_listing_bytes() -> int:
    """Largest listing read, in bytes, as stored (a gzip listing's decoded size has the same cap,
    pipeline.ingest.readers.gunzip): a larger file is refused ``too_large`` with its size before it is read
    (its digest is not its bytes'). ``PIPELINE_MAX_LISTING_BYTES``, default 64 MiB
    (pipeline.runtime.config.max_listing_bytes, where the default is derived from the measured peak memory
    of a run at the limit)."""
    return config.max_listing_bytes()


@dataclass(frozen=True)
class RawScan:
    """What :func:`scan` found.

    Attributes:
        listings: relative path (``/``-separated, as the OS names it: may hold surrogate escapes) → sha256
            of the file's bytes, or for a refused entry the sha256 of ``refused: <reason>``; sorted by path.
        refused: relative path → reason, for the refused entries (also in ``listings``).
        hidden: display names (:func:`display_name`) of the hidden files and folders skipped, sorted.
        control_names: display names of the listings read whose path holds a control character, sorted.
    """

    listings: dict[str, str] = field(default_factory=dict)
    refused: dict[str, str] = field(default_factory=dict)
    hidden: list[str] = field(default_factory=list)
    control_names: list[str] = field(default_factory=list)


def display_name(name: str) -> str:
    """``name`` as valid UTF-8 text: itself when it is, else its undecodable bytes as ``\\xNN``."""
    return os.fsencode(name).decode("utf-8", "backslashreplace")


def refusal_sha256(reason: str) -> str:
    """The stand-in sha256 of a refused entry (it has no bytes read): sha256 of ``refused: <reason>``."""
    return hashlib.sha256((REFUSED + reason).encode("utf-8")).hexdigest()


def refused_records(name: str, reason: str):
    """The one row (pipeline.ingest.records.RECORD_SCHEMA) of a refused entry: paragraph 0, ``decode_error``
    ``refused: <reason>`` (quarantined downstream with that reason, like an undecodable file)."""
    from pipeline.ingest.records import unreadable_listing

    return unreadable_listing(name, refusal_sha256(reason), REFUSED + reason)


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISFIFO(mode):
        return "a named pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def _inside(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def check(raw_dir: Path, rel: str) -> tuple[str, str | None]:
    """Where to read the entry ``rel`` of ``raw_dir`` from, without opening it.

    Returns ``(path, None)`` for a regular file (``path``: the file, or a link's resolved target inside the
    raw folder), or ``(path, reason)`` when it is refused (see the module docstring).
    """
    root = os.path.realpath(raw_dir)
    path = os.path.join(root, rel)
    try:
        st = os.lstat(path)
    except OSError as e:
        return path, f"could not be read: {e.strerror}"
    if stat.S_ISLNK(st.st_mode):
        target = os.path.realpath(path)
        if not _inside(target, root):
            return path, (
                f"a symbolic link to {display_name(os.readlink(path))!r}, outside the raw folder; "
                "not read (copy the file into the raw folder instead)"
            )
        try:
            st = os.stat(target)
        except OSError:
            return path, f"a broken symbolic link (to {display_name(os.readlink(path))!r}); not read"
        if not stat.S_ISREG(st.st_mode):
            return path, f"a symbolic link to {_kind(st.st_mode)}; not read"
        return target, None
    if not stat.S_ISREG(st.st_mode):
        return path, f"{_kind(st.st_mode)}, not a regular file; not read"
    return path, None


def is_gone(raw_dir: Path, rel: str) -> bool:
    """True when the entry ``rel`` of ``raw_dir`` no longer exists (deleted since the scan); an entry that
    exists but cannot be looked at (a path over the system's limit, no permission) is not gone: :func:`read`
    refuses it with the reason."""
    try:
        os.lstat(os.path.join(raw_dir, rel))
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return False


def read(raw_dir: Path, rel: str, max_bytes: int | None = None) -> tuple[bytes | None, str | None]:
    """The bytes of the entry ``rel`` of ``raw_dir`` as ``(data, None)``, or ``(None, reason)`` when it is
    refused (:func:`check`, then ``O_NOFOLLOW | O_NONBLOCK`` open and ``fstat``: never follows a link it was
    not meant to, never blocks on a FIFO, never reads a device). With ``max_bytes``, a file larger than that
    is refused ``too_large`` with its size, before it is read. Raises nothing for a bad entry."""
    path, reason = check(raw_dir, rel)
    if reason is not None:
        return None, reason
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        if e.errno == errno.ELOOP:
            return None, "became a symbolic link while being read; not read"
        return None, f"could not be read: {e.strerror}"
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return None, f"{_kind(st.st_mode)}, not a regular file; not read"
        if max_bytes is not None and st.st_size > max_bytes:
            return None, f"too_large: {st.st_size} bytes, over the limit of {max_bytes}; not read"
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read() if max_bytes is None else f.read(max_bytes + 1)
        if max_bytes is not None and len(data) > max_bytes:
            return None, f"too_large: over the limit of {max_bytes} bytes (grew while read); not read"
        return data, None
    except OSError as e:
        return None, f"could not be read: {e.strerror}"
    finally:
        os.close(fd)


def scan(raw_dir: Path) -> RawScan:
    """Every entry under ``raw_dir`` (recursively, links to folders not followed): listing files with the
    sha256 of their bytes, refused entries with their reason, hidden entries skipped (see the module
    docstring). An empty result when ``raw_dir`` is not a folder."""
    out = RawScan()
    if not os.path.isdir(raw_dir):
        return out
    root = os.path.realpath(raw_dir)
    found: dict[str, str] = {}
    limit = max_listing_bytes()

    def unlisted(error: OSError) -> None:  # a folder os.walk cannot list: refused, never skipped
        rel = os.path.relpath(str(error.filename), root).replace(os.sep, "/")
        # the reason read() gives, so that reading the entry later refuses it with the same digest
        reason = read(raw_dir, rel, max_bytes=limit)[1]
        reason = reason or f"a folder that could not be listed: {error.strerror}"
        out.refused[rel] = reason
        found[rel] = refusal_sha256(reason)

    for folder, dirs, files in os.walk(root, followlinks=False, onerror=unlisted):
        rel_folder = os.path.relpath(folder, root)
        prefix = "" if rel_folder == "." else rel_folder.replace(os.sep, "/") + "/"
        for d in list(dirs):
            if d.startswith("."):
                out.hidden.append(display_name(prefix + d + "/"))
                dirs.remove(d)
            elif os.path.islink(os.path.join(folder, d)):
                dirs.remove(d)
                files.append(d)  # a link to a folder: an entry of its own (refused by check)
        for name in files:
            rel = prefix + name
            if name.startswith("."):
                out.hidden.append(display_name(rel))
                continue
            data, reason = read(raw_dir, rel, max_bytes=limit)
            if any(ord(c) < 32 or ord(c) == 127 for c in rel):
                out.control_names.append(display_name(rel))
            if reason is None:
                assert data is not None  # read() gives exactly one of data and reason
                found[rel] = hashlib.sha256(data).hexdigest()
            else:
                out.refused[rel] = reason
                found[rel] = refusal_sha256(reason)
    out.listings.update(sorted(found.items(), key=lambda kv: os.fsencode(kv[0])))
    out.hidden.sort()
    out.control_names.sort()
    return out


#: At most this many files are named in the run's closing summary of files quarantined whole.
MAX_QUARANTINED_SHOWN = 20


def quarantine_summary(files: list[tuple[str, str]], shown: int = MAX_QUARANTINED_SHOWN) -> list[str]:
    """The run's closing lines about the listings quarantined whole, ``(listing, reason)``
    (pipeline.ingest.listings.quarantined_whole): none when there are none; else a ``warning:`` line
    counting them, then one indented line ``'<listing>': <reason>`` per file for the first ``shown`` (the
    name quoted as Python writes it, so control characters show escaped; the reason on one line), then how
    many more there are."""
    if not files:
        return []
    n = len(files)
    them = "them" if n != 1 else "it"
    lines = [
        f"warning: {n} listing file{'s' * (n != 1)} quarantined whole, nothing of {them} published "
        f"(listing_lineage rows with paragraph 0); fix or remove {them} and run again:"
    ]
    for name, reason in files[:shown]:
        lines.append(f"  {name!r}: {' '.join(reason.split())}")
    if n > shown:
        lines.append(f"  ... and {n - shown} more (listing_lineage)")
    return lines
