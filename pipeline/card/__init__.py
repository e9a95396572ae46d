"""Each release explains itself (docs/design.md, "Releases"; docs/releases.md): dataset card, data
dictionary, Croissant metadata and charts. Stage 4 of the flow, before :mod:`pipeline.release` because a
release embeds its card; where each rule lives: docs/design.md, "Where each rule lives".

:func:`write_release_documents` is called by ``pipeline.release`` while a release is staged, before its
``manifest.json`` is written, and puts into the release folder::

    README.md              the dataset card (pipeline.card.readme)
    data_dictionary.json   every table and column, from the Pandera models (pipeline.card.dictionary)
    croissant.json         MLCommons Croissant 1.0 metadata (pipeline.card.croissant)
    charts/*.png           the charts (pipeline.card.charts)

Everything is a function of the tables, the changelog and the manifest (whose ``created_at`` is the only
time in it), so equal inputs give byte-identical documents. :func:`release_metadata_markdown` shows a
release's charts in the Dagster UI (markdown metadata of the ``release`` asset).

This package imports nothing from ``pipeline.release`` (which imports it).
"""

from __future__ import annotations

import base64
import hashlib
import json
from collections.abc import Callable
from pathlib import Path

import polars as pl

from pipeline.card import chart_cache, charts, summary
from pipeline.card.croissant import croissant
from pipeline.card.dictionary import data_dictionary
from pipeline.card.readme import DATASET_DESCRIPTION, DATASET_NAME, LICENSE_TEXT, card_markdown, cite_as
from pipeline.runtime import parallel

#: Columns that no document of the card reads: the release step leaves them out of the tables it hands to
#: the card (the papers' texts are most of a release's bytes); summary.conform adds them back as nulls.
UNREAD_COLUMNS = {"papers": ("abstract", "abstract_raw", "title", "authors")}

CARD_FILE = "README.md"
DICTIONARY_FILE = "data_dictionary.json"
CROISSANT_FILE = "croissant.json"
CHARTS_DIR = "charts"


def _json(obj) -> str:
    return json.dumps(obj, indent=2, ensure_ascii=False) + "\n"


