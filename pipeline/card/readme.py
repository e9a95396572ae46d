"""The dataset card: ``README.md`` of a release folder, generated from its tables and manifest.

A reader who opens ``release=N/`` learns in a minute what the dataset is, what this release holds (counts by
venue and year, code-link shares, languages, frequent URL hosts, metrics and benchmarks), what changed, how to
read it, every column's meaning and rules (the data dictionary) and where the inputs came from.
"""

from __future__ import annotations

import re
import unicodedata
from typing import cast

import polars as pl

from pipeline.card import summary
from pipeline.card.charts import CHARTS
from pipeline.card.dictionary import dictionary_markdown
from pipeline.card.hub import hub_metadata
from pipeline.ingest.readers.venues import UNKNOWN_VENUE
from pipeline.runtime import config

DATASET_NAME = "ml-conference-abstracts"
DATASET_TITLE = "ML-conference paper abstracts"
DATASET_DESCRIPTION = (
    "Abstracts of machine-learning conference papers, read from listing files of many shapes (paragraph "
    "text with a venue header, separated or labelled text dumps, PDF first pages, CSV/TSV, JSON and JSON "
    "Lines, XML and Atom feeds, markdown schedules and lists, BibTeX), with their titles, authors and "
    "source ids where the files give them, cleaned (LaTeX, markdown, Unicode), "
    "language-tagged and deduplicated (exact and near duplicates) under stable paper ids, with the URLs "
    "(code, project pages, datasets, ...) and the reported result metrics extracted from each abstract, the "
    "benchmarks they report on (best result, ranked results), and the fate of every raw paragraph "
    "(published, duplicate or quarantined). Hive-partitioned Parquet (venue, year), one immutable folder "
    "per release."
)
#: The project grants no licence of its own on the abstracts: they are the authors' text, published by the
#: venues. Set a licence here only once the inputs' terms allow one (a decision for the maintainers).
LICENSE_TEXT = (
    "No licence is granted by this project: each abstract remains under the terms of its authors and of the "
    "venue that published it. Check those terms before redistributing."
)
#: The project README's read one-liners ("Reading a release", between <!-- reads:start/end -->), written for
#: release 1; the card shows them with its own release number (tests/card/test_card.py keeps the two equal).
READ_LINES = """\
import duckdb, polars as pl, pandas as pd
latest = open("warehouse/LATEST").read().strip()
duck_latest = duckdb.sql(f"FROM read_parquet('warehouse/release={latest}/papers/**/*.parquet', hive_partitioning=true)")
duck_n = duckdb.sql("FROM read_parquet('warehouse/release=1/papers/**/*.parquet', hive_partitioning=true)")
pl_latest = pl.read_parquet(f"warehouse/release={latest}/papers/", hive_partitioning=True)
pl_n = pl.read_parquet("warehouse/release=1/papers/", hive_partitioning=True)
pd_latest = pd.read_parquet(f"warehouse/release={latest}/papers")
pd_n = pd.read_parquet("warehouse/release=1/papers")
"""


def licence_text() -> str:
    """The card's licence paragraph: with the default ``license: other``
    (pipeline.runtime.config.dataset_license) why there is none (:data:`LICENSE_TEXT`), else the licence
    the maintainers declared."""
    declared = config.dataset_license()
    if declared == "other":
        return f"The metadata says `license: other` because {LICENSE_TEXT[0].lower()}{LICENSE_TEXT[1:]}"
    return f"Licence: `{declared}`, declared by the maintainers who published this release."


def read_lines(number: int) -> str:
    """:data:`READ_LINES` with release 1 replaced by ``number``."""
    return READ_LINES.replace("release=1/", f"release={number}/")


def cite_as(manifest: dict) -> str:
    """One-line citation of a release (name, number, content id, date)."""
    return (
        f"{DATASET_TITLE} ({DATASET_NAME}), release {manifest['release']}, release_id "
        f"{manifest['release_id']}, {manifest['created_at'][:10]}."
    )


_SHORT_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escape_char(ch: str) -> str:
    if ch in _SHORT_ESCAPES:
        return _SHORT_ESCAPES[ch]
    if unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs"):
        code = ord(ch)
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"
    return ch


