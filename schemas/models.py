"""Pandera (polars backend) models of every table the pipeline writes (docs/design.md, "Published tables").

Importable without Dagster. On a ``LazyFrame`` Pandera runs schema-level checks only and bad rows pass
(a failure case of the tests showed it), so :func:`validate` collects first.

Validation always runs on collected data: :func:`validate` collects a LazyFrame first.

Integer columns are Int64, real numbers Float64, text Utf8 (String). ``venue`` and ``year`` are the Hive
partition columns of every published table: ASCII, never null (``"unknown"`` and ``0`` are the sentinels).
"""

from __future__ import annotations

from typing import Annotated

import pandera.polars as pa
import polars as pl
from pandera.errors import SchemaErrors

RULES_VERSION = "2"  # bump when outputs change (docs/execution.md)

SCHEMA_VERSION = 1

#: Venue values: ASCII token with at least one letter (see pipeline.parsing.VENUE_RE; "3DV" is a venue),
#: or the sentinel "unknown". A letter keeps Hive readers from typing the partition as an integer.
VENUE_PATTERN = r"^[A-Za-z0-9_\-]*[A-Za-z][A-Za-z0-9_\-]*$"
#: paper_id: "p" + 16 hex digits (64 bits of a sha256, see pipeline.build.dedup.paper_id_for).
PAPER_ID_PATTERN = r"^p[0-9a-f]{16}$"
LANGUAGE_PATTERN = r"^(?:[a-z]{2}|und)$"
URL_ORIGINS = ["abstract", "listing"]
URL_KINDS = ["code", "anonymous_code", "project_page", "dataset", "model", "demo", "paper", "other"]
METRIC_UNITS = ["%", "pp", "x"]
METRIC_KINDS = ["score", "delta", "relative_change", "multiplier", "before_after", "range"]
SUBJECTS = ["ours", "baseline"]
DIRECTIONS = ["increase", "decrease"]
LINEAGE_STATUSES = ["published", "duplicate", "quarantined"]
#: benchmarks.direction: which way is better for the metric (pipeline.analyse.extraction.vocabulary.metric_directions).
BENCHMARK_DIRECTIONS = ["higher", "lower", "unknown"]
#: A floor under every published abstract, below what pipeline.analyse.quarantine lets through (6 words, i.e. at
#: least 11 characters, or 12 Han characters), so a shorter abstract here means a bug upstream.
MIN_ABSTRACT_CHARS = 10


def _year_ok(col: str = "year") -> pl.Expr:
    return (pl.col(col) == 0) | pl.col(col).is_between(1980, 2100)


def _venue_field(description: str):
    """The ``venue`` Hive partition column every table has: an ASCII token (VENUE_PATTERN), never null."""
    return pa.Field(str_matches=VENUE_PATTERN, description=description)


def _paper_ref_field():
    """``paper_id`` of a per-paper child table (paper_urls, paper_metrics): a papers.paper_id, never null."""
    return pa.Field(str_matches=PAPER_ID_PATTERN, description="The paper (papers.paper_id).")


def _year_field(description: str):
    """The ``year`` Hive partition column every table has: 0 (unknown) or a year up to 2100, never null."""
    return pa.Field(ge=0, le=2100, description=description)


