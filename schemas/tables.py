"""Pandera (polars backend) models of every table the pipeline writes (design §6).

Importable without Dagster. On a ``LazyFrame`` Pandera runs schema-level checks only and bad rows pass
(../shared/cases/case18), so :func:`validate` collects first.

Validation always runs on collected data: :func:`validate` collects a LazyFrame first.

Integer columns are Int64, real numbers Float64, text Utf8 (String). ``venue`` and ``year`` are the Hive
partition columns of every published table: ASCII, never null (``"unknown"`` and ``0`` are the sentinels).
"""

from __future__ import annotations

import polars as pl
import pandera.polars as pa
from pandera.errors import SchemaErrors

SCHEMA_VERSION = 1

#: Venue values: ASCII token (see pipeline.parsing.VENUE_RE) or the sentinel "unknown".
VENUE_PATTERN = r"^[A-Za-z][A-Za-z0-9_\-]{0,31}$"
#: paper_id: "p" + 16 hex digits (64 bits of a sha256, see pipeline.dedup.paper_id_for).
PAPER_ID_PATTERN = r"^p[0-9a-f]{16}$"
LANGUAGE_PATTERN = r"^(?:[a-z]{2}|und)$"
URL_KINDS = ["code", "anonymous_code", "project_page", "dataset", "model", "demo", "paper", "other"]
METRIC_UNITS = ["%", "pp", "x"]
METRIC_KINDS = ["score", "delta", "relative_change", "multiplier", "before_after", "range"]
SUBJECTS = ["ours", "baseline"]
DIRECTIONS = ["increase", "decrease"]
LINEAGE_STATUSES = ["published", "duplicate", "quarantined"]
#: A loose floor under every published abstract; pipeline.quarantine enforces the real, script-aware minimum
#: before a paragraph can be published, so a shorter abstract here means a bug upstream.
MIN_ABSTRACT_CHARS = 20


def _year_ok(col: str = "year") -> pl.Expr:
    return (pl.col(col) == 0) | pl.col(col).is_between(1980, 2100)


class Papers(pa.DataFrameModel):
    """``papers``: one row per distinct paper (the canonical text of its duplicate cluster)."""

    paper_id: str = pa.Field(unique=True, str_matches=PAPER_ID_PATTERN)
    venue: str = pa.Field(str_matches=VENUE_PATTERN)
    year: pl.Int64 = pa.Field(ge=0, le=2100)
    abstract: str = pa.Field(str_length={"min_value": MIN_ABSTRACT_CHARS})
    abstract_raw: str = pa.Field(str_length={"min_value": MIN_ABSTRACT_CHARS})
    language: str = pa.Field(str_matches=LANGUAGE_PATTERN)
    language_score: pl.Float64 = pa.Field(ge=0.0, le=1.0)
    n_words: pl.Int64 = pa.Field(ge=1)
    n_urls: pl.Int64 = pa.Field(ge=0)
    n_metrics: pl.Int64 = pa.Field(ge=0)
    has_code: bool
    first_release: pl.Int64 = pa.Field(ge=1)
    last_changed_release: pl.Int64 = pa.Field(ge=1)
    n_sources: pl.Int64 = pa.Field(ge=1)
    source_listing: str = pa.Field(str_length={"min_value": 1})
    content_hash: str = pa.Field(str_matches=r"^[0-9a-f]{32}$")

    class Config:
        strict = True

    @pa.dataframe_check
    def year_plausible(cls, data: pa.PolarsData) -> pl.LazyFrame:
        """year is 0 (unknown) or within 1980..2100."""
        return data.lazyframe.select(_year_ok())

    @pa.dataframe_check
    def changed_after_first(cls, data: pa.PolarsData) -> pl.LazyFrame:
        """last_changed_release >= first_release."""
        return data.lazyframe.select(pl.col("last_changed_release") >= pl.col("first_release"))


class PaperUrls(pa.DataFrameModel):
    """``paper_urls``: one row per URL of a paper; ``start``/``end`` index ``papers.abstract_raw``."""

    paper_id: str = pa.Field(str_matches=PAPER_ID_PATTERN)
    venue: str = pa.Field(str_matches=VENUE_PATTERN)
    year: pl.Int64 = pa.Field(ge=0, le=2100)
    url: str = pa.Field(str_matches=r"^[a-z][a-z0-9+.\-]*://\S+$")
    url_raw: str = pa.Field(str_length={"min_value": 1})
    kind: str = pa.Field(isin=URL_KINDS)
    host: str = pa.Field(str_length={"min_value": 1})
    start: pl.Int64 = pa.Field(ge=0)
    end: pl.Int64 = pa.Field(ge=1)

    class Config:
        strict = True

    @pa.dataframe_check
    def span_ordered(cls, data: pa.PolarsData) -> pl.LazyFrame:
        """start < end."""
        return data.lazyframe.select(pl.col("start") < pl.col("end"))


