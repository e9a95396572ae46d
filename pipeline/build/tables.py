"""The published tables, built from all listings' abstract rows and the duplicate clusters (docs/design.md,
"Published tables").

Vectorised polars only: no Python loop over rows here.
"""

from __future__ import annotations

import polars as pl

from pipeline.analyse.extraction import METRIC_FIELDS, URL_FIELDS
from pipeline.analyse.quarantine import repeated_notices
from pipeline.build.dedup import identity_key

RULES_VERSION = "2"  # bump when outputs change (docs/execution.md)

#: URL kinds that mean "the paper releases code" (papers.has_code).
CODE_KINDS = ("code", "anonymous_code")

PAPER_COLUMNS = [
    "paper_id",
    "venue",
    "year",
    "title",
    "authors",
    "abstract",
    "abstract_raw",
    "language",
    "language_score",
    "n_words",
    "n_urls",
    "n_metrics",
    "has_code",
    "first_release",
    "last_changed_release",
    "n_sources",
    "source_listing",
    "source_id",
    "source_status",
    "source_urls",
    "content_hash",
]
#: ``origin``: ``abstract`` (found in abstract_raw, start/end set) or ``listing`` (a link the listing file
#: gives outside the abstract, papers.source_urls; start/end null). ``repo``: the repository a link belongs
#: to.
URL_COLUMNS = ["paper_id", "venue", "year", *URL_FIELDS, "origin"]
METRIC_COLUMNS = ["paper_id", "venue", "year", *METRIC_FIELDS]
LINEAGE_COLUMNS = [
    "listing",
    "venue",
    "year",
    "paragraph",
    "line",
    "reader",
    "reader_coverage",
    "reader_runner_up",
    "position",
    "raw_sha256",
    "status",
    "paper_id",
    "duplicate_of",
    "similarity",
    "reason",
]


def _listing_url_kind(url: str) -> str:
    """URL kind of a listing link (pipeline.analyse.extraction.urls.host_kind on its normalised form)."""
    from urllib.parse import urlsplit

    from pipeline.analyse.extraction.urls import host_kind, normalize_url

    parts = urlsplit(normalize_url(url))
    kind = host_kind(parts.netloc, parts.path)
    return "project_page" if kind == "other" else kind


def listing_urls(canon: pl.DataFrame) -> pl.DataFrame:
    """``paper_urls`` rows (:data:`URL_COLUMNS`, ``origin`` = ``listing``, start/end null) for the links the
    listing files give outside the abstracts (``source_urls`` of the published rows). The kind comes from the
    host (pipeline.analyse.extraction.urls.host_kind); a link no host rule knows is the paper's project
    page."""
    from urllib.parse import urlsplit

    from pipeline.analyse.extraction.urls import normalize_url, repo_of

    rows = (
        canon.select("paper_id", "venue", "year", pl.col("source_urls").alias("url_raw"))
        .explode("url_raw")
        .drop_nulls("url_raw")
    )
    raws = rows["url_raw"].unique().sort().to_list()
    norm = {u: normalize_url(u) for u in raws}
    return rows.with_columns(
        url=pl.col("url_raw").replace_strict(norm, return_dtype=pl.String),
        kind=pl.col("url_raw").replace_strict(
            {u: _listing_url_kind(u) for u in raws}, return_dtype=pl.String
        ),
        host=pl.col("url_raw").replace_strict(
            {u: urlsplit(n).netloc for u, n in norm.items()}, return_dtype=pl.String
        ),
        repo=pl.col("url_raw").replace_strict(
            {u: repo_of(n) for u, n in norm.items()}, return_dtype=pl.String
        ),
        start=pl.lit(None, pl.Int64),
        end=pl.lit(None, pl.Int64),
        origin=pl.lit("listing"),
    ).select(URL_COLUMNS)


