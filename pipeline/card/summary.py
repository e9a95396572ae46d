"""The numbers a release's card and charts show, computed from its tables (pure polars, no I/O).

Every function takes the published tables (docs/design.md, "Published tables") and returns a small DataFrame
sorted so that equal tables give equal output. The card (``pipeline.card.readme``) and the charts
(``pipeline.card.charts``) both read these, so a number in the text and the same number in a chart cannot
disagree.
"""

from __future__ import annotations

import polars as pl

from schemas import MODELS

#: How many of the most frequent URL hosts, metric names and datasets the card lists (a card is read in a
#: minute: ten rows per list; the full counts are one group-by away in the tables).
TOP_N = 10
#: How many benchmarks the "top benchmarks" chart shows: the first 15 rows of the card's benchmark table
#: (:func:`benchmark_bars`).
TOP_BENCHMARKS = 15
#: paper_metrics kinds that state a change achieved (the gold set's annotation guidelines, "Metrics": delta =
#: an absolute difference, relative_change = a relative increase/reduction); levels, multipliers, before/after
#: pairs and ranges are not single improvement figures.
IMPROVEMENT_KINDS = ("delta", "relative_change")
#: Units of the improvements chart (reported improvements in pp and %).
IMPROVEMENT_UNITS = ("pp", "%")


def conform(tables: dict[str, pl.DataFrame]) -> dict[str, pl.DataFrame]:
    """Each table with every column of its Pandera model (schemas.MODELS), in model order.

    Published tables always have them (blocking schema checks run before a release); a column that is
    missing (the card's unread columns, pipeline.card.UNREAD_COLUMNS, which the release step leaves out;
    and in release.py's unit tests, which publish partial tables) is added as nulls of the model's dtype,
    so the statistics read "none" instead of raising. Extra columns are dropped.
    """
    out = {}
    for name, model in MODELS.items():
        df = tables.get(name, pl.DataFrame())  # a table missing (partial tables of unit tests): all nulls
        cols = []
        for col, spec in model.to_schema().columns.items():
            dtype = spec.dtype.type
            cols.append(pl.col(col).cast(dtype) if col in df.columns else pl.lit(None, dtype).alias(col))
        out[name] = df.select(cols)
    return out


def papers_by_venue_year(papers: pl.DataFrame) -> pl.DataFrame:
    """Per venue and year: ``venue`` (str), ``year`` (Int64), ``papers`` (UInt32), ``with_code`` (UInt32,
    papers whose ``has_code`` is true), ``code_share`` (Float64, with_code / papers, 0..1). Sorted by venue,
    year."""
    return _with_code(papers.group_by("venue", "year")).sort("venue", "year")


def code_share_by_venue(papers: pl.DataFrame) -> pl.DataFrame:
    """Per venue: ``venue``, ``papers``, ``with_code``, ``code_share`` as in :func:`papers_by_venue_year`."""
    return _with_code(papers.group_by("venue")).sort("venue")


def _with_code(grouped) -> pl.DataFrame:
    return grouped.agg(
        pl.len().alias("papers"),
        pl.col("has_code").fill_null(False).sum().cast(pl.UInt32).alias("with_code"),
    ).with_columns(code_share=pl.col("with_code") / pl.col("papers"))


def languages(papers: pl.DataFrame) -> pl.DataFrame:
    """``language`` (ISO 639-1 or ``und``), ``papers`` (UInt32), ``share`` (0..1); most frequent first."""
    return (
        papers.group_by("language")
        .agg(pl.len().alias("papers"))
        .with_columns(share=pl.col("papers") / papers.height)
        .sort(["papers", "language"], descending=[True, False], nulls_last=True)
    )


def top_values(df: pl.DataFrame, column: str, n: int = TOP_N) -> pl.DataFrame:
    """The ``n`` most frequent non-null values of ``column``: ``value`` (str), ``rows`` (UInt32).

    Ties are broken by value (ascending), so the list is deterministic."""
    return (
        df.filter(pl.col(column).is_not_null())
        .group_by(pl.col(column).alias("value"))
        .agg(pl.len().alias("rows"))
        .sort(["rows", "value"], descending=[True, False])
        .head(n)
    )


