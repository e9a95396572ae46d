"""The release's charts as PNG bytes, drawn with matplotlib's Agg renderer (no pyplot, no display).

Each function takes a frame from :mod:`pipeline.card.summary` and returns PNG bytes. The bytes are
deterministic: Agg renders the bundled DejaVu fonts the same way every time and the PNG carries no
``Software`` (version) or date chunk (``metadata={"Software": None}``), so equal tables give equal files.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import TYPE_CHECKING, cast

import polars as pl

if TYPE_CHECKING:
    from matplotlib.figure import Figure

#: Resolution of every PNG (dots per inch); 100 keeps a chart around 20–60 kB, small enough to inline in the
#: Dagster UI as a data URI.
DPI = 100
#: Width of every chart in inches (800 px at :data:`DPI`).
WIDTH_IN = 8.0
#: Height per bar of the bar charts and the fixed part (title, axis), in inches: 0.3 in ≈ 30 px per bar
#: leaves room for a 10 pt label.
BAR_IN, BASE_IN = 0.3, 1.4
#: At most this many bars per chart; beyond it the largest groups are shown and the title says so (the
#: card's tables list every group).
MAX_BARS = 40
COLOR = "#4C72B0"
#: The improvements histograms stop at this quantile of the sizes (the title counts the rest): a few very
#: large reported changes ("2700%") would otherwise squeeze every other bar into the first bin.
HIST_QUANTILE = 0.95
FONT_SIZE = 10

#: File names (under ``charts/`` in the release) and what each shows; the card and the Dagster metadata
#: list them in this order.
CHARTS = {
    "papers_per_venue_year.png": "Papers per venue and year",
    "code_release_rate.png": "Share of papers with a code link, per venue and year",
    "top_benchmarks.png": "Most reported benchmarks: papers with a result of their own method",
    "improvements.png": "Changes the authors report for their method (pp and %)",
    "best_by_year.png": "Best reported value by year, most reported benchmarks",
}


def _figure(height_in: float) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg  # imported here: only when drawing
    from matplotlib.figure import Figure

    fig = Figure(figsize=(WIDTH_IN, height_in), dpi=DPI)
    FigureCanvasAgg(fig)
    return fig


def _margins(
    fig: Figure, left_px: float, *, bottom_px: float = 48, top_px: float = 34, right_px: float = 16, **kwargs
) -> None:
    """Place the axes with fixed margins in pixels. Cheaper than a layout engine ("constrained" draws the
    figure twice; the saving is measured by ``make bench``, docs/benchmarks.md "Speed and memory")."""
    w, h = fig.get_size_inches() * DPI
    fig.subplots_adjust(
        left=left_px / w, right=1 - right_px / w, bottom=bottom_px / h, top=1 - top_px / h, **kwargs
    )


def _text_px(fig: Figure, labels: list[str], size: float) -> float:
    """Width in pixels of the widest of ``labels`` at font ``size`` (Agg's own text metrics, no drawing)."""
    from matplotlib.font_manager import FontProperties

    # the figure's canvas is Agg's (FigureCanvasAgg.get_renderer); matplotlib types Figure.canvas as the base
    renderer, prop = fig.canvas.get_renderer(), FontProperties(size=size)  # type: ignore[attr-defined]
    return max(
        (renderer.get_text_width_height_descent(t, prop, ismath=False)[0] for t in labels), default=0.0
    )


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI, metadata={"Software": None})
    return buf.getvalue()


def _empty(title: str) -> bytes:
    fig = _figure(2.0)
    ax = fig.add_subplot()
    ax.set_title(title, fontsize=FONT_SIZE + 2)
    ax.text(
        0.5,
        0.5,
        "no rows in this release",
        ha="center",
        va="center",
        fontsize=FONT_SIZE,
        transform=ax.transAxes,
    )
    ax.set_axis_off()
    return _png(fig)