def chart_inputs(
    tables: dict[str, pl.DataFrame],
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """The small frames the charts are drawn from: papers by venue/year, the most reported benchmarks (the
    card's benchmark table, summary.benchmark_bars), the reported improvements and the best value by year
    of the most reported benchmarks (pipeline.card.summary), computed from the tables in polars."""
    conformed = summary.conform(tables)
    return (
        summary.papers_by_venue_year(conformed["papers"]),
        summary.benchmark_bars(conformed["benchmarks"]),
        summary.improvements(conformed["paper_metrics"]),
        summary.best_by_year(conformed["benchmarks"], conformed["benchmark_results"]),
    )


def release_charts(tables: dict[str, pl.DataFrame]) -> dict[str, bytes]:
    """The release's charts (file name → PNG bytes) from its tables alone."""
    return charts.render_charts(*chart_inputs(tables))


def start_charts(
    tables: dict[str, pl.DataFrame], cache: Path | None = None
) -> Callable[[], dict[str, bytes]]:
    """Start drawing the release's charts; call the returned function for :func:`release_charts`' result.

    With warm workers (pipeline.runtime.parallel, ``python -m pipeline run``) one of them draws while the
    caller goes on (the publisher writes the table files meanwhile); without, the charts are drawn in this
    process when the function is called. A chart whose frame is unchanged since the charts kept in the
    folder ``cache`` is taken from there, not drawn (pipeline.card.chart_cache); the returned function
    leaves this release's charts in ``cache``. Either way the bytes are the same.
    """
    frames = charts.chart_frames(*chart_inputs(tables))
    keys = {name: chart_cache.chart_key(name, frame) for name, frame in frames.items()}
    found = chart_cache.lookup(cache, keys)
    todo = {name: frame for name, frame in frames.items() if name not in found}
    warm = parallel.executor()
    if warm is None or not todo:
        draw = lambda: charts.render_named(todo)  # noqa: E731
    else:  # a helper has matplotlib loaded; this process has not (loading it costs ~1.6 s)
        draw = warm[0].submit(charts.render_named, todo).result

    def done() -> dict[str, bytes]:
        drawn = draw()
        pngs = {name: found[name] if name in found else drawn[name] for name in charts.CHARTS}
        chart_cache.store(cache, keys, pngs)
        return pngs

    return done


def build_documents(
    tables: dict[str, pl.DataFrame],
    manifest: dict,
    changes: pl.DataFrame,
    pngs: dict[str, bytes] | Callable[[], dict[str, bytes]] | None = None,
) -> dict[str, bytes]:
    """Every document of a release: relative path → bytes (see the module docstring for the paths).

    Args:
        tables: the four published tables (docs/design.md, "Published tables"; each with ``venue`` and
        ``year``). manifest: the release's manifest as it stands before the documents are added (release,
        release_id,
            parent, created_at, code/schema version, inputs, changes, tables with rows/columns/files).
        changes: release.diff_papers' output for this release (paper_id, change, columns).
        pngs: :func:`release_charts` of the same tables when already drawn, or the function of
            :func:`start_charts` that returns them (called last, once the other documents are made),
            else drawn here.

    Raises:
        KeyError: a table of schemas.MODELS or a manifest key above is missing.
    """
    conformed = summary.conform(tables)
    dictionary = data_dictionary()
    docs = {
        CARD_FILE: card_markdown(conformed, manifest, changes, dictionary).encode(),
        DICTIONARY_FILE: _json(dictionary).encode(),
        CROISSANT_FILE: _json(
            croissant(
                manifest,
                dictionary,
                name=DATASET_NAME,
                description=DATASET_DESCRIPTION,
                license_text=LICENSE_TEXT,
                cite_as=cite_as(manifest),
            )
        ).encode(),
    }
    drawn = release_charts(tables) if pngs is None else pngs() if callable(pngs) else pngs
    docs.update({f"{CHARTS_DIR}/{name}": png for name, png in drawn.items()})
    return docs


def write_release_documents(
    stage: Path,
    tables: dict[str, pl.DataFrame],
    manifest: dict,
    changes: pl.DataFrame,
    pngs: dict[str, bytes] | Callable[[], dict[str, bytes]] | None = None,
) -> list[dict]:
    """Write :func:`build_documents` into the staged release folder ``stage``.

    Returns one manifest entry per document, sorted by path: ``{"path", "rows": None, "bytes", "sha256"}``,
    the shape of the manifest's ``files`` list (non-table files, checked by ``pipeline.release.verify``),
    which release.py extends with them.
    """
    entries = []
    for rel, data in sorted(build_documents(tables, manifest, changes, pngs).items()):
        path = Path(stage) / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        entries.append(
            {"path": rel, "rows": None, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()}
        )
    return entries


def release_metadata_markdown(release_dir: Path) -> str:
    """Markdown for the Dagster UI: the release's headline and its charts inlined as PNG data URIs
    (the UI cannot read files from the warehouse). Charts missing from the folder (a release made before
    the card existed) are skipped; with none, the text says so.
    """
    release_dir = Path(release_dir)
    manifest = json.loads((release_dir / "manifest.json").read_text())
    rows = ", ".join(f"{t} {info['rows']}" for t, info in manifest["tables"].items())
    out = [
        f"**Release {manifest['release']}** (`{manifest['release_id']}`, {manifest['created_at']}): {rows}. "
        f"Dataset card: `{release_dir / CARD_FILE}`.",
        "",
    ]
    shown = 0
    for name, title in charts.CHARTS.items():
        path = release_dir / CHARTS_DIR / name
        if path.exists():
            out += [f"![{title}](data:image/png;base64,{base64.b64encode(path.read_bytes()).decode()})", ""]
            shown += 1
    if not shown:
        out.append("No charts in this release folder.")
    return "\n".join(out)