def top_names(df: pl.DataFrame, column: str, key: str, n: int = TOP_N) -> pl.DataFrame:
    """The ``n`` most frequent names of ``column`` counted by their grouping ``key`` (``dataset_key`` /
    ``metric_key``: ``CIFAR-10`` and ``CIFAR10`` are one benchmark): ``value`` (str, the most frequent
    spelling of the group; ties by value, ascending), ``rows`` (UInt32, every row of the group). Rows with
    a null key are not counted. Deterministic: ties are broken by value."""
    rows = df.filter(pl.col(key).is_not_null() & pl.col(column).is_not_null())
    spelling = (
        rows.group_by(key, column)
        .agg(pl.len().alias("n"))
        .sort([key, "n", column], descending=[False, True, False])
        .group_by(key, maintain_order=True)
        .agg(pl.col(column).first().alias("value"), pl.col("n").sum().cast(pl.UInt32).alias("rows"))
    )
    return spelling.select("value", "rows").sort(["rows", "value"], descending=[True, False]).head(n)


#: How many benchmarks the card's benchmark table lists, and how many get a best-by-year panel.
TOP_BENCHMARK_ROWS = 20
BEST_BY_YEAR = 4


def most_reported(benchmarks: pl.DataFrame, n: int = TOP_BENCHMARK_ROWS) -> pl.DataFrame:
    """The ``n`` benchmarks (rows of the ``benchmarks`` table) with a known direction that the most papers
    report (then the most results; ties by dataset_key, metric_key, unit): every ``benchmarks`` column, in
    that order. A benchmark of unknown direction has no best result to show."""
    return (
        benchmarks.filter(pl.col("direction") != "unknown")
        .sort(
            ["papers", "results", "dataset_key", "metric_key", "unit"],
            descending=[True, True, False, False, False],
            nulls_last=True,
        )
        .head(n)
    )


def _benchmark_label() -> pl.Expr:
    """``"dataset, metric (unit)"`` of a ``benchmarks`` row (``value`` for a unitless metric)."""
    return pl.concat_str(
        pl.col("dataset"),
        pl.lit(", "),
        pl.col("metric"),
        pl.lit(" ("),
        pl.col("unit").fill_null("value"),
        pl.lit(")"),
    )


def benchmark_bars(benchmarks: pl.DataFrame, n: int = TOP_BENCHMARKS) -> pl.DataFrame:
    """The bars of the top-benchmarks chart: the first ``n`` rows of :func:`most_reported`, the card's
    benchmark table in its order, so chart and table count by the same rule (the ``benchmarks`` table:
    two papers or more reporting a result of their own method; direction known). Columns ``label`` (str,
    "dataset, metric (unit)"), ``papers`` (Int64), ``results`` (Int64). Empty when the table is."""
    return most_reported(benchmarks, n).select(_benchmark_label().alias("label"), "papers", "results")


def best_by_year(benchmarks: pl.DataFrame, results: pl.DataFrame, n: int = BEST_BY_YEAR) -> pl.DataFrame:
    """For the first ``n`` of :func:`most_reported`: per known year (> 0), the best value reported that year
    (the largest for direction higher, the smallest for lower). Columns ``label`` (str: "dataset, metric
    (unit)"), ``direction``, ``year`` (Int64), ``best`` (Float64), ``order`` (Int64, the benchmark's place in
    :func:`most_reported`); sorted by order, year."""
    top = most_reported(benchmarks, n).with_row_index("order").with_columns(pl.col("order").cast(pl.Int64))
    label = _benchmark_label()
    keys = ["dataset_key", "metric_key", "unit"]
    rows = results.filter(pl.col("year") > 0).join(
        top.select(*keys, "order", "direction", label.alias("label")), on=keys, nulls_equal=True
    )
    best = (
        pl.when(pl.col("direction").first() == "lower")
        .then(pl.col("value").min())
        .otherwise(pl.col("value").max())
    )
    return (
        rows.group_by("order", "label", "direction", "year")
        .agg(best.alias("best"))
        .select("label", "direction", "year", "best", "order")
        .sort("order", "year")
    )


