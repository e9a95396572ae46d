"""The benchmark tables: ``benchmarks`` (one row per benchmark) and ``benchmark_results`` (one row per result
of a paper's own method on it), from ``paper_metrics`` and the papers' titles (docs/design.md, "Published
tables", "Benchmark tables"). Pure polars; no loop over rows.

Rules (each decided once, here):

- **A result** is a ``paper_metrics`` row of the paper's own method (``subject`` ours) that is a level
  (``kind`` score) with a value, a ``dataset_key`` and a ``metric_key``, and no bound-like qualifier
  (:data:`UNRANKED_QUALIFIERS`: "up to 95%" is the best of several settings, "over 90%" a bound; neither is
  a value to rank).
- **A benchmark** is a (``dataset_key``, ``metric_key``, ``unit``) with results of at least
  :data:`MIN_PAPERS` distinct papers. ``unit`` is the row's unit class (``%``, ``pp``, ``x``), else its
  unit as written, case-folded (``ms``, ``gb``), else null (a plain number): 85 % and 0.85 are not
  comparable, so a metric reported both ways gives two benchmarks.
- **direction**: ``higher`` / ``lower`` / ``unknown``, from the metric table
  (pipeline.analyse.extraction.vocabulary.metric_directions, each rule with its source).
- **rank** (Int64, 1 = best; null when the direction is unknown): competition ranking of the values in
  the better-first order; equal values share the rank ("1, 1, 3").
- **best**: the benchmark's row of rank 1; among equal values the earliest known year (the first paper to
  report the value; year 0, unknown, last), then paper_id, then start. The best value, paper and title are
  that row's; null when the direction is unknown.
- Spellings (``dataset``, ``metric``): the most frequent spelling among the benchmark's results; ties by
  the spelling (ascending).
- first_year / last_year: the smallest and largest known year (> 0) of its results, null when none.
"""

from __future__ import annotations

import polars as pl

from pipeline.analyse.extraction.vocabulary.metric_directions import direction_of

RULES_VERSION = "1"  # bump when outputs change (docs/execution.md)

#: A benchmark needs results of at least this many distinct papers (one paper alone is no comparison).
MIN_PAPERS = 2
#: Qualifiers (paper_metrics.qualifier, the extraction's hedges) under which a number is a bound or the best
#: of several settings, not a level to rank: "up to", "over", "more than", "at least", "below", ...
UNRANKED_QUALIFIERS = (
    "up to",
    "over",
    "more than",
    "at least",
    "above",
    "exceeding",
    "beyond",
    "greater than",
    "less than",
    "below",
    "under",
    "at most",
    "fewer than",
    "as low as",
    "as high as",
    "as much as",
    "as many as",
    "as little as",
    "within",
    ">",
    "<",
    "≥",
    "≤",
    ">=",
    "<=",
)
#: The benchmark key columns of both tables.
KEY = ["dataset_key", "metric_key", "unit"]
#: Columns of paper_metrics the rules read (besides paper_id, venue, year).
METRIC_INPUTS = (
    "value",
    "value_text",
    "unit",
    "unit_text",
    "kind",
    "metric",
    "metric_key",
    "dataset",
    "dataset_key",
    "subject",
    "qualifier",
    "span",
    "start",
    "end",
)
BENCHMARK_COLUMNS = [
    "dataset_key",
    "metric_key",
    "unit",
    "dataset",
    "metric",
    "direction",
    "papers",
    "results",
    "best_value",
    "best_value_text",
    "best_paper_id",
    "best_title",
    "best_venue",
    "best_year",
    "first_year",
    "last_year",
]
RESULT_COLUMNS = [
    "dataset_key",
    "metric_key",
    "unit",
    "rank",
    "paper_id",
    "title",
    "venue",
    "year",
    "value",
    "value_text",
    "unit_text",
    "metric",
    "dataset",
    "qualifier",
    "span",
    "start",
    "end",
]
#: File order of each table (pipeline.release.layout.SORT_KEYS uses these).
BENCHMARK_ORDER = ["dataset_key", "metric_key", "unit"]
RESULT_ORDER = ["dataset_key", "metric_key", "unit", "rank", "paper_id", "start", "end"]
#: Order of a benchmark's rows when its best is chosen: rank, then the earliest known year (year 0 last).
_BEST_ORDER = ["dataset_key", "metric_key", "unit", "rank", "_year_order", "paper_id", "start", "end"]