class Papers(pa.DataFrameModel):
    """``papers``: one row per distinct paper (the canonical text of its duplicate cluster)."""

    paper_id: str = pa.Field(
        unique=True,
        str_matches=PAPER_ID_PATTERN,
        description=(
            "Stable identifier of the paper: kept across releases when a later listing re-lists it, edits it "
            "slightly or fixes its LaTeX."
        ),
    )
    venue: str = _venue_field(
        "Conference from the listing header (ASCII token), or 'unknown'. Hive partition column."
    )
    year: pl.Int64 = _year_field(
        "Conference year from the listing header, or 0 when unknown. Hive partition column."
    )
    title: str = pa.Field(
        nullable=True,
        str_length={"min_value": 1},
        description="The paper's title as the listing gives it, as clean text (LaTeX, HTML entities and markdown "
        "converted, BibTeX braces and list numbers removed); null when the listing has no titles (never guessed).",
    )
    authors: Annotated[pl.List, pl.String()] = pa.Field(
        nullable=True,
        description="Author names as the listing gives them, as clean text (list of strings, in order; BibTeX "
        "'Last, First' as 'First Last'); null when it has none.",
    )
    abstract: str = pa.Field(
        str_length={"min_value": MIN_ABSTRACT_CHARS},
        description="Clean text: NFC, LaTeX converted to Unicode, markdown emphasis removed, whitespace collapsed.",
    )
    abstract_raw: str = pa.Field(
        str_length={"min_value": MIN_ABSTRACT_CHARS},
        description="The abstract as in the listing file (decoded, line ends normalised, hard wraps joined).",
    )
    language: str = pa.Field(
        str_matches=LANGUAGE_PATTERN,
        description="ISO 639-1 code from seeded langdetect on the clean text, or 'und' when evidence is too thin.",
    )
    language_score: pl.Float64 = pa.Field(
        ge=0.0,
        le=1.0,
        description="Probability (0..1) langdetect gave the detected language; see pipeline.analyse.language for und.",
    )
    n_words: pl.Int64 = pa.Field(
        ge=1,
        description="Number of words in the clean abstract.",
    )
    n_urls: pl.Int64 = pa.Field(
        ge=0,
        description="Number of rows of this paper in paper_urls.",
    )
    n_metrics: pl.Int64 = pa.Field(
        ge=0,
        description="Number of rows of this paper in paper_metrics.",
    )
    has_code: bool = pa.Field(
        description="True when a URL of kind code or anonymous_code was found in the abstract.",
    )
    first_release: pl.Int64 = pa.Field(
        ge=1,
        description="Release number in which this paper_id first appeared.",
    )
    last_changed_release: pl.Int64 = pa.Field(
        ge=1,
        description=(
            "Release number in which any column of this row last changed (the text, extracted counts, "
            "or n_sources when another listing re-lists it); the changelog names the columns."
        ),
    )
    n_sources: pl.Int64 = pa.Field(
        ge=1,
        description="Number of listing paragraphs (copies) merged into this paper by deduplication.",
    )
    source_listing: str = pa.Field(
        str_length={"min_value": 1},
        description="Listing file that supplied the canonical text.",
    )
    source_id: str = pa.Field(
        nullable=True,
        str_length={"min_value": 1},
        description="The record's own id in that listing (OpenReview forum id, arXiv id, papercopilot id, BibTeX "
        "key); null when the listing has none.",
    )
    source_status: str = pa.Field(
        nullable=True,
        str_length={"min_value": 1},
        description="Decision or presentation type as the listing says (Oral, Poster, Spotlight, Reject, ...); "
        "null when it does not.",
    )
    source_urls: Annotated[pl.List, pl.String()] = pa.Field(
        nullable=True,
        description="Code/project links the listing gives outside the abstract (e.g. papercopilot's github and "
        "project fields), as written; also in paper_urls with origin 'listing'. Null when none.",
    )
    content_hash: str = pa.Field(
        str_matches=r"^[0-9a-f]{32}$",
        description="xxh3-128 (hex) of the normalised text (pipeline.analyse.hashing.content_hash): equal for exact duplicates.",
    )

    class Config:
        strict = True

    @pa.dataframe_check
    @classmethod
    def year_plausible(cls, data: pa.PolarsData) -> pl.LazyFrame:
        """year is 0 (unknown) or within 1980..2100."""
        return data.lazyframe.select(_year_ok())

    @pa.dataframe_check
    @classmethod
    def changed_after_first(cls, data: pa.PolarsData) -> pl.LazyFrame:
        """last_changed_release >= first_release."""
        return data.lazyframe.select(pl.col("last_changed_release") >= pl.col("first_release"))