#: Columns of the abstracts work files that the duplicate clusters need (pipeline.build.dedup.cluster, with
#: the identity key's source_id and title) plus what the repeated-notice rule reads: the narrow projection the
#: tables step clusters on, so the wide columns (abstract_raw, URLs, metrics) are never copied by it.
CLUSTER_COLUMNS = (
    "listing",
    "paragraph",
    "year",
    "abstract",
    "content_hash",
    "n_words",
    "raw_sha256",
    "lsh_keys",
    "source_id",
    "title",
    "quarantine_reason",
)


def with_notices(abstracts: pl.DataFrame) -> pl.DataFrame:
    """``abstracts`` with ``quarantine_reason`` set by pipeline.analyse.quarantine.repeated_notices, computed
    on the three columns that rule reads (listing, content_hash, quarantine_reason) so the other columns are
    not copied. Same rows, same order."""
    flags = repeated_notices(abstracts.select("listing", "content_hash", "quarantine_reason"))
    return abstracts.with_columns(flags["quarantine_reason"])


def publishable(abstracts: pl.DataFrame) -> pl.DataFrame:
    """Rows of the abstracts frame that are not quarantined, per listing or across listings
    (pipeline.analyse.quarantine.repeated_notices)."""
    return with_notices(abstracts).filter(pl.col("quarantine_reason").is_null())


def previous_id_map(
    papers: pl.DataFrame | pl.LazyFrame | None,
    lineage: pl.DataFrame | pl.LazyFrame | None,
    with_texts: bool = True,
) -> pl.DataFrame | None:
    """The previous release's identity, for :func:`pipeline.build.dedup.cluster`.

    Returns ``key`` (str: a paper's content_hash, or a raw_sha256 of any lineage row with a paper) →
    ``paper_id`` (str), plus, when ``with_texts``, ``abstract`` (str: the paper's canonical clean text on
    its content_hash row, null on raw_sha256 rows; used to keep the id of a paper whose original listing
    was removed but a near or truncated copy remains; without it, cluster reads the few texts it needs from
    the previous papers' scan). One row per key, sorted by key; ``None`` when there is no previous release.
    Lazy inputs are read for these columns only.
    """
    if papers is None:
        return None
    papers = papers.lazy()
    names = papers.collect_schema().names()
    text = [pl.col("abstract")] if with_texts else []
    no_text = [pl.lit(None, pl.String).alias("abstract")] if with_texts else []
    parts = [papers.select(pl.col("content_hash").alias("key"), "paper_id", *text)]
    if "source_id" in names and "title" in names:  # releases before titles lack them
        parts.append(papers.select(identity_key().alias("key"), "paper_id", *no_text).drop_nulls("key"))
    if lineage is not None:
        parts.append(
            lineage.lazy()
            .filter(pl.col("paper_id").is_not_null())
            .select(pl.col("raw_sha256").alias("key"), "paper_id", *no_text)
        )
    return pl.concat(parts).unique("key", keep="first", maintain_order=True).sort("key").collect()


def notices(abstracts: pl.DataFrame) -> pl.DataFrame:
    """``listing``, ``paragraph``, ``quarantine_reason`` of every row of ``abstracts`` after the
    repeated-notice rule (:func:`with_notices`): the rule counts copies across listings, so the tables step
    computes it once over every listing and hands it to :func:`build_tables` part by part."""
    return with_notices(abstracts.select("listing", "paragraph", "content_hash", "quarantine_reason")).select(
        "listing", "paragraph", "quarantine_reason"
    )


#: Record fields a paper takes from another copy of its duplicate cluster when its canonical row has none:
#: the canonical row is chosen by its text (most complete, then most recent), and a copy from an
#: abstracts-only listing (seed text, a plain dump) must not blank the title and authors another listing
#: gave for the same paper.
FILLED_FIELDS = ("title", "authors")
#: Columns :func:`fills` reads from the abstract rows.
FILL_COLUMNS = ("listing", "paragraph", "year", "n_words", *FILLED_FIELDS)