def _hbar(
    labels: list[str],
    values: list[float],
    texts: list[str],
    title: str,
    xlabel: str,
    xmax: float | None = None,
    counts: bool = True,
) -> bytes:
    """Horizontal bars, first label on top, each bar annotated with its text just right of its end."""
    fig = _figure(BASE_IN + BAR_IN * len(labels))
    _margins(fig, left_px=_text_px(fig, labels, FONT_SIZE) + 22)  # labels, tick marks and their padding
    ax = fig.add_subplot()
    y = list(range(len(labels)))
    ax.barh(y, values, color=COLOR, height=0.7)
    ax.set_yticks(y, labels, fontsize=FONT_SIZE)
    ax.invert_yaxis()
    top = xmax if xmax is not None else max(values) * 1.3 or 1.0
    ax.set_xlim(0, top)
    for yi, v, t in zip(y, values, texts):
        ax.text(v + top * 0.01, yi, t, va="center", fontsize=FONT_SIZE - 1)
    ax.set_title(title, fontsize=FONT_SIZE + 2)
    ax.set_xlabel(xlabel, fontsize=FONT_SIZE)
    ax.spines[["top", "right"]].set_visible(False)
    if counts:
        ax.xaxis.set_major_locator(_integer_locator())
    else:  # a share in %: ticks to 100, the room beyond is for the labels of full bars
        ax.set_xticks(range(0, 101, 20))
    return _png(fig)


def _largest(df: pl.DataFrame, by: str, title: str) -> tuple[pl.DataFrame, str]:
    if df.height <= MAX_BARS:
        return df, title
    kept = (
        df.sort([by, "venue", "year"], descending=[True, False, False]).head(MAX_BARS).sort("venue", "year")
    )
    return kept, f"{title} ({MAX_BARS} largest of {df.height})"


def papers_per_venue_year(by_venue_year: pl.DataFrame) -> bytes:
    """Bar per venue/year: number of papers. Input: summary.papers_by_venue_year."""
    title = CHARTS["papers_per_venue_year.png"]
    if by_venue_year.is_empty():
        return _empty(title)
    df, title = _largest(by_venue_year, "papers", title)
    return _hbar(
        [f"{v} {y}" for v, y in df.select("venue", "year").iter_rows()],
        df["papers"].to_list(),
        [str(n) for n in df["papers"]],
        title,
        "papers",
    )


def code_release_rate(by_venue_year: pl.DataFrame) -> bytes:
    """Bar per venue/year: % of papers with a code link, annotated "12.5 % (10 of 80)". Input as above."""
    title = CHARTS["code_release_rate.png"]
    if by_venue_year.is_empty():
        return _empty(title)
    df, title = _largest(by_venue_year, "papers", title)
    share = [100 * s for s in df["code_share"]]
    texts = [f"{s:.1f} % ({w} of {n})" for s, w, n in zip(share, df["with_code"], df["papers"])]
    return _hbar(
        [f"{v} {y}" for v, y in df.select("venue", "year").iter_rows()],
        share,
        texts,
        title,
        "papers with a code link (%)",
        xmax=135.0,
        counts=False,
    )


def top_benchmarks(top: pl.DataFrame) -> bytes:
    """Bar per benchmark of the ``benchmarks`` table (dataset, metric, unit), in the card's order: the
    number of papers reporting a result of their own method, annotated with the results too. Input:
    summary.benchmark_bars (columns label, papers, results); empty when the table is ("no rows")."""
    title = CHARTS["top_benchmarks.png"]
    if top.is_empty():
        return _empty(title)
    labels = [v if len(v) <= 40 else v[:39] + "…" for v in top["label"]]
    return _hbar(
        labels,
        top["papers"].to_list(),
        [f"{p} papers, {r} results" for p, r in top.select("papers", "results").iter_rows()],
        f"{title} (top {top.height})",
        "papers (table benchmarks)",
    )