def candidates(metrics: pl.DataFrame, papers: pl.DataFrame) -> pl.DataFrame:
    """The result rows of ``metrics`` (paper_metrics rows of one or more partitions: paper_id, venue, year
    and :data:`METRIC_INPUTS`) with the paper's ``title`` (from ``papers``: paper_id, title), in
    :data:`RESULT_COLUMNS` without ``rank``; ``unit`` is the benchmark unit (module docstring). Narrow:
    the dataset step keeps only these across partitions."""
    folded_text = pl.col("unit_text").str.strip_chars().str.to_lowercase()
    rows = metrics.filter(
        pl.col("subject") == "ours",
        pl.col("kind") == "score",
        pl.col("value").is_not_null(),
        pl.col("dataset_key").is_not_null(),
        pl.col("metric_key").is_not_null(),
        pl.col("qualifier").is_null() | ~pl.col("qualifier").str.to_lowercase().is_in(UNRANKED_QUALIFIERS),
    ).with_columns(unit=pl.coalesce(pl.col("unit"), folded_text))
    titles = papers.select("paper_id", pl.col("title").cast(pl.String))
    titled = rows.join(titles, on="paper_id", how="left", maintain_order="left")
    return titled.select([c for c in RESULT_COLUMNS if c != "rank"])


def _spelling(rows: pl.DataFrame, column: str) -> pl.DataFrame:
    """Per benchmark key: the most frequent ``column`` (ties: ascending)."""
    return (
        rows.group_by(*KEY, column)
        .agg(pl.len().alias("_n"))
        .sort([*KEY, "_n", column], descending=[False, False, False, True, False], nulls_last=True)
        .group_by(KEY, maintain_order=True)
        .agg(pl.col(column).first())
    )


def benchmark_tables(results: pl.DataFrame) -> dict[str, pl.DataFrame]:
    """``benchmarks`` and ``benchmark_results`` (:data:`BENCHMARK_COLUMNS`, :data:`RESULT_COLUMNS`, sorted
    in file order) from :func:`candidates` rows of every partition. Rules: the module docstring."""
    papers = results.group_by(KEY).agg(pl.col("paper_id").n_unique().alias("_papers"))
    kept = papers.filter(pl.col("_papers") >= MIN_PAPERS).select(KEY)
    rows = results.join(kept, on=KEY, how="semi", nulls_equal=True)
    keys = rows.select("metric_key").unique()["metric_key"].to_list()
    directions = {k: direction_of(k) for k in keys}
    rows = rows.with_columns(
        _direction=pl.col("metric_key").replace_strict(directions, return_dtype=pl.String, default="unknown"),
        _year_order=pl.when(pl.col("year") > 0).then(pl.col("year")).otherwise(None),
    )
    better = (
        pl.when(pl.col("_direction") == "higher")
        .then(-pl.col("value"))
        .when(pl.col("_direction") == "lower")
        .then(pl.col("value"))
        .otherwise(None)
    )
    rows = rows.with_columns(
        rank=better.rank(method="min").over(KEY).cast(pl.Int64),
    )
    rows = rows.sort(_BEST_ORDER, nulls_last=True)
    results_out = rows.sort(RESULT_ORDER, nulls_last=True).select(RESULT_COLUMNS)
    best = (
        rows.filter(pl.col("rank") == 1)
        .group_by(KEY, maintain_order=True)
        .agg(
            *[
                pl.col(c).first().alias(f"best_{b}")
                for c, b in [
                    ("value", "value"),
                    ("value_text", "value_text"),
                    ("paper_id", "paper_id"),
                    ("title", "title"),
                    ("venue", "venue"),
                    ("year", "year"),
                ]
            ]
        )
    )
    stats = rows.group_by(KEY).agg(
        pl.col("_direction").first().alias("direction"),
        pl.col("paper_id").n_unique().cast(pl.Int64).alias("papers"),
        pl.len().cast(pl.Int64).alias("results"),
        pl.col("_year_order").min().cast(pl.Int64).alias("first_year"),
        pl.col("_year_order").max().cast(pl.Int64).alias("last_year"),
    )
    out = (
        stats.join(_spelling(rows, "dataset"), on=KEY, how="left", nulls_equal=True)
        .join(_spelling(rows, "metric"), on=KEY, how="left", nulls_equal=True)
        .join(best, on=KEY, how="left", nulls_equal=True)
        .sort(BENCHMARK_ORDER, nulls_last=True)
        .select(BENCHMARK_COLUMNS)
    )
    return {"benchmarks": out, "benchmark_results": results_out}