class PaperUrls(pa.DataFrameModel):
    """``paper_urls``: one row per URL of a paper; ``start``/``end`` index ``papers.abstract_raw``."""

    paper_id: str = _paper_ref_field()
    venue: str = _venue_field("The paper's venue. Hive partition column.")
    year: pl.Int64 = _year_field("The paper's year. Hive partition column.")
    url: str = pa.Field(
        str_matches=r"^[a-z][a-z0-9+.\-]*://\S+$",
        description="Normalised URL (lower-case scheme and host, no trailing punctuation, slash or .git).",
    )
    url_raw: str = pa.Field(
        str_length={"min_value": 1},
        description="The URL as written in abstract_raw.",
    )
    kind: str = pa.Field(
        isin=URL_KINDS,
        description="What the URL points to (host rules, overridden by what the sentence says).",
    )
    host: str = pa.Field(
        str_length={"min_value": 1},
        description="Host name of the normalised URL.",
    )
    repo: str = pa.Field(
        nullable=True,
        description=(
            "Repository the URL belongs to (https://<git host>/<owner>/<repo>, a Hugging Face repository or "
            "an anonymous.4open.science/r/<id> mirror) when it is inside one, e.g. an issues page or a file; "
            "else null."
        ),
    )
    start: pl.Int64 = pa.Field(
        ge=0,
        nullable=True,
        description="Character offset of url_raw in papers.abstract_raw (0-based, inclusive); null for origin "
        "'listing'.",
    )
    end: pl.Int64 = pa.Field(
        ge=1,
        nullable=True,
        description="Character offset just after url_raw in papers.abstract_raw (exclusive); null for origin "
        "'listing'.",
    )
    origin: str = pa.Field(
        isin=URL_ORIGINS,
        description="Where the URL came from: 'abstract' (found in abstract_raw at start..end) or 'listing' (a "
        "link field of the listing record, papers.source_urls).",
    )

    class Config:
        strict = True

    @pa.dataframe_check
    @classmethod
    def span_ordered(cls, data: pa.PolarsData) -> pl.LazyFrame:
        """origin 'abstract' has start < end; origin 'listing' has neither."""
        abstract = pl.col("origin") == "abstract"
        return data.lazyframe.select(
            pl.when(abstract)
            .then((pl.col("start") < pl.col("end")).fill_null(False))
            .otherwise(pl.col("start").is_null() & pl.col("end").is_null())
        )


class PaperMetrics(pa.DataFrameModel):
    """``paper_metrics``: one row per reported result metric; ``start``/``end`` index ``papers.abstract``."""

    paper_id: str = _paper_ref_field()
    venue: str = _venue_field("The paper's venue. Hive partition column.")
    year: pl.Int64 = _year_field("The paper's year. Hive partition column.")
    value: pl.Float64 = pa.Field(
        nullable=True,
        description="The number as written in its unit (54% -> 54.0, 1.41x -> 1.41); null only for a range.",
    )
    value_text: str = pa.Field(
        str_length={"min_value": 1},
        description="The number's text as written.",
    )
    unit: str = pa.Field(
        nullable=True,
        isin=METRIC_UNITS,
        description="'%' (percent), 'pp' (percentage points), 'x' (multiplier), or null for a plain number.",
    )
    unit_text: str = pa.Field(
        nullable=True,
        description=(
            "The unit as written after the number ('%', 'percentage points', '×', 'ms', 'GB'); units with no "
            "class in unit (ms, GB, fps, ...) are kept only here."
        ),
    )
    kind: str = pa.Field(
        isin=METRIC_KINDS,
        description="score (a level), delta (absolute difference), relative_change, multiplier, before_after, range.",
    )
    value_from: pl.Float64 = pa.Field(
        nullable=True,
        description="For before_after: the value before (value is the value after).",
    )
    value_low: pl.Float64 = pa.Field(
        nullable=True,
        description="For range: the lower end.",
    )
    value_high: pl.Float64 = pa.Field(
        nullable=True,
        description="For range: the upper end.",
    )
    metric: str = pa.Field(
        nullable=True,
        description="What is measured, as the text names it (e.g. accuracy, BLEU, speedup), or null.",
    )
    metric_key: str = pa.Field(
        nullable=True,
        description=(
            "Grouping key of metric: NFKC, case-folded, a trailing 'score'/'metric' dropped, only letters, "
            "digits and @ kept ('F1 score', 'F_1' -> 'f1')."
        ),
    )
    dataset: str = pa.Field(
        nullable=True,
        description="Benchmark or dataset it is measured on, as named (e.g. ImageNet, GSM8K), or null.",
    )
    dataset_key: str = pa.Field(
        nullable=True,
        description=(
            "Grouping key of dataset: NFKC, case-folded, a trailing 'dataset'/'benchmark' dropped, only "
            "letters and digits kept ('CIFAR-10', 'CIFAR10', 'cifar-10' -> 'cifar10')."
        ),
    )
    subject: str = pa.Field(
        isin=SUBJECTS,
        description="Whose number: the paper's method ('ours') or a compared baseline.",
    )
    baseline: str = pa.Field(
        nullable=True,
        description="Name of the compared method when the text names it.",
    )
    direction: str = pa.Field(
        nullable=True,
        isin=DIRECTIONS,
        description="For deltas, changes and multipliers: which way the measured quantity moved.",
    )
    qualifier: str = pa.Field(
        nullable=True,
        description="Hedge before the number (up to, over, at least, about, ...).",
    )
    span: str = pa.Field(
        str_length={"min_value": 1},
        description="Shortest text of the clean abstract holding the number and its unit.",
    )
    start: pl.Int64 = pa.Field(
        ge=0,
        description="Character offset of span in papers.abstract (0-based, inclusive).",
    )
    end: pl.Int64 = pa.Field(
        ge=1,
        description="Character offset just after span in papers.abstract (exclusive).",
    )
    rules: Annotated[pl.List, pl.String()] = pa.Field(
        description="Names of the extraction rules that decided this row (pipeline.analyse.extraction.rules lists them).",
    )

    class Config:
        strict = True

    @pa.dataframe_check
    @classmethod
    def value_or_range(cls, data: pa.PolarsData) -> pl.LazyFrame:
        """A row has a value, or (kind range) both value_low and value_high."""
        return data.lazyframe.select(
            pl.col("value").is_not_null()
            | (pl.col("value_low").is_not_null() & pl.col("value_high").is_not_null())
        )

    @pa.dataframe_check
    @classmethod
    def non_negative_levels(cls, data: pa.PolarsData) -> pl.LazyFrame:
        """A multiplier is positive and a percentage score is not negative (deltas may be negative)."""
        v, unit, kind = pl.col("value"), pl.col("unit"), pl.col("kind")
        bad = ((kind == "multiplier") & (v <= 0)) | ((kind == "score") & (unit == "%") & (v < 0))
        return data.lazyframe.select(~bad.fill_null(False))

    @pa.dataframe_check
    @classmethod
    def before_after_has_from(cls, data: pa.PolarsData) -> pl.LazyFrame:
        """kind before_after carries value_from."""
        return data.lazyframe.select((pl.col("kind") != "before_after") | pl.col("value_from").is_not_null())