class PaperMetrics(pa.DataFrameModel):
    """``paper_metrics``: one row per reported result metric; ``start``/``end`` index ``papers.abstract``."""

    paper_id: str = pa.Field(str_matches=PAPER_ID_PATTERN)
    venue: str = pa.Field(str_matches=VENUE_PATTERN)
    year: pl.Int64 = pa.Field(ge=0, le=2100)
    value: pl.Float64 = pa.Field(nullable=True)
    value_text: str = pa.Field(str_length={"min_value": 1})
    unit: str = pa.Field(nullable=True, isin=METRIC_UNITS)
    kind: str = pa.Field(isin=METRIC_KINDS)
    value_from: pl.Float64 = pa.Field(nullable=True)
    value_low: pl.Float64 = pa.Field(nullable=True)
    value_high: pl.Float64 = pa.Field(nullable=True)
    metric: str = pa.Field(nullable=True)
    dataset: str = pa.Field(nullable=True)
    subject: str = pa.Field(isin=SUBJECTS)
    baseline: str = pa.Field(nullable=True)
    direction: str = pa.Field(nullable=True, isin=DIRECTIONS)
    qualifier: str = pa.Field(nullable=True)
    span: str = pa.Field(str_length={"min_value": 1})
    start: pl.Int64 = pa.Field(ge=0)
    end: pl.Int64 = pa.Field(ge=1)

    class Config:
        strict = True

    @pa.dataframe_check
    def value_or_range(cls, data: pa.PolarsData) -> pl.LazyFrame:
        """A row has a value, or (kind range) both value_low and value_high."""
        return data.lazyframe.select(
            pl.col("value").is_not_null() | (pl.col("value_low").is_not_null() & pl.col("value_high").is_not_null())
        )

    @pa.dataframe_check
    def non_negative_levels(cls, data: pa.PolarsData) -> pl.LazyFrame:
        """A multiplier is positive and a percentage score is not negative (deltas may be negative)."""
        v, unit, kind = pl.col("value"), pl.col("unit"), pl.col("kind")
        bad = ((kind == "multiplier") & (v <= 0)) | ((kind == "score") & (unit == "%") & (v < 0))
        return data.lazyframe.select(~bad.fill_null(False))

    @pa.dataframe_check
    def before_after_has_from(cls, data: pa.PolarsData) -> pl.LazyFrame:
        """kind before_after carries value_from."""
        return data.lazyframe.select((pl.col("kind") != "before_after") | pl.col("value_from").is_not_null())


class ListingLineage(pa.DataFrameModel):
    """``listing_lineage``: one row per raw paragraph of every listing (rows in = rows out).

    ``paragraph`` 0 stands for a whole listing that could not be read (quarantined with the reason).
    """

    listing: str = pa.Field(str_length={"min_value": 1})
    venue: str = pa.Field(str_matches=VENUE_PATTERN)
    year: pl.Int64 = pa.Field(ge=0, le=2100)
    paragraph: pl.Int64 = pa.Field(ge=0)
    line: pl.Int64 = pa.Field(ge=0)
    raw_sha256: str = pa.Field(str_matches=r"^[0-9a-f]{64}$")
    status: str = pa.Field(isin=LINEAGE_STATUSES)
    paper_id: str = pa.Field(nullable=True, str_matches=PAPER_ID_PATTERN)
    duplicate_of: str = pa.Field(nullable=True)
    similarity: pl.Float64 = pa.Field(nullable=True, ge=0.0, le=1.0)
    reason: str = pa.Field(nullable=True)

    class Config:
        strict = True
        unique = ["listing", "paragraph"]

    @pa.dataframe_check
    def status_fields(cls, data: pa.PolarsData) -> pl.LazyFrame:
        """published/duplicate rows have a paper_id and no reason; quarantined rows a reason and no paper_id;
        duplicate rows name what they duplicate."""
        s = pl.col("status")
        return data.lazyframe.select(
            pl.when(s == "quarantined").then(pl.col("reason").is_not_null() & pl.col("paper_id").is_null())
            .when(s == "duplicate").then(pl.col("paper_id").is_not_null() & pl.col("duplicate_of").is_not_null())
            .otherwise(pl.col("paper_id").is_not_null() & pl.col("reason").is_null())
        )


MODELS: dict[str, type[pa.DataFrameModel]] = {
    "papers": Papers,
    "paper_urls": PaperUrls,
    "paper_metrics": PaperMetrics,
    "listing_lineage": ListingLineage,
}


def validate(df: pl.DataFrame | pl.LazyFrame, model: type[pa.DataFrameModel]) -> pl.DataFrame | None:
    """Validate a collected DataFrame against ``model`` with every check (lazy: all failures at once).

    Returns ``None`` when valid, else the failure cases as a DataFrame with columns ``failure_case`` (str),
    ``schema_context``, ``column``, ``check`` (the rule), ``check_number`` and ``index`` (row number).

    A LazyFrame is collected first: Pandera would run only schema-level checks on it (case18).
    """
    if isinstance(df, pl.LazyFrame):
        df = df.collect()
    try:
        model.validate(df, lazy=True)
    except SchemaErrors as e:
        return e.failure_cases
    return None
