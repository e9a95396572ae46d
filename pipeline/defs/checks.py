"""The asset check results of the dataset step (pipeline.defs.assets.dataset_tables): Dagster code only, the
rules they report are pure functions elsewhere (Pandera models, pipeline.release.dataset.accounting,
pipeline.build.benchmarks.untraced, pipeline.ingest.listings.quarantined_whole)."""

from __future__ import annotations

import dagster as dg
import polars as pl

from pipeline.defs.io import markdown_table
from pipeline.ingest import rawfiles
from schemas import MODELS


def schema_check(table: str, failures: pl.DataFrame | None, rows: int) -> dg.AssetCheckResult:
    """The blocking ``schema`` check of ``table``: passed with its ``rows``, or the Pandera ``failures``
    (columns column, check, ...) counted by rule, the first 50 as a markdown table."""
    if failures is None:
        return dg.AssetCheckResult(asset_key=table, check_name="schema", passed=True, metadata={"rows": rows})
    shown = failures.head(50)
    return dg.AssetCheckResult(
        asset_key=table,
        check_name="schema",
        passed=False,
        metadata={
            "failures": failures.height,
            "by_rule": dg.MetadataValue.json(
                {
                    f"{c}: {k}": n
                    for c, k, n in failures.group_by("column", "check").len().sort("len").iter_rows()
                }
            ),
            "failing_rows": dg.MetadataValue.md(markdown_table(shown, len(shown))),
        },
        description=f"{failures.height} rows break the {MODELS[table].__name__} model",
    )


def accounting_check(context: dg.AssetExecutionContext, acct: pl.DataFrame) -> dg.AssetCheckResult:
    """Log the accounting (pipeline.release.dataset.accounting) and make its check result."""
    bad = acct.filter(~pl.col("ok"))
    # one log event for all listings (one event per listing costs ~2 ms each in the run's event log)
    context.log.info(
        "paragraphs per listing -> published, duplicate, quarantined:\n"
        + "\n".join(
            f"{listing}: {read} -> {pub}, {dup}, {quar}"
            for listing, read, pub, dup, quar, _ in acct.sort("listing").iter_rows()
        )
    )
    return dg.AssetCheckResult(
        asset_key="listing_lineage",
        check_name="accounting",
        passed=bad.height == 0,
        metadata={
            "listings": acct.height,
            "paragraphs": int(acct["read"].sum()),
            "not_adding_up": dg.MetadataValue.md(markdown_table(bad, 50)) if bad.height else "none",
            "by_listing": dg.MetadataValue.md(markdown_table(acct.sort("listing"), 50)),
        },
    )


def listings_read_check(whole: list[tuple[str, str]]) -> dg.AssetCheckResult:
    """The non-blocking ``listings_read`` check: WARN with the files quarantined whole, ``(listing, reason)``,
    in the lines ``python -m pipeline run`` ends with when it exits 4 (rawfiles.quarantine_summary)."""
    lines = rawfiles.quarantine_summary(whole, 50)
    return dg.AssetCheckResult(
        asset_key="listing_lineage",
        check_name="listings_read",
        passed=not whole,
        severity=dg.AssetCheckSeverity.WARN,
        metadata={
            "quarantined_whole": len(whole),
            "files": dg.MetadataValue.md("\n".join(lines)) if lines else "none",
        },
    )


def traces_check(untraced: pl.DataFrame, rows: int) -> dg.AssetCheckResult:
    """The ``traces`` check of benchmark_results (pipeline.build.benchmarks.untraced)."""
    return dg.AssetCheckResult(
        asset_key="benchmark_results",
        check_name="traces",
        passed=untraced.height == 0,
        metadata={
            "results": rows,
            "untraced": untraced.height,
            "untraced_rows": dg.MetadataValue.md(markdown_table(untraced, 50)) if untraced.height else "none",
        },
    )