class ListingLineage(pa.DataFrameModel):
    """``listing_lineage``: one row per record read from every listing (rows in = rows out).

    ``paragraph`` 0 stands for a whole listing that could not be read (quarantined with the reason).
    """

    listing: str = pa.Field(
        str_length={"min_value": 1},
        description="Listing file name (path relative to the raw folder).",
    )
    venue: str = _venue_field("Venue of the listing. Hive partition column.")
    year: pl.Int64 = _year_field("Year of the listing. Hive partition column.")
    paragraph: pl.Int64 = pa.Field(
        ge=0,
        description="1-based record number in the listing; 0 for a listing that could not be read.",
    )
    line: pl.Int64 = pa.Field(
        ge=0,
        description="Line of the file where the record starts (1-based; 0 for an unreadable listing and for "
        "records of a JSON document, whose position is their index).",
    )
    reader: str = pa.Field(
        nullable=True,
        description="The reader that read the listing (seed_text, separated_text, pdf_first_page, csv, json, jsonl, "
        "feed, xml, yaml, front_matter, markdown, markdown_table, bibtex); null when no reader could read it.",
    )
    reader_coverage: pl.Float64 = pa.Field(
        nullable=True,
        ge=0.0,
        le=1.0,
        description="Share of the listing's text (characters of its non-blank lines) that the reader's reading "
        "explains: lines of its records or of parts it recognises as not records (header, preamble, "
        "separators); the reading that explains the most wins. Null when no reader could read the listing.",
    )
    reader_runner_up: str = pa.Field(
        nullable=True,
        description="The best other reading of the listing as '<reader> <coverage>' (e.g. 'seed_text 0.41'); "
        "null when no other reader applied or none could read it.",
    )
    position: pl.Int64 = pa.Field(
        ge=0,
        description="Where the record is, in the reader's unit: its first line (text shapes, JSON Lines), its "
        "1-based data row (CSV/TSV, header not counted) or its 0-based index (JSON); 0 for an "
        "unreadable listing.",
    )
    raw_sha256: str = pa.Field(
        str_matches=r"^[0-9a-f]{64}$",
        description="sha256 (hex) of the paragraph's raw text.",
    )
    status: str = pa.Field(
        isin=LINEAGE_STATUSES,
        description="published (the canonical copy), duplicate (merged into another paragraph) or quarantined.",
    )
    paper_id: str = pa.Field(
        nullable=True,
        str_matches=PAPER_ID_PATTERN,
        description="The paper this paragraph became or was merged into; null when quarantined.",
    )
    duplicate_of: str = pa.Field(
        nullable=True,
        description="For duplicates: <listing>#<paragraph> of the published (canonical) copy.",
    )
    similarity: pl.Float64 = pa.Field(
        nullable=True,
        ge=0.0,
        le=1.0,
        description="For duplicates: 1.0 for an exact copy, else the verified Jaccard or containment similarity.",
    )
    reason: str = pa.Field(
        nullable=True,
        description="For quarantined paragraphs: why (the rule and, for undecodable files, the byte offset).",
    )

    class Config:
        strict = True
        unique = ["listing", "paragraph"]

    @pa.dataframe_check
    @classmethod
    def status_fields(cls, data: pa.PolarsData) -> pl.LazyFrame:
        """published/duplicate rows have a paper_id and no reason; quarantined rows a reason and no paper_id;
        duplicate rows name what they duplicate."""
        s = pl.col("status")
        return data.lazyframe.select(
            pl.when(s == "quarantined")
            .then(pl.col("reason").is_not_null() & pl.col("paper_id").is_null())
            .when(s == "duplicate")
            .then(pl.col("paper_id").is_not_null() & pl.col("duplicate_of").is_not_null())
            .otherwise(pl.col("paper_id").is_not_null() & pl.col("reason").is_null())
        )