def inline_code(text: str) -> str:
    """``text`` (a file name, a value from the data) as one markdown code span that shows it literally and
    cannot break the card: line breaks, terminal escape codes and other control or invisible format
    characters (Unicode categories Cc, Cf, Zl, Zp, lone surrogates) are written as ``\\n``, ``\\x1b``,
    ``\\u202e``; backticks get a longer fence. Table cells still need ``|`` escaped (done by the tables)."""
    shown = "".join(_escape_char(ch) for ch in text)
    fence = "`" * (max((len(r) for r in re.findall(r"`+", shown)), default=0) + 1)
    pad = " " if shown.startswith("`") or shown.endswith("`") else ""
    return f"{fence}{pad}{shown}{pad}{fence}"


def _pct(x: float | None) -> str:
    return "–" if x is None else f"{100 * x:.1f} %"


def _table(header: list[str], rows: list[list]) -> list[str]:
    if not rows:
        return ["none in this release", ""]
    out = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    out += ["| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |" for r in rows]
    return out + [""]


def _top(title: str, df: pl.DataFrame, what: str) -> list[str]:
    return [f"### {title}", ""] + _table(
        [what, "rows"], [[inline_code(str(v)), n] for v, n in df.iter_rows()]
    )


def _year_span(papers: pl.DataFrame) -> str:
    """``year Y``, ``years Y1–Y2`` or ``years unknown`` over the papers' non-null, non-zero years."""
    years = sorted(y for y in papers["year"].unique().drop_nulls() if y)
    return (
        (f"year {years[0]}" if years[0] == years[-1] else f"years {years[0]}–{years[-1]}")
        if years
        else "years unknown"
    )


def _overview_lines(papers: pl.DataFrame, manifest: dict, by_v: pl.DataFrame) -> list[str]:
    """The title, the description and the two-column overview table (release, parent, counts, versions)."""
    n = manifest["release"]
    span = _year_span(papers)
    n_venues = by_v.filter(pl.col("venue") != UNKNOWN_VENUE).height
    n_unknown = papers.filter(pl.col("venue") == UNKNOWN_VENUE).height
    # "517: 397 from 3 venues and 120 of unknown venue": the total first, then its two parts
    known = f"{papers.height - n_unknown} from {n_venues} venue{'s' if n_venues != 1 else ''}"
    papers_line = f"{papers.height}: {known} and {n_unknown} of unknown venue" if n_unknown else known
    parent = manifest["parent"]
    return [
        f"# {DATASET_TITLE} — release {n}",
        "",
        DATASET_DESCRIPTION,
        "",
        "| | |",
        "|---|---|",
        f"| release | {n} (release_id `{manifest['release_id']}`, a digest of the tables' content) |",
        f"| created | {manifest['created_at']} |",
        f"| parent release | {parent if parent is not None else 'none (first release)'} |",
        f"| papers | {papers_line}, {span} |",
        f"| papers with a code link | {int(papers['has_code'].fill_null(False).sum())} "
        f"({_pct(cast(float, papers['has_code'].fill_null(False).mean()) if papers.height else None)}) |",
        "| rows per table | "
        + ", ".join(f"{t} {info['rows']}" for t, info in manifest["tables"].items())
        + " |",
        f"| code / schema version | {manifest['code_version']} / {manifest['schema_version']} |",
        "",
    ]