def improvements(improv: pl.DataFrame) -> bytes:
    """One histogram per unit (pp, %) of the improvement sizes up to their :data:`HIST_QUANTILE` (the panel
    title counts the larger ones). Input: summary.improvements."""
    title = CHARTS["improvements.png"]
    if improv.is_empty():
        return _empty(title)
    fig = _figure(3.8)
    _margins(fig, left_px=64, top_px=96, wspace=0.3)  # room for the y labels and the titles (2 lines each)
    axes = fig.subplots(1, 2)
    for ax, unit, name in zip(axes, ("pp", "%"), ("percentage points (pp)", "percent (%)")):
        sizes = improv.filter(pl.col("unit") == unit)["size"]
        if sizes.is_empty():
            ax.set_title(f"{name}: none", fontsize=FONT_SIZE)
            ax.text(0.5, 0.5, "no rows", ha="center", va="center", transform=ax.transAxes, fontsize=FONT_SIZE)
            ax.set_axis_off()
            continue
        # a non-empty numeric Series: floats (polars types quantile() and median() as any Python literal)
        top = cast(float, sizes.quantile(HIST_QUANTILE, interpolation="nearest"))
        median = cast(float, sizes.median())
        shown = sizes.filter(sizes <= top)
        ax.hist(shown.to_list(), bins=min(20, max(5, shown.len() // 3)), color=COLOR, edgecolor="white")
        beyond = sizes.len() - shown.len()
        ax.set_title(
            f"{name}: n={sizes.len()}, median {median:.3g}"
            + (f"\n{beyond} above {top:.3g} not drawn" if beyond else ""),
            fontsize=FONT_SIZE,
        )
        ax.set_xlabel(f"size of the reported change, |value| ({unit})", fontsize=FONT_SIZE)
        ax.set_ylabel("reported metrics", fontsize=FONT_SIZE)
        ax.yaxis.set_major_locator(_integer_locator())
        ax.spines[["top", "right"]].set_visible(False)
    fig.suptitle(f"{title}\ndeltas and relative changes", fontsize=FONT_SIZE + 2)
    return _png(fig)


def best_by_year(best: pl.DataFrame) -> bytes:
    """One panel per benchmark (up to four, two by two): the best value reported each year, a line with
    markers, the direction in the panel title. Input: summary.best_by_year."""
    title = CHARTS["best_by_year.png"]
    if best.is_empty():
        return _empty(title)
    fig = _figure(6.0)
    _margins(fig, left_px=56, top_px=72, bottom_px=40, wspace=0.3, hspace=0.55)
    axes = fig.subplots(2, 2).flatten()
    panels = best.partition_by("order", maintain_order=True)
    for ax, panel in zip(axes, panels):
        years, values = panel["year"].to_list(), panel["best"].to_list()
        ax.plot(years, values, marker="o", color=COLOR)
        better = "higher" if panel["direction"][0] == "higher" else "lower"
        ax.set_title(f"{panel['label'][0]}\n{better} is better", fontsize=FONT_SIZE - 1)
        ax.xaxis.set_major_locator(_integer_locator(nbins=6))  # years: at most ~6 labels fit a panel
        ax.tick_params(labelsize=FONT_SIZE - 1)
        ax.spines[["top", "right"]].set_visible(False)
    for ax in axes[len(panels) :]:
        ax.set_axis_off()
    fig.suptitle(title, fontsize=FONT_SIZE + 2)
    return _png(fig)


#: The function drawing each chart of :data:`CHARTS` from its frame (see :func:`chart_frames`).
DRAW: dict[str, Callable[[pl.DataFrame], bytes]] = {
    "papers_per_venue_year.png": papers_per_venue_year,
    "code_release_rate.png": code_release_rate,
    "top_benchmarks.png": top_benchmarks,
    "improvements.png": improvements,
    "best_by_year.png": best_by_year,
}


def chart_frames(
    by_venue_year: pl.DataFrame, benchmarks: pl.DataFrame, improv: pl.DataFrame, best: pl.DataFrame
) -> dict[str, pl.DataFrame]:
    """The one frame each chart of :data:`CHARTS` is drawn from: file name → frame (a chart's bytes are a
    function of its frame alone, which is what lets pipeline.card reuse a chart drawn before)."""
    return {
        "papers_per_venue_year.png": by_venue_year,
        "code_release_rate.png": by_venue_year,
        "top_benchmarks.png": benchmarks,
        "improvements.png": improv,
        "best_by_year.png": best,
    }


def render_named(frames: dict[str, pl.DataFrame]) -> dict[str, bytes]:
    """The charts named in ``frames`` (file name → its frame), each drawn by :data:`DRAW`: name → PNG."""
    return {name: DRAW[name](frame) for name, frame in frames.items()}


def render_charts(
    by_venue_year: pl.DataFrame, benchmarks: pl.DataFrame, improv: pl.DataFrame, best: pl.DataFrame
) -> dict[str, bytes]:
    """Every chart of :data:`CHARTS`: file name → PNG bytes."""
    return render_named(chart_frames(by_venue_year, benchmarks, improv, best))


def load_backend() -> None:
    """Import matplotlib's Agg backend and load its font list now (once per process) rather than at
    the first chart (the command line warms pipeline.runtime.parallel's helpers with it)."""
    _empty("")


def _integer_locator(nbins: int | None = None):
    from matplotlib.ticker import MaxNLocator

    return MaxNLocator(integer=True) if nbins is None else MaxNLocator(nbins=nbins, integer=True)
