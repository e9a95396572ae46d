"""``manifest.json``, the description of one release, as a typed value with one reader and one writer.

A manifest holds: release number, release_id (content digest), parent, created_at (ISO-8601, UTC),
code and schema version, the input listings (listing, sha256), the changelog counts (added, removed,
changed), the content fingerprint, per table its rows, partitioning, columns (name, dtype) and files, and
the other files of the release (changelog, dataset card, charts). Each file entry: path (relative to the
release folder), rows (None for non-table files), bytes, sha256 and, for table files, the fingerprint of
its rows. The manifest is written last into the staged release, so a folder with one is complete.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

from pipeline.release.layout import MANIFEST_FILE, ReleaseError


@dataclass(frozen=True)
class FileEntry:
    """One file of a release: ``path`` relative to the release folder, ``rows`` (None: not a table file),
    ``bytes``, ``sha256`` (hex) and, for table files, ``fingerprint`` (sha256 hex of its rows)."""

    path: str
    rows: int | None
    bytes: int
    sha256: str
    fingerprint: str | None = None

    def to_dict(self) -> dict:
        d = {"path": self.path, "rows": self.rows, "bytes": self.bytes, "sha256": self.sha256}
        if self.fingerprint is not None:
            d["fingerprint"] = self.fingerprint
        return d

    @classmethod
    def from_dict(cls, d: dict) -> FileEntry:
        return cls(d["path"], d["rows"], d["bytes"], d["sha256"], d.get("fingerprint"))


@dataclass(frozen=True)
class TableEntry:
    """One table of a release: ``rows``, ``partitioning`` (Hive columns, in path order), ``columns``
    (``(name, dtype)`` pairs, the polars dtype as text, Hive columns included) and its ``files``."""

    rows: int
    partitioning: tuple[str, ...]
    columns: tuple[tuple[str, str], ...]
    files: tuple[FileEntry, ...]

    @property
    def column_names(self) -> list[str]:
        return [name for name, _ in self.columns]

    @property
    def data_columns(self) -> list[str]:
        """The columns stored inside the files (the Hive columns live in the paths only)."""
        return [name for name, _ in self.columns if name not in self.partitioning]

    def to_dict(self) -> dict:
        return {
            "rows": self.rows,
            "partitioning": list(self.partitioning),
            "columns": [{"name": n, "dtype": t} for n, t in self.columns],
            "files": [f.to_dict() for f in self.files],
        }

    @classmethod
    def from_dict(cls, d: dict) -> TableEntry:
        return cls(
            d["rows"],
            tuple(d["partitioning"]),
            tuple((c["name"], c["dtype"]) for c in d["columns"]),
            tuple(FileEntry.from_dict(f) for f in d["files"]),
        )


@dataclass(frozen=True)
class Manifest:
    """The contents of one release's ``manifest.json`` (see the module docstring)."""

    release: int
    release_id: str
    parent: int | None
    created_at: str
    code_version: str
    schema_version: int
    inputs: tuple[dict, ...]
    changes: dict
    content_fingerprint: str
    tables: dict[str, TableEntry]
    files: tuple[FileEntry, ...] = field(default=())

    def table_files(self) -> dict[str, FileEntry]:
        """Every table file by its path."""
        return {f.path: f for t in self.tables.values() for f in t.files}

    def to_dict(self) -> dict:
        """The JSON object written to ``manifest.json`` (keys in a fixed order)."""
        return {
            "release": self.release,
            "release_id": self.release_id,
            "parent": self.parent,
            "created_at": self.created_at,
            "code_version": self.code_version,
            "schema_version": self.schema_version,
            "inputs": list(self.inputs),
            "changes": dict(self.changes),
            "content_fingerprint": self.content_fingerprint,
            "tables": {name: t.to_dict() for name, t in self.tables.items()},
            "files": [f.to_dict() for f in self.files],
        }

    @classmethod
    def from_dict(cls, d: dict) -> Manifest:
        return cls(
            d["release"],
            d["release_id"],
            d["parent"],
            d["created_at"],
            d["code_version"],
            d["schema_version"],
            tuple(d["inputs"]),
            d["changes"],
            d.get("content_fingerprint", ""),
            {name: TableEntry.from_dict(t) for name, t in d["tables"].items()},
            tuple(FileEntry.from_dict(f) for f in d.get("files", [])),
        )


def read_manifest(root: Path) -> Manifest:
    """Read ``<root>/manifest.json`` (``root``: a release folder, staged or published).

    Raises ReleaseError naming the file when it is missing, not JSON, or lacks a field."""
    path = Path(root) / MANIFEST_FILE
    try:
        return Manifest.from_dict(json.loads(path.read_text(encoding="utf-8")))
    except FileNotFoundError:
        raise ReleaseError(
            f"{path} is missing: {root} is not a complete release. Run "
            "`python -m pipeline verify --all`, and roll back to an intact release (`python -m pipeline "
            "rollback N`)."
        ) from None
    except (ValueError, KeyError, TypeError) as err:
        raise ReleaseError(
            f"{path} is damaged ({type(err).__name__}: {err}). Restore the release folder from "
            "a backup, or roll back to an intact release (`python -m pipeline rollback N`; `python -m "
            "pipeline verify --all` shows which are intact)."
        ) from None


def write_manifest(root: Path, manifest: Manifest) -> Path:
    """Write ``manifest`` as ``<root>/manifest.json`` (indented, UTF-8, trailing newline); returns the
    path."""
    path = Path(root) / MANIFEST_FILE
    path.write_text(json.dumps(manifest.to_dict(), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return path