_BENCHMARK_KEY_DOC = {
    "dataset_key": "The benchmark's dataset: paper_metrics.dataset_key of its results.",
    "metric_key": "The benchmark's metric: paper_metrics.metric_key of its results.",
    "unit": (
        "The unit of its values: paper_metrics.unit ('%', 'pp', 'x'), else its unit_text case-folded ('ms'), "
        "else null (a plain number). 85% and 0.85 are different benchmarks."
    ),
}


class Benchmarks(pa.DataFrameModel):
    """``benchmarks``: one row per benchmark, a (dataset_key, metric_key, unit) on which at least two papers
    report a result of their own method (paper_metrics rows with subject ours and kind score; rules:
    pipeline.build.benchmarks). One file, not Hive-partitioned: a benchmark spans venues and years."""

    dataset_key: str = pa.Field(str_length={"min_value": 1}, description=_BENCHMARK_KEY_DOC["dataset_key"])
    metric_key: str = pa.Field(str_length={"min_value": 1}, description=_BENCHMARK_KEY_DOC["metric_key"])
    unit: str = pa.Field(nullable=True, description=_BENCHMARK_KEY_DOC["unit"])
    dataset: str = pa.Field(description="The most frequent spelling of the dataset among its results.")
    metric: str = pa.Field(description="The most frequent spelling of the metric among its results.")
    direction: str = pa.Field(
        isin=BENCHMARK_DIRECTIONS,
        description="Which value is better: higher, lower, or unknown (the metric is in no rule of "
        "pipeline.analyse.extraction.vocabulary.metric_directions; then nothing is ranked).",
    )
    papers: pl.Int64 = pa.Field(ge=2, description="Distinct papers with a result on it.")
    results: pl.Int64 = pa.Field(ge=2, description="Its rows in benchmark_results.")
    best_value: pl.Float64 = pa.Field(
        nullable=True, description="The best value (rank 1); null when direction is unknown."
    )
    best_value_text: str = pa.Field(nullable=True, description="The best value as written.")
    best_paper_id: str = pa.Field(
        nullable=True,
        str_matches=PAPER_ID_PATTERN,
        description="The paper of the best value (ties: the earliest known year, then paper_id).",
    )
    best_title: str = pa.Field(nullable=True, description="That paper's title, when the listing gives one.")
    best_venue: str = pa.Field(nullable=True, description="That paper's venue.")
    best_year: pl.Int64 = pa.Field(
        nullable=True, ge=0, le=2100, description="That paper's year (0: unknown)."
    )
    first_year: pl.Int64 = pa.Field(
        nullable=True, ge=1980, le=2100, description="Earliest known year of a result."
    )
    last_year: pl.Int64 = pa.Field(
        nullable=True, ge=1980, le=2100, description="Latest known year of a result."
    )

    class Config:
        strict = True
        unique = ["dataset_key", "metric_key", "unit"]

    @pa.dataframe_check
    @classmethod
    def best_when_ranked(cls, data: pa.PolarsData) -> pl.LazyFrame:
        """A best value and paper exactly when the direction is known; results >= papers; first <= last year."""
        known = pl.col("direction") != "unknown"
        return data.lazyframe.select(
            (known == (pl.col("best_value").is_not_null() & pl.col("best_paper_id").is_not_null()))
            & (pl.col("results") >= pl.col("papers"))
            & (pl.col("first_year") <= pl.col("last_year")).fill_null(True)
        )


