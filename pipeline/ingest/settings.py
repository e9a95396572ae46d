"""Settings files: what a folder or a file of ``raw/`` says about how to read its listings.

Names (TOML, read with the stdlib ``tomllib``):

- ``listing.toml`` in a folder: applies to every listing file in that folder and its subfolders;
- ``<file name>.listing.toml`` next to a file (``oral.csv.listing.toml``): applies to that file.

The file's own settings win over its folder's, a nearer folder's over a farther one's, key by key. Settings
files are not listings. Keys (all optional)::

    venue = "NeurIPS"        # canonical or alias (NIPS); wins over the header and the path
    year = 2023
    reader = "csv"           # one of pipeline.ingest.readers.READERS: skips sniffing
    encoding = "cp1252"      # strict decode with this codec
    [columns]                # CSV/TSV/JSON field -> column or key name in the file
    abstract = "Paper Abstract"
    title = "Paper Title"
    authors = "Author List"
    source_id = "Forum"
    source_status = "Decision"
    code = "Code"
    project = "Project Page"

Unknown keys and bad values raise :class:`SettingsError` (the listing is quarantined with the reason).

Settings files are read by the raw folder's rules (pipeline.ingest.rawfiles.read): a link out of ``raw/``, a
FIFO or a device is never opened, a file over :data:`MAX_SETTINGS_BYTES` is not read, and TOML nested deeper
than the parser can follow is refused; each refusal quarantines the listings it governs, with the reason
naming the settings file (one ``listing_lineage`` row per listing).
"""

from __future__ import annotations

import hashlib
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath

from pipeline.ingest import rawfiles

FOLDER_FILE = "listing.toml"
FILE_SUFFIX = ".listing.toml"
KEYS = {"venue": str, "year": int, "reader": str, "encoding": str, "columns": dict}
#: Largest settings file read, in bytes: a settings file holds a handful of keys (well under 1 KiB); 64 KiB
#: leaves room for comments and bounds what a wrong file (a listing renamed, a link) can cost.
MAX_SETTINGS_BYTES = 64 << 10

#: One settings file found for a listing: its path relative to the raw folder and its bytes, or the reason
#: (str) it was refused by pipeline.ingest.rawfiles.read.
SettingsSource = tuple[str, bytes | str]


class SettingsError(ValueError):
    """A settings file is not valid TOML or has an unknown key or a bad value; names the file."""


@dataclass(frozen=True)
class Settings:
    """Merged settings of one listing: each key ``None`` when no settings file sets it; ``sources`` the
    settings files used (relative to the raw folder), nearest last."""

    venue: str | None = None
    year: int | None = None
    reader: str | None = None
    encoding: str | None = None
    columns: dict[str, str] = field(default_factory=dict)
    sources: tuple[str, ...] = ()


def is_settings_file(name: str) -> bool:
    """True for ``listing.toml`` and ``*.listing.toml`` (they are read as settings, never as listings)."""
    base = PurePosixPath(name).name
    return base == FOLDER_FILE or base.endswith(FILE_SUFFIX)


def settings_paths(name: str) -> list[str]:
    """The settings files that may apply to listing ``name`` (relative POSIX path), farthest first."""
    p = PurePosixPath(name)
    folders = [PurePosixPath(*p.parts[:k]) for k in range(len(p.parts))]
    out = [(f / FOLDER_FILE).as_posix() for f in folders]
    return out + [p.with_name(p.name + FILE_SUFFIX).as_posix()]


def find_settings(raw_dir: Path, name: str) -> list[SettingsSource]:
    """``(relative path, bytes)`` of each settings file of :func:`settings_paths` present under ``raw_dir``
    (a folder of that name is skipped), read by pipeline.ingest.rawfiles.read with at most
    :data:`MAX_SETTINGS_BYTES`; a refused one (a link out of the raw folder, a FIFO, too large, unreadable)
    gives ``(relative path, reason)`` instead. Raises nothing for a bad entry."""
    found: list[SettingsSource] = []
    for rel in settings_paths(name):
        path = raw_dir / rel
        if not os.path.lexists(path) or (path.is_dir() and not path.is_symlink()):
            continue
        data, refused = rawfiles.read(raw_dir, rel, max_bytes=MAX_SETTINGS_BYTES)
        found.append((rel, data) if data is not None else (rel, refused or "not read"))
    return found


