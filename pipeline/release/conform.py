"""Schema evolution: a column keeps one dtype in every release of a table.

Every release of a table reads together (``release=*``, see :func:`pipeline.release.read.read_all`). The
pinned dtype of a column is the data contract's (``schemas.MODELS``) when it has one, else the dtype it had
in the parent release; a lossless cast (Int64 -> Float64) is applied, a lossy one or a dropped column
raises :class:`SchemaDriftError`. A new column is allowed and reads as null in older releases.
"""

from __future__ import annotations

import polars as pl

from pipeline.release.layout import PARTITION_COLUMNS, ReleaseError
from schemas import MODELS


class SchemaDriftError(ReleaseError, ValueError):
    """A table's column would change dtype (lossy cast) or disappear against the contract or parent
    release."""


def _contract_dtypes(table: str) -> dict[str, pl.DataType]:
    model = MODELS.get(table)
    return {c: col.dtype.type for c, col in model.to_schema().columns.items()} if model is not None else {}


def target_dtypes(table: str, pinned: dict[str, pl.DataType]) -> dict[str, pl.DataType]:
    """The dtype :func:`conform` casts each column of ``table`` to: the contract's (schemas.MODELS) first,
    else ``pinned``'s (the parent release's) when not Null."""
    return {**{c: t for c, t in pinned.items() if t != pl.Null}, **_contract_dtypes(table)}


def conform(df: pl.DataFrame, table: str, pinned: dict[str, pl.DataType]) -> pl.DataFrame:
    """Cast ``df``'s columns to their pinned dtypes (:func:`target_dtypes`). Raises SchemaDriftError on a
    lossy cast or a pinned column that is missing."""
    target = target_dtypes(table, pinned)
    missing = sorted(c for c in pinned if c not in df.columns and c not in PARTITION_COLUMNS)
    if missing:
        raise SchemaDriftError(
            f"{table}: columns {missing} of the parent release are missing; releases only "
            "add columns (bump the dataset, or keep them as nulls)"
        )
    casts = []
    for c, dtype in df.schema.items():
        want = target.get(c)
        if want is None or dtype == want:
            continue
        try:
            cast = df[c].cast(want, strict=True)
            lossless = dtype == pl.Null or cast.cast(dtype, strict=True).equals(df[c])
        except (pl.exceptions.InvalidOperationError, pl.exceptions.ComputeError):
            lossless = False
        if not lossless:
            raise SchemaDriftError(f"{table}.{c}: {dtype} cannot become the pinned {want} without loss")
        casts.append(cast)
    return df.with_columns(casts) if casts else df