def improvements(metrics: pl.DataFrame) -> pl.DataFrame:
    """Changes reported for the paper's own method (mostly improvements; a stated loss such as "<0.5% accuracy
    drop" is included too, since the direction that is better depends on the metric): rows of
    ``paper_metrics`` with ``subject`` "ours",
    ``kind`` in :data:`IMPROVEMENT_KINDS`, ``unit`` in :data:`IMPROVEMENT_UNITS` and a value.

    Columns: ``unit`` ("pp" or "%"), ``kind``, ``size`` (Float64, |value|: the magnitude; a reduction of an
    error and a gain in accuracy are both improvements, and which way is better depends on the metric).
    Sorted by unit, size, kind.
    """
    return (
        metrics.filter(
            pl.col("subject") == "ours",
            pl.col("kind").is_in(IMPROVEMENT_KINDS),
            pl.col("unit").is_in(IMPROVEMENT_UNITS),
            pl.col("value").is_not_null(),
        )
        .select("unit", "kind", pl.col("value").abs().alias("size"))
        .sort("unit", "size", "kind")
    )


def changed_columns(changes: pl.DataFrame) -> pl.DataFrame:
    """How often each column changed among the changelog's ``changed`` rows: ``column`` (str), ``papers``
    (UInt32); most frequent first. ``changes`` is release.diff_papers' output (paper_id, change, columns)."""
    return (
        changes.filter(pl.col("change") == "changed")
        .select(pl.col("columns").str.split(",").alias("column"))
        .explode("column")
        .group_by("column")
        .agg(pl.len().alias("papers"))
        .sort(["papers", "column"], descending=[True, False])
    )


def listing_fates(lineage: pl.DataFrame) -> pl.DataFrame:
    """Per listing: ``listing``, ``venue`` (str: its venue, or its venues comma-separated, at most three
    then ``+N more``, for a listing whose records name several, e.g. an arXiv feed), ``year`` (str: the
    year, or ``first–last``), ``paragraphs`` and the counts ``published``, ``duplicate``, ``quarantined``
    (UInt32). Sorted by listing."""
    venues = pl.col("venue").unique().sort()
    return (
        lineage.group_by("listing")
        .agg(
            pl.when(venues.len() <= 3)
            .then(venues.str.join(", "))
            .otherwise(
                venues.head(3).str.join(", ") + pl.lit(", +") + (venues.len() - 3).cast(pl.String) + " more"
            )
            .alias("venue"),
            pl.when(pl.col("year").min() == pl.col("year").max())
            .then(pl.col("year").min().cast(pl.String))
            .otherwise(pl.col("year").min().cast(pl.String) + "–" + pl.col("year").max().cast(pl.String))
            .alias("year"),
            pl.len().alias("paragraphs"),
            *[
                (pl.col("status") == s).sum().cast(pl.UInt32).alias(s)
                for s in ("published", "duplicate", "quarantined")
            ],
        )
        .sort("listing")
    )


def papers_by_reader(lineage: pl.DataFrame) -> pl.DataFrame:
    """Published papers per reader (how their listing was read): ``reader`` (str, ``unread`` when none),
    ``listings`` (UInt32), ``papers`` (UInt32), ``lowest_coverage`` (Float64: the least share of a listing
    its reading explains, ``listing_lineage.reader_coverage``; null for ``unread`` and for a lineage table
    of a release made before the column). Sorted by papers descending, then reader."""
    if "reader_coverage" not in lineage.columns:
        lineage = lineage.with_columns(reader_coverage=pl.lit(None, dtype=pl.Float64))
    return (
        lineage.with_columns(pl.col("reader").fill_null("unread"))
        .group_by("reader")
        .agg(
            pl.col("listing").n_unique().cast(pl.UInt32).alias("listings"),
            (pl.col("status") == "published").sum().cast(pl.UInt32).alias("papers"),
            pl.col("reader_coverage").min().alias("lowest_coverage"),
        )
        .sort(["papers", "reader"], descending=[True, False])
    )


def papers_by_status(papers: pl.DataFrame) -> pl.DataFrame:
    """Papers per ``source_status`` as the listings say (``not given`` when null): ``source_status`` (str),
    ``papers`` (UInt32). Sorted by papers descending, then status."""
    return (
        papers.select(pl.col("source_status").fill_null("not given"))
        .group_by("source_status")
        .agg(pl.len().cast(pl.UInt32).alias("papers"))
        .sort(["papers", "source_status"], descending=[True, False])
    )