def fills(abstracts: pl.DataFrame, clusters: pl.DataFrame) -> pl.DataFrame:
    """For each paper whose canonical row lacks a field of :data:`FILLED_FIELDS` that another copy of its
    cluster has: ``paper_id`` and the fields (str; null where no copy has one), taken from the copy that
    has it and comes first by year (most recent), words (most), listing (last by name), paragraph (first)
    — the canonical order of pipeline.build.dedup.cluster without its completeness test.

    ``abstracts``: :data:`FILL_COLUMNS` of the rows ``clusters`` (pipeline.build.dedup.cluster) covers (other
    rows are ignored). Returns the papers needing a fill only; sorted by paper_id."""
    members = abstracts.select(FILL_COLUMNS).join(
        clusters.select("listing", "paragraph", "paper_id", "status"), on=["listing", "paragraph"]
    )
    need = members.filter(
        pl.col("status") == "published", pl.any_horizontal(pl.col(f).is_null() for f in FILLED_FIELDS)
    ).select("paper_id", *[pl.col(f).alias(f"_own_{f}") for f in FILLED_FIELDS])
    out = need.select("paper_id")
    if need.height:
        donors = members.join(need, on="paper_id", how="semi").filter(pl.col("status") == "duplicate")
        for f in FILLED_FIELDS:
            best = (
                donors.filter(pl.col(f).is_not_null())
                .sort(["year", "n_words", "listing", "paragraph"], descending=[True, True, True, False])
                .group_by("paper_id", maintain_order=True)
                .agg(pl.col(f).first())
            )
            out = out.join(best, on="paper_id", how="left", maintain_order="left")
        out = (
            out.join(need, on="paper_id", maintain_order="left")
            .filter(
                pl.any_horizontal(
                    pl.col(f"_own_{f}").is_null() & pl.col(f).is_not_null() for f in FILLED_FIELDS
                )
            )
            .select("paper_id", *[pl.coalesce(f"_own_{f}", f).alias(f) for f in FILLED_FIELDS])
        )
    else:
        out = need.select("paper_id", *[pl.col(f"_own_{f}").alias(f) for f in FILLED_FIELDS])
    return out.sort("paper_id")


def _filled_canon(canon: pl.DataFrame, filled: pl.DataFrame) -> pl.DataFrame:
    """The canonical rows with each of FILLED_FIELDS that is null taken from ``filled`` (:func:`fills`)."""
    if not filled.height:
        return canon
    return canon.join(
        filled.rename({f: f"_fill_{f}" for f in FILLED_FIELDS}),
        on="paper_id",
        how="left",
        maintain_order="left",
    ).with_columns(*[pl.coalesce(f, f"_fill_{f}").alias(f) for f in FILLED_FIELDS])


def _paper_rows(canon: pl.DataFrame) -> pl.DataFrame:
    """``papers`` (PAPER_COLUMNS, by paper_id) from the canonical rows; ``has_code`` False (set from
    ``paper_urls`` by the caller), the history columns null."""
    return (
        canon.with_columns(
            (pl.col("urls").list.len() + pl.col("source_urls").list.len().fill_null(0))
            .cast(pl.Int64)
            .alias("n_urls"),
            pl.col("metrics").list.len().cast(pl.Int64).alias("n_metrics"),
            pl.lit(False).alias("has_code"),  # from paper_urls (abstract and listing links)
            pl.lit(None, pl.Int64).alias("first_release"),
            pl.lit(None, pl.Int64).alias("last_changed_release"),
            pl.col("listing").alias("source_listing"),
        )
        .select(PAPER_COLUMNS)
        .sort("paper_id")
    )