class BenchmarkResults(pa.DataFrameModel):
    """``benchmark_results``: one row per result of a paper's own method on a benchmark of ``benchmarks``; each
    is the paper_metrics row of the same release with the same paper_id, start and end (a blocking check
    traces it) and span = papers.abstract[start:end]. One file, not Hive-partitioned (venue and year are
    ordinary columns): ranks are global across venues."""

    dataset_key: str = pa.Field(str_length={"min_value": 1}, description=_BENCHMARK_KEY_DOC["dataset_key"])
    metric_key: str = pa.Field(str_length={"min_value": 1}, description=_BENCHMARK_KEY_DOC["metric_key"])
    unit: str = pa.Field(nullable=True, description=_BENCHMARK_KEY_DOC["unit"])
    rank: pl.Int64 = pa.Field(
        nullable=True,
        ge=1,
        description="1 = best; equal values share a rank (1, 1, 3); null when the direction is unknown.",
    )
    paper_id: str = _paper_ref_field()
    title: str = pa.Field(nullable=True, description="The paper's title (papers.title), when given.")
    venue: str = _venue_field("The paper's venue (an ordinary column here, not a Hive partition).")
    year: pl.Int64 = _year_field("The paper's year (0: unknown).")
    value: pl.Float64 = pa.Field(description="The value as written in its unit (paper_metrics.value).")
    value_text: str = pa.Field(str_length={"min_value": 1}, description="The number's text as written.")
    unit_text: str = pa.Field(nullable=True, description="The unit as written (paper_metrics.unit_text).")
    metric: str = pa.Field(description="The metric as this abstract names it (paper_metrics.metric).")
    dataset: str = pa.Field(description="The dataset as this abstract names it (paper_metrics.dataset).")
    qualifier: str = pa.Field(
        nullable=True, description="Hedge before the number (about, nearly, ...), or null."
    )
    span: str = pa.Field(
        str_length={"min_value": 1}, description="papers.abstract[start:end] (paper_metrics.span)."
    )
    start: pl.Int64 = pa.Field(ge=0, description="paper_metrics.start of the row it comes from.")
    end: pl.Int64 = pa.Field(ge=1, description="paper_metrics.end of the row it comes from.")

    class Config:
        strict = True
        unique = ["dataset_key", "metric_key", "unit", "paper_id", "start", "end"]


MODELS: dict[str, type[pa.DataFrameModel]] = {
    "papers": Papers,
    "paper_urls": PaperUrls,
    "paper_metrics": PaperMetrics,
    "listing_lineage": ListingLineage,
    "benchmarks": Benchmarks,
    "benchmark_results": BenchmarkResults,
}


def validate(df: pl.DataFrame | pl.LazyFrame, model: type[pa.DataFrameModel]) -> pl.DataFrame | None:
    """Validate a collected DataFrame against ``model`` with every check (lazy: all failures at once).

    Returns ``None`` when valid, else the failure cases as a DataFrame with columns ``failure_case`` (str),
    ``schema_context``, ``column``, ``check`` (the rule), ``check_number`` and ``index`` (row number).

    A LazyFrame is collected first: Pandera would run only schema-level checks on it.
    """
    if isinstance(df, pl.LazyFrame):
        df = df.collect()
    try:
        model.validate(df, lazy=True)
    except SchemaErrors as e:
        return e.failure_cases
    return None