def _contents_lines(tables: dict[str, pl.DataFrame], by_v: pl.DataFrame) -> list[str]:
    """``## Contents``: papers by venue and year, code-link share by venue, by reader, by status, languages
    and the top URL hosts, metric names and datasets (:data:`pipeline.card.summary.TOP_N` each)."""
    papers, urls, metrics, lineage = (
        tables[t] for t in ("papers", "paper_urls", "paper_metrics", "listing_lineage")
    )
    by_vy = summary.papers_by_venue_year(papers)
    return [
        "## Contents",
        "",
        "### Papers by venue and year",
        "",
        *_table(
            ["venue", "year", "papers", "with a code link", "share with code"],
            [[v, y, p, w, _pct(s)] for v, y, p, w, s in by_vy.iter_rows()],
        ),
        "### Share of papers with a code link, by venue",
        "",
        "A paper has a code link when its abstract gives a URL of kind `code` or `anonymous_code` "
        "(`papers.has_code`).",
        "",
        *_table(
            ["venue", "papers", "with a code link", "share"],
            [[v, p, w, _pct(s)] for v, p, w, s in by_v.iter_rows()],
        ),
        "### Papers by reader",
        "",
        "How their listing files were read (`listing_lineage.reader`: the reading that explains the most of "
        "the file, or the reader a settings file named; `reader_coverage`: the share of a file it explains, "
        "the lowest of the reader's listings shown).",
        "",
        *_table(
            ["reader", "listings", "papers", "lowest coverage"],
            [
                [f"`{r}`", k, p, "–" if c is None else f"{c:.2f}"]
                for r, k, p, c in summary.papers_by_reader(lineage).iter_rows()
            ],
        ),
        "### Papers by status in their listing",
        "",
        "Decision or presentation type as the listing says (`papers.source_status`).",
        "",
        *_table(
            ["source status", "papers"],
            [
                [" ".join(str(st).split()).replace("|", "\\|"), p]
                for st, p in summary.papers_by_status(papers).iter_rows()
            ],
        ),
        "### Languages",
        "",
        *_table(
            ["language", "papers", "share"],
            [[f"`{lang}`", p, _pct(s)] for lang, p, s in summary.languages(papers).iter_rows()],
        ),
        *_top(f"Most frequent URL hosts (top {summary.TOP_N})", summary.top_values(urls, "host"), "host"),
        *_top(
            f"Most frequent metric names (top {summary.TOP_N})",
            summary.top_names(metrics, "metric", "metric_key"),
            "metric",
        ),
        *_top(
            f"Most frequent datasets in reported metrics (top {summary.TOP_N}, rows of `paper_metrics`, "
            "baselines included; the benchmarks are below)",
            summary.top_names(metrics, "dataset", "dataset_key"),
            "dataset",
        ),
        *_benchmark_lines(tables["benchmarks"]),
        "## Charts",
        "",
        *[line for f, title in CHARTS.items() for line in (f"![{title}](charts/{f})", "")],
    ]


def _benchmark_lines(benchmarks: pl.DataFrame) -> list[str]:
    """The most reported benchmarks (summary.most_reported) with their best result and its paper."""
    rows = [
        [
            inline_code(str(r["dataset"])),
            inline_code(str(r["metric"])),
            r["unit"] or "–",
            r["direction"],
            r["papers"],
            r["best_value_text"],
            " ".join(str(r["best_title"] or "(no title)").split())[:120],
            f"`{r['best_paper_id']}`",
            r["best_year"] or "–",
        ]
        for r in summary.most_reported(benchmarks).iter_rows(named=True)
    ]
    return [
        f"### Most reported benchmarks (top {summary.TOP_BENCHMARK_ROWS}, table `benchmarks`)",
        "",
        "A benchmark is a dataset, metric and unit on which at least two papers report a result of their "
        "own method (`benchmark_results` lists them, ranked); the best is the highest or lowest value as "
        'the metric\'s direction says. A number stated as a bound ("over 90%", "up to 95%") is not '
        "ranked or counted. Values are as the abstracts state them, not verified.",
        "",
        *_table(
            ["dataset", "metric", "unit", "better", "papers", "best", "best paper", "paper_id", "year"], rows
        ),
    ]


def _changes_lines(manifest: dict, changes: pl.DataFrame) -> list[str]:
    """``## Changes since the parent release``: the counts of the manifest's ``changes`` and the columns that
    changed, by number of papers."""
    parent = manifest["parent"]
    c = manifest["changes"]
    out = [
        "## Changes since the parent release",
        "",
        (f"Against release {parent}: " if parent is not None else "First release: every paper is new. ")
        + f"{c['added']} papers added, {c['removed']} removed, {c['changed']} changed. The ids are listed in "
        "`CHANGELOG.md` and `changelog.parquet` (paper_id, change, columns).",
        "",
    ]
    cols = summary.changed_columns(changes)
    if cols.height:
        out += [
            "Columns that changed, by number of papers: "
            + ", ".join(f"`{col}` {k}" for col, k in cols.iter_rows())
            + ".",
            "",
        ]
    return out