def _url_rows(canon: pl.DataFrame) -> pl.DataFrame:
    """``paper_urls`` (URL_COLUMNS): the abstracts' URLs (origin ``abstract``) and the listings' links
    (:func:`listing_urls`), by paper_id, origin, start, end, url (nulls last)."""
    return pl.concat(
        [
            canon.select("paper_id", "venue", "year", "urls")
            .explode("urls")
            .drop_nulls("urls")
            .unnest("urls")
            .with_columns(origin=pl.lit("abstract"))
            .select(URL_COLUMNS),
            listing_urls(canon),
        ]
    ).sort("paper_id", "origin", "start", "end", "url", nulls_last=True)


def _metric_rows(canon: pl.DataFrame) -> pl.DataFrame:
    """``paper_metrics`` (METRIC_COLUMNS) by paper_id, start, end, kind, value_text."""
    return (
        canon.select("paper_id", "venue", "year", "metrics")
        .explode("metrics")
        .drop_nulls("metrics")
        .unnest("metrics")
        .select(METRIC_COLUMNS)
        .sort("paper_id", "start", "end", "kind", "value_text")
    )


def _lineage_rows(joined: pl.DataFrame) -> pl.DataFrame:
    """``listing_lineage`` of every row (status ``quarantined`` when it has a quarantine reason, else its
    cluster status), by listing and paragraph."""
    return joined.select(
        "listing",
        "venue",
        "year",
        "paragraph",
        "line",
        "reader",
        "reader_coverage",
        "reader_runner_up",
        "position",
        "raw_sha256",
        pl.when(pl.col("quarantine_reason").is_not_null())
        .then(pl.lit("quarantined"))
        .otherwise(pl.col("status"))
        .alias("status"),
        "paper_id",
        "duplicate_of",
        "similarity",
        pl.col("quarantine_reason").alias("reason"),
    ).sort("listing", "paragraph")


def build_tables(
    abstracts: pl.DataFrame,
    clusters: pl.DataFrame,
    notices: pl.DataFrame | None = None,
    filled: pl.DataFrame | None = None,
) -> dict[str, pl.DataFrame]:
    """Build ``papers``, ``paper_urls``, ``paper_metrics`` and ``listing_lineage``.

    Args:
        abstracts: every listing's rows (pipeline.analyse.abstracts.ABSTRACT_SCHEMA), quarantined ones
        included; or
            the rows of one venue and year (one partition of every table: a paper's venue and year are its
            canonical row's) when ``notices`` is given.
        clusters: :func:`pipeline.build.dedup.cluster` over the publishable rows (all of them: rows of other
            partitions are not used).
        notices: :func:`notices` over every listing's rows; ``None``: computed from ``abstracts``.
        filled: :func:`fills` over every listing's rows (the papers' title/authors from other copies);
            ``None``: computed from ``abstracts``.

    Returns:
        a dict of the four tables (and venue/year in each). The papers' history columns
        (first_release, last_changed_release: Int64) are null here: they depend on the release this
        becomes, and :meth:`pipeline.release.ReleasePlan.stamp` fills them.
    """
    flagged = (
        with_notices(abstracts)
        if notices is None
        else abstracts.drop("quarantine_reason").join(
            notices, on=["listing", "paragraph"], how="left", maintain_order="left"
        )
    )
    joined = flagged.join(clusters, on=["listing", "paragraph"], how="left", maintain_order="left")
    canon = _filled_canon(
        joined.filter(pl.col("status") == "published"),
        fills(abstracts, clusters) if filled is None else filled,
    )
    urls = _url_rows(canon)
    with_code = urls.filter(pl.col("kind").is_in(CODE_KINDS))["paper_id"].unique().implode()
    papers = _paper_rows(canon).with_columns(has_code=pl.col("paper_id").is_in(with_code))
    return {
        "papers": papers.select(PAPER_COLUMNS),
        "paper_urls": urls,
        "paper_metrics": _metric_rows(canon),
        "listing_lineage": _lineage_rows(joined).select(LINEAGE_COLUMNS),
    }
