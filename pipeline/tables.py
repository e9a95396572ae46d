"""The published tables, built from all listings' abstract rows and the duplicate clusters (design §6).

Vectorised polars only: no Python loop over rows here.
"""

from __future__ import annotations

import polars as pl

from pipeline.release import HISTORY_COLUMNS, diff_papers

#: URL kinds that mean "the paper releases code" (papers.has_code).
CODE_KINDS = ("code", "anonymous_code")

PAPER_COLUMNS = [
    "paper_id", "venue", "year", "abstract", "abstract_raw", "language", "language_score", "n_words",
    "n_urls", "n_metrics", "has_code", "first_release", "last_changed_release", "n_sources",
    "source_listing", "content_hash",
]
URL_COLUMNS = ["paper_id", "venue", "year", "url", "url_raw", "kind", "host", "repo", "start", "end"]
METRIC_COLUMNS = [
    "paper_id", "venue", "year", "value", "value_text", "unit", "unit_text", "kind", "value_from", "value_low",
    "value_high", "metric", "metric_key", "dataset", "dataset_key", "subject", "baseline", "direction",
    "qualifier", "span", "start", "end", "rules",
]
LINEAGE_COLUMNS = [
    "listing", "venue", "year", "paragraph", "line", "raw_sha256", "status", "paper_id", "duplicate_of",
    "similarity", "reason",
]


def publishable(abstracts: pl.DataFrame) -> pl.DataFrame:
    """Rows of the abstracts frame that are not quarantined."""
    return abstracts.filter(pl.col("quarantine_reason").is_null())


def previous_id_map(papers: pl.DataFrame | None, lineage: pl.DataFrame | None) -> pl.DataFrame | None:
    """The previous release's identity, for :func:`pipeline.dedup.cluster`.

    Returns ``key`` (str: a paper's content_hash, or a raw_sha256 of any lineage row with a paper) →
    ``paper_id`` (str), plus ``abstract`` (str: the paper's canonical clean text on its content_hash row,
    null on raw_sha256 rows; used to keep the id of a paper whose original listing was removed but a near
    or truncated copy remains). One row per key, sorted by key; ``None`` when there is no previous release.
    """
    if papers is None:
        return None
    parts = [papers.select(pl.col("content_hash").alias("key"), "paper_id", "abstract")]
    if lineage is not None:
        parts.append(lineage.filter(pl.col("paper_id").is_not_null())
                     .select(pl.col("raw_sha256").alias("key"), "paper_id", pl.lit(None, pl.String).alias("abstract")))
    return pl.concat(parts).unique("key", keep="first", maintain_order=True).sort("key")


def build_tables(
    abstracts: pl.DataFrame,
    clusters: pl.DataFrame,
    previous_papers: pl.DataFrame | None,
    next_release: int,
) -> dict[str, pl.DataFrame]:
    """Build ``papers``, ``paper_urls``, ``paper_metrics`` and ``listing_lineage``.

    Args:
        abstracts: every listing's rows (pipeline.records.ABSTRACT_SCHEMA), quarantined ones included.
        clusters: :func:`pipeline.dedup.cluster` over the publishable rows.
        previous_papers: the latest release's ``papers`` (for first_release / last_changed_release), or None.
        next_release: the number the next release will get (latest + 1).

    Returns:
        a dict of the four tables with the columns of design §6 (and venue/year in each). A paper whose
        content is unchanged keeps its first_release and last_changed_release; a new or changed one gets
        ``next_release``.
    """
    joined = abstracts.join(clusters, on=["listing", "paragraph"], how="left")
    canon = joined.filter(pl.col("status") == "published")
    papers = canon.select(
        "paper_id", "venue", "year", "abstract", "abstract_raw", "language", "language_score", "n_words",
        pl.col("urls").list.len().cast(pl.Int64).alias("n_urls"),
        pl.col("metrics").list.len().cast(pl.Int64).alias("n_metrics"),
        pl.col("urls").list.eval(pl.element().struct.field("kind").is_in(CODE_KINDS)).list.any()
        .fill_null(False).alias("has_code"),
        pl.lit(next_release, pl.Int64).alias("first_release"),
        pl.lit(next_release, pl.Int64).alias("last_changed_release"),
        "n_sources", pl.col("listing").alias("source_listing"), "content_hash",
    ).sort("paper_id")
    if previous_papers is not None:
        changes = diff_papers(previous_papers, papers)
        changed = changes.filter(pl.col("change") == "changed")["paper_id"]
        hist = previous_papers.select("paper_id", *[pl.col(c).alias(f"prev_{c}") for c in HISTORY_COLUMNS])
        papers = papers.join(hist, on="paper_id", how="left").with_columns(
            first_release=pl.coalesce("prev_first_release", "first_release"),
            last_changed_release=pl.when(pl.col("paper_id").is_in(changed.implode()) |
                                         pl.col("prev_last_changed_release").is_null())
            .then(pl.col("last_changed_release")).otherwise(pl.col("prev_last_changed_release")),
        ).select(PAPER_COLUMNS)
    urls = (canon.select("paper_id", "venue", "year", "urls").explode("urls").drop_nulls("urls")
            .unnest("urls").select(URL_COLUMNS).sort("paper_id", "start", "end", "url"))
    metrics = (canon.select("paper_id", "venue", "year", "metrics").explode("metrics").drop_nulls("metrics")
               .unnest("metrics").select(METRIC_COLUMNS).sort("paper_id", "start", "end", "kind", "value_text"))
    lineage = joined.select(
        "listing", "venue", "year", "paragraph", "line", "raw_sha256",
        pl.when(pl.col("quarantine_reason").is_not_null()).then(pl.lit("quarantined"))
        .otherwise(pl.col("status")).alias("status"),
        "paper_id", "duplicate_of", "similarity", pl.col("quarantine_reason").alias("reason"),
    ).sort("listing", "paragraph")
    return {"papers": papers.select(PAPER_COLUMNS), "paper_urls": urls, "paper_metrics": metrics,
            "listing_lineage": lineage.select(LINEAGE_COLUMNS)}