def _reading_lines(manifest: dict, dictionary: dict) -> list[str]:
    """``## How to read it``, ``## Data dictionary`` and the start of ``## Licence and provenance`` (up to the
    inputs table)."""
    n = manifest["release"]
    return [
        "## How to read it",
        "",
        "From the folder that holds `warehouse/` (the same lines as the project README, with this release's "
        f"number; `LATEST` names the newest release, `release={n}` stays as it is forever):",
        "",
        "```python",
        read_lines(n).rstrip("\n"),
        "```",
        "",
        "The same works for `paper_urls`, `paper_metrics` and `listing_lineage`, Hive-partitioned by `venue` "
        "and `year` (they live in the folder names, not inside the files), and for `benchmarks` and "
        "`benchmark_results`, one file each (a benchmark spans venues; `benchmark_results.venue` and `year` are "
        "ordinary columns). "
        "`croissant.json` describes the same tables for Croissant tools "
        '(`mlcroissant.Dataset("croissant.json").records("papers")`).',
        "",
        "The metadata block at the top of this file is the Hugging Face dataset-card format: "
        '`datasets.load_dataset("warehouse/release=' + str(n) + '", "papers")` (or `paper_urls`, '
        "`paper_metrics`, `listing_lineage`) reads one table as split `train`. It gives the columns stored "
        "in the files, without `venue` and `year`: `datasets` does not read Hive folder names (the readers "
        "above, and Spark, do); `papers.source_listing` and `listing_lineage.listing` name each row's listing.",
        "",
        "## Data dictionary",
        "",
        "Generated from the Pandera models in `schemas/models.py` that validate every release (blocking checks); "
        "also in `data_dictionary.json`.",
        "",
        dictionary_markdown(dictionary, "###"),
        "## Licence and provenance",
        "",
        licence_text(),
        "",
        "Cite as: " + cite_as(manifest),
        "",
        "Input listing files (sha256 of the file bytes) and what became of their paragraphs "
        "(`listing_lineage`):",
        "",
    ]


def _provenance_lines(manifest: dict, lineage: pl.DataFrame) -> list[str]:
    """The inputs table: each input listing (manifest order) with its sha256 and the fates of its paragraphs
    (:func:`pipeline.card.summary.listing_fates`; ``–`` for a listing without lineage rows)."""
    inputs = pl.DataFrame(
        {
            "listing": [i["listing"] for i in manifest["inputs"]],
            "sha256": [i["sha256"] for i in manifest["inputs"]],
        },
        schema={"listing": pl.String, "sha256": pl.String},
    )
    provenance = inputs.join(summary.listing_fates(lineage), on="listing", how="left", maintain_order="left")
    return _table(
        ["listing", "sha256", "venue", "year", "paragraphs", "published", "duplicate", "quarantined"],
        [
            [inline_code(r[0]), f"`{r[1]}`", *("–" if x is None else x for x in r[2:])]
            for r in provenance.iter_rows()
        ],
    )


def _files_lines(n: int) -> list[str]:
    """``## Files``: the files of release ``n``'s folder."""
    return [
        "## Files",
        "",
        "`manifest.json` (every file with bytes and sha256; `python -m pipeline verify "
        + str(n)
        + "` re-checks "
        "them), `CHANGELOG.md`, `changelog.parquet`, this `README.md`, `data_dictionary.json`, `croissant.json`, "
        "`charts/*.png`, and one folder per table.",
        "",
    ]


def card_markdown(
    tables: dict[str, pl.DataFrame], manifest: dict, changes: pl.DataFrame, dictionary: dict
) -> str:
    """The card of one release.

    Args:
        tables: the release's tables (after :func:`pipeline.card.summary.conform`).
        manifest: its manifest (release, release_id, parent, created_at, code/schema version, inputs, changes,
            tables with rows).
        changes: release.diff_papers' output (paper_id, change, columns).
        dictionary: :func:`pipeline.card.dictionary.data_dictionary`.

    Returns:
        markdown text (str), ending in a newline, opening with the Hugging Face metadata block
        (:func:`pipeline.card.hub.hub_metadata`). Raises ValueError for a bad ``PIPELINE_DATASET_LICENSE``.
    """
    papers = tables["papers"]
    by_v = summary.code_share_by_venue(papers)
    out = [hub_metadata(tables, DATASET_TITLE)] + _overview_lines(papers, manifest, by_v)
    out += _contents_lines(tables, by_v)
    out += _changes_lines(manifest, changes)
    out += _reading_lines(manifest, dictionary)
    out += _provenance_lines(manifest, tables["listing_lineage"])
    out += _files_lines(manifest["release"])
    return "\n".join(out)