def fingerprint(sources: list[SettingsSource]) -> str:
    """sha256 (hex) over the settings files' paths and bytes ("" when none): a listing whose settings change
    is read again."""
    if not sources:
        return ""
    h = hashlib.sha256()
    for rel, data in sources:
        body = data if isinstance(data, bytes) else (rawfiles.REFUSED + data).encode("utf-8")
        h.update(rel.encode() + b"\0" + body + b"\0")
    return h.hexdigest()


def listing_digest(raw_dir: Path, name: str, data: bytes) -> str:
    """The digest that says whether listing ``name`` must be read again: the sha256 (hex) of its bytes, or,
    when settings files apply to it, the sha256 of that digest and :func:`fingerprint` of its settings."""
    return with_settings_digest(raw_dir, name, hashlib.sha256(data).hexdigest())


def with_settings_digest(raw_dir: Path, name: str, digest: str) -> str:
    """:func:`listing_digest` from the sha256 (hex) of the listing's bytes, ``digest``, already computed."""
    extra = fingerprint(find_settings(raw_dir, name))
    return hashlib.sha256((digest + extra).encode()).hexdigest() if extra else digest


def scan_listings(raw_dir: Path) -> rawfiles.RawScan:
    """Every entry under ``raw_dir`` (pipeline.ingest.rawfiles.scan: listing files, refused links and special
    files with their reason, hidden entries skipped and named), without the settings files: they are not
    listings, they are read with the listings they govern, and each listing's digest covers them
    (:func:`with_settings_digest`), so a changed settings file re-reads its listings. Raises what
    rawfiles.scan raises."""
    scan = rawfiles.scan(raw_dir)
    for name in [n for n in scan.listings if is_settings_file(n)]:
        del scan.listings[name]
        scan.refused.pop(name, None)
    for name, sha in scan.listings.items():
        if name not in scan.refused:
            scan.listings[name] = with_settings_digest(raw_dir, name, sha)
    return scan


def _load(rel: str, data: bytes | str) -> dict:
    """The TOML document of settings file ``rel``; SettingsError when refused, invalid or too deep."""
    if isinstance(data, str):
        raise SettingsError(f"settings file {rel}: {rawfiles.REFUSED}{data}")
    try:
        return tomllib.loads(data.decode("utf-8-sig"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as e:
        raise SettingsError(f"settings file {rel}: not valid TOML: {e}") from None
    except RecursionError:
        raise SettingsError(
            f"settings file {rel}: nested deeper than the TOML parser can follow (Python's recursion limit)"
        ) from None


def parse_settings(sources: list[SettingsSource], readers: tuple[str, ...] = ()) -> Settings:
    """Merge settings files (farthest first, as :func:`find_settings` returns them) into :class:`Settings`.

    Raises:
        SettingsError: a refused settings file (:func:`find_settings`), invalid TOML or TOML nested deeper
            than the parser's recursion limit, an unknown key, a value of the wrong type, an unknown
            ``reader`` (when ``readers`` is given) or an unknown ``[columns]`` field.
    """
    from pipeline.ingest.readers.fields import MAPPABLE

    merged: dict = {"columns": {}}
    for rel, data in sources:
        doc = _load(rel, data)
        for key, value in doc.items():
            if key not in KEYS:
                raise SettingsError(f"settings file {rel}: unknown key {key!r} (known: {sorted(KEYS)})")
            if not isinstance(value, KEYS[key]) or isinstance(value, bool):
                raise SettingsError(
                    f"settings file {rel}: {key} must be a {KEYS[key].__name__}, got {value!r}"
                )
            if key == "columns":
                assert isinstance(value, dict)  # KEYS["columns"] is dict, checked just above
                bad = [k for k, v in value.items() if k not in MAPPABLE or not isinstance(v, str)]
                if bad:
                    raise SettingsError(
                        f"settings file {rel}: [columns] {bad} unknown or not a string "
                        f"(fields: {list(MAPPABLE)})"
                    )
                merged["columns"] = {**merged["columns"], **value}
            else:
                merged[key] = value
        if readers and merged.get("reader") not in (None, *readers):
            raise SettingsError(
                f"settings file {rel}: unknown reader {merged['reader']!r} (readers: {list(readers)})"
            )
    return Settings(
        venue=merged.get("venue"),
        year=merged.get("year"),
        reader=merged.get("reader"),
        encoding=merged.get("encoding"),
        columns=merged["columns"],
        sources=tuple(rel for rel, _ in sources),
    )