def from_tables(metrics: pl.DataFrame, papers: pl.DataFrame) -> dict[str, pl.DataFrame]:
    """:func:`benchmark_tables` of whole ``paper_metrics`` and ``papers`` tables. A column the rules read
    that a table lacks (partial tables that release unit tests publish) is taken as null, so such tables
    give empty benchmark tables rather than an error; published tables always have every column (their
    blocking schema checks)."""
    need = {"paper_id": pl.String, "venue": pl.String, "year": pl.Int64, **_METRIC_DTYPES}
    metrics = metrics.with_columns(
        pl.lit(None, t).alias(c) for c, t in need.items() if c not in metrics.columns
    )
    papers = papers.with_columns(
        pl.lit(None, pl.String).alias(c) for c in ("paper_id", "title") if c not in papers.columns
    )
    return benchmark_tables(candidates(metrics, papers))


_METRIC_DTYPES = {
    "value": pl.Float64,
    "value_text": pl.String,
    "unit": pl.String,
    "unit_text": pl.String,
    "kind": pl.String,
    "metric": pl.String,
    "metric_key": pl.String,
    "dataset": pl.String,
    "dataset_key": pl.String,
    "subject": pl.String,
    "qualifier": pl.String,
    "span": pl.String,
    "start": pl.Int64,
    "end": pl.Int64,
}


#: What ties a benchmark_results row to its paper_metrics row (besides kind score and subject ours).
TRACE_KEY = ["paper_id", "start", "end", "value_text", "metric_key", "dataset_key"]


def untraced(results: pl.LazyFrame, metrics: pl.LazyFrame, papers: pl.LazyFrame) -> pl.DataFrame:
    """The ``benchmark_results`` rows (lazy, of one release or build) that do not come from a
    ``paper_metrics`` row of the same tables: no row with the same :data:`TRACE_KEY` of kind score and
    subject ours, or a ``span`` that is not ``papers.abstract[start:end]``. Columns: paper_id, start,
    end, dataset_key, metric_key, ``problem`` (str). Empty when every result traces (the blocking
    ``traces`` check)."""
    rows = results.select(*TRACE_KEY, "span")
    found = metrics.filter(pl.col("kind") == "score", pl.col("subject") == "ours").select(TRACE_KEY).unique()
    missing = rows.join(found, on=TRACE_KEY, how="anti", nulls_equal=True).with_columns(
        problem=pl.lit("no paper_metrics row")
    )
    texts = papers.select("paper_id", "abstract").join(rows.select("paper_id").unique(), on="paper_id")
    spans = rows.join(texts, on="paper_id", how="left").filter(
        pl.col("abstract").is_null()
        | (pl.col("abstract").str.slice(pl.col("start"), pl.col("end") - pl.col("start")) != pl.col("span"))
    )
    cols = ["paper_id", "start", "end", "dataset_key", "metric_key", "problem"]
    return (
        pl.concat(
            [
                missing.select(cols),
                spans.with_columns(problem=pl.lit("span is not papers.abstract[start:end]")).select(cols),
            ]
        )
        .collect(engine="streaming")  # the papers' texts stream through the join: never all held at once
        .sort(cols, nulls_last=True)
    )
