"""The per-abstract step: every record of a listing cleaned, quarantined or analysed, as pure functions over
polars DataFrames.

``abstract_rows(records)`` cleans, detects the language, extracts URLs and metrics, hashes and quarantines
each record of one :func:`pipeline.ingest.records.listing_records` frame; ``iter_abstracts`` does it for a
range of listings with a process pool and a cache of earlier work by ``raw_sha256``. The ``abstracts``
Dagster asset calls these and writes the result to ``<warehouse>/_work/abstracts/<partition key>.parquet``.
"""

from __future__ import annotations

import contextlib
import time
from collections import deque
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import polars as pl

from pipeline.analyse import cleaning, hashing, language, quarantine, titles
from pipeline.analyse.extraction import extract_metrics, extract_urls
from pipeline.analyse.extraction.rows import AbstractResult
from pipeline.ingest.records import RECORD_DESCRIPTIONS, RECORD_SCHEMA
from pipeline.runtime import parallel, versions
from pipeline.runtime.progress import SILENT, Reporter, Step

if TYPE_CHECKING:
    from polars._typing import PolarsDataType  # the dtype union polars' own signatures use

URL_STRUCT = pl.Struct(
    {
        "url": pl.String,
        "url_raw": pl.String,
        "kind": pl.String,
        "host": pl.String,
        "repo": pl.String,
        "start": pl.Int64,
        "end": pl.Int64,
    }
)
METRIC_STRUCT = pl.Struct(
    {
        "value": pl.Float64,
        "value_text": pl.String,
        "unit": pl.String,
        "unit_text": pl.String,
        "kind": pl.String,
        "value_from": pl.Float64,
        "value_low": pl.Float64,
        "value_high": pl.Float64,
        "metric": pl.String,
        "metric_key": pl.String,
        "dataset": pl.String,
        "dataset_key": pl.String,
        "subject": pl.String,
        "baseline": pl.String,
        "direction": pl.String,
        "qualifier": pl.String,
        "span": pl.String,
        "start": pl.Int64,
        "end": pl.Int64,
        "rules": pl.List(pl.String),
    }
)

#: Columns and dtypes of :func:`abstract_rows` (RECORD_SCHEMA plus these).
ABSTRACT_SCHEMA: dict[str, PolarsDataType] = {
    **RECORD_SCHEMA,
    "abstract": pl.String,  # clean text (pipeline.analyse.cleaning.clean_text)
    "language": pl.String,  # ISO 639-1 or "und"
    "language_score": pl.Float64,  # langdetect probability, 0..1
    "n_words": pl.Int64,  # whitespace-separated words of the clean text
    "content_hash": pl.String,  # pipeline.analyse.hashing.content_hash of the clean text
    "quarantine_reason": pl.String,  # why the paragraph is not an abstract, else null
    "urls": pl.List(URL_STRUCT),  # pipeline.analyse.extraction.extract_urls(abstract_raw)
    "metrics": pl.List(METRIC_STRUCT),  # pipeline.analyse.extraction.extract_metrics(abstract)
    "lsh_keys": pl.List(pl.UInt64),  # pipeline.analyse.hashing.lsh_keys (near-duplicate candidates)
}

#: What each column of :data:`ABSTRACT_SCHEMA` (plus the work files' ``analysis_version``) holds: the column
#: descriptions the Dagster UI shows for the per-listing assets.
COLUMN_DESCRIPTIONS = {
    **RECORD_DESCRIPTIONS,
    "title": "The record's title as clean text (pipeline.analyse.titles.clean_title), else null.",
    "authors": "Author names as clean text, in order (pipeline.analyse.titles.clean_authors), else null.",
    "abstract": "The clean abstract text (pipeline.analyse.cleaning.clean_text).",
    "language": "ISO 639-1 language code of the clean abstract, or 'und' when undetermined.",
    "language_score": "langdetect's probability of that language, 0..1.",
    "n_words": "Whitespace-separated words of the clean abstract.",
    "content_hash": "Exact-duplicate key of the clean abstract (pipeline.analyse.hashing.content_hash).",
    "quarantine_reason": "Why the record is not published as an abstract (pipeline.analyse.quarantine), "
    "else null.",
    "urls": "URLs found in abstract_raw (pipeline.analyse.extraction.extract_urls): url, url_raw, kind, "
    "host, repo, start/end character offsets.",
    "metrics": "Reported results found in the clean abstract "
    "(pipeline.analyse.extraction.extract_metrics): value, unit, kind, metric, dataset, subject, baseline, "
    "direction, qualifier, span, offsets, rules.",
    "analysis_version": "The version of the per-abstract analysis the row was computed with "
    "(ANALYSIS_VERSION; a work file of another version is recomputed).",
    "lsh_keys": "MinHash LSH band keys of the clean abstract (pipeline.analyse.hashing.lsh_keys): the "
    "near-duplicate candidate keys.",
}


#: Version of the per-abstract analysis: the abstracts asset's code version (pipeline.runtime.versions: the
#: rules versions of cleaning, language, quarantine, extraction, dedup hashing... and the libraries they
#: call). Stored with every row, so a later run reuses rows by ``raw_sha256`` only when they were computed by
#: the same rules and libraries.
ANALYSIS_VERSION = versions.code_version("abstracts")
#: Stages timed by :func:`analyse_texts` (seconds, summed over abstracts).
STAGES = ("clean", "quarantine", "language", "urls", "metrics", "hashing")
#: Totals :func:`analyse_texts` adds beside :data:`STAGES`: the CPU seconds (``time.process_time``) and wall
#: seconds of its chunks, summed over the processes that ran them; their ratio tells how much of the stage
#: seconds (wall clock within a chunk) the process had the CPU for on a loaded machine.
CHUNK_TOTALS = ("chunk_cpu", "chunk_wall")
_ANALYSIS_COLUMNS = {k: v for k, v in ABSTRACT_SCHEMA.items() if k not in RECORD_SCHEMA}


def analyse_abstract(raw: str, timings: dict | None = None) -> AbstractResult:
    """All per-abstract work for one paragraph's raw text.

    Returns a dict with the :data:`ABSTRACT_SCHEMA` keys beyond :data:`RECORD_SCHEMA` (abstract, language,
    language_score, n_words, content_hash, quarantine_reason, urls, metrics, lsh_keys). Quarantined
    paragraphs get ``und``, no URLs, metrics or LSH keys. ``timings``, when given, accumulates seconds per
    stage of :data:`STAGES`."""
    t = {} if timings is None else timings
    t0 = time.perf_counter()
    clean = cleaning.clean_text(raw)
    t1 = time.perf_counter()
    reason = quarantine.quarantine_reason(raw, clean)
    t2 = time.perf_counter()
    t["clean"] = t.get("clean", 0.0) + t1 - t0
    t["quarantine"] = t.get("quarantine", 0.0) + t2 - t1
    if reason is not None:
        return dict(
            abstract=clean,
            language="und",
            language_score=0.0,
            n_words=len(clean.split()),
            content_hash=hashing.content_hash(clean),
            quarantine_reason=reason,
            urls=[],
            metrics=[],
            lsh_keys=[],
        )
    lang, score = language.detect_language(clean)
    t3 = time.perf_counter()
    urls = extract_urls(raw)
    t4 = time.perf_counter()
    metrics = extract_metrics(clean)
    t5 = time.perf_counter()
    normalised = hashing.normalise_for_hash(clean)  # once, for both keys
    row: AbstractResult = dict(
        abstract=clean,
        language=lang,
        language_score=float(score),
        n_words=len(clean.split()),
        content_hash=hashing.normalised_content_hash(normalised),
        quarantine_reason=None,
        urls=urls,
        metrics=metrics,
        lsh_keys=hashing.lsh_keys(normalised),
    )
    t6 = time.perf_counter()
    for stage, dt in zip(("language", "urls", "metrics", "hashing"), (t3 - t2, t4 - t3, t5 - t4, t6 - t5)):
        t[stage] = t.get(stage, 0.0) + dt
    return row


def warm_up() -> None:
    """Warm-up of a helper process of pipeline.runtime.parallel: this module (and every analysis module it
    imports) is loaded by the time it runs; langdetect's profiles are loaded now rather than at the first
    task."""
    language.load_profiles()


def _analyse_chunk(raws: list[str]) -> tuple[pl.DataFrame, dict]:
    timings: dict = {}
    cpu, wall = time.process_time(), time.perf_counter()
    rows = [analyse_abstract(r, timings) for r in raws]
    frame = pl.DataFrame(rows, schema=_ANALYSIS_COLUMNS)
    if raws:
        timings["chunk_cpu"] = time.process_time() - cpu
        timings["chunk_wall"] = time.perf_counter() - wall
    return frame, timings


#: Abstracts per task sent to a worker process (large enough to amortise pickling, small enough to balance).
CHUNK_SIZE = 400
#: Below this many abstracts to analyse, the work runs in this process unless pipeline.runtime.parallel has
#: warm workers running (starting workers costs more than a small batch takes).
MIN_PARALLEL = 1500


def _chunks(raws: list[str], n: int) -> list[list[str]]:
    """``raws`` cut into at least ``n`` pieces (fewer when there are fewer texts), each <= CHUNK_SIZE."""
    size = max(1, min(CHUNK_SIZE, -(-len(raws) // n)))
    return [raws[i : i + size] for i in range(0, len(raws), size)]


def _share_chunks(pool, chunks: list[list[str]]) -> list[tuple[pl.DataFrame, dict]]:
    """:func:`_analyse_chunk` of every chunk, in order, by ``pool``'s workers and this process together.

    Every chunk is queued on the pool; this process then takes, front to back, each chunk no worker has
    picked up yet (``Future.cancel`` succeeds only for those) and analyses it itself, so the processes
    share the work however fast each one is.
    """
    futures = [pool.submit(_analyse_chunk, c) for c in chunks]
    mine = {i: _analyse_chunk(c) for i, (c, f) in enumerate(zip(chunks, futures)) if f.cancel()}
    return [mine[i] if i in mine else f.result() for i, f in enumerate(futures)]


def analyse_texts(raws: list[str], workers: int = 1) -> tuple[pl.DataFrame, dict]:
    """Analyse many raw abstracts with ``workers`` processes in all (this one included).

    Returns ``(frame, timings)``: one row per input (in order) with the analysis columns of
    :data:`ABSTRACT_SCHEMA`, and the seconds per stage summed over all abstracts and processes. Helpers:
    the warm worker processes of pipeline.runtime.parallel when the command line started them (used for any
    batch); else ``workers - 1`` processes spawned here when there are at least MIN_PARALLEL abstracts; else
    none. Workers seed langdetect when they import pipeline.analyse.language, so the rows equal a serial
    run's."""
    warm = parallel.executor()
    if not raws or (warm is None and (workers <= 1 or len(raws) < MIN_PARALLEL)):
        return _analyse_chunk(raws)
    if warm is not None:
        pool, helpers = warm
        pool_context: contextlib.AbstractContextManager[Any] = contextlib.nullcontext(pool)  # warm helpers
        # outlive this call
    else:
        helpers = workers - 1
        pool_context = parallel.spawn_pool(helpers)
    with pool_context as pool:
        # 4 chunks per process: a process that starts late (cold caches, profile loading) still gets a share
        results = _share_chunks(pool, _chunks(raws, 4 * (helpers + 1)))
    timings: dict = {}
    for _, t in results:
        for k, v in t.items():
            timings[k] = timings.get(k, 0.0) + v
    return pl.concat([f for f, _ in results]), timings


#: Chunks queued on the pool ahead of the listing being finished, per process: enough that the helpers never
#: wait at a listing boundary, few enough that only a few listings' rows are in memory at once.
CHUNKS_AHEAD = 4
#: Source order of a cached file that belongs to no listing of the range (never rewritten by it).
_OUTSIDE = 1 << 62
_FAILED = {
    "abstract": "",
    "language": "und",
    "language_score": 0.0,
    "n_words": 0,
    "content_hash": hashing.content_hash(""),
    "urls": [],
    "metrics": [],
    "lsh_keys": [],
}


def _plan(keys: list[str], record_hashes: pl.LazyFrame, cache: dict[str, Path]) -> pl.DataFrame:
    """Where each distinct readable abstract of the range gets its analysis, as one narrow frame.

    ``record_hashes`` has ``key, raw_sha256`` (readable records only). Returns one row per distinct
    ``raw_sha256``: ``first``/``last`` (positions in ``keys`` of the first and last listing holding it) and
    ``source`` (the cached abstracts file to read it from, or null: analysed in this run by listing
    ``first``). A cached file of a listing of the range is a valid source only when that listing comes at or
    after ``first`` (it is rewritten in key order, after ``first`` read it); one outside the range always is.
    """
    pos = pl.DataFrame({"key": keys, "pos": range(len(keys))}, schema={"key": pl.String, "pos": pl.Int64})
    plan = (
        record_hashes.join(pos.lazy(), on="key")
        .group_by("raw_sha256")
        .agg(first=pl.col("pos").min(), last=pl.col("pos").max())
        .collect()
    )
    files = {k: p for k, p in cache.items() if p.exists()}
    if not files or not plan.height:
        return plan.with_columns(source=pl.lit(None, pl.String))
    key_pos = dict(zip(keys, range(len(keys))))
    srcs = pl.DataFrame(
        {"source": [str(p) for p in files.values()], "src": [key_pos.get(k, _OUTSIDE) for k in files]},
        schema={"source": pl.String, "src": pl.Int64},
    )
    hits = (
        pl.scan_parquet(list(files.values()), include_file_paths="source")
        .filter(pl.col("analysis_version") == ANALYSIS_VERSION, pl.col("decode_error").is_null())
        .select("raw_sha256", "source")
        .join(plan.lazy().select("raw_sha256"), on="raw_sha256", how="semi")
        .join(srcs.lazy(), on="source")
        .group_by("raw_sha256")
        .agg(pl.col("source").sort_by("src", "source").last(), src=pl.col("src").max())
        .collect()
    )
    return (
        plan.join(hits, on="raw_sha256", how="left")
        .with_columns(source=pl.when(pl.col("src") >= pl.col("first")).then("source"))
        .drop("src")
    )


def _assemble(recs: pl.DataFrame, analysed: pl.DataFrame) -> pl.DataFrame:
    """One listing's :data:`ABSTRACT_SCHEMA` frame (plus ``analysis_version``) from its records and the
    analysis rows (``raw_sha256`` + analysis columns) of its readable ones; ``title`` and ``authors`` are
    the clean text of the records' (pipeline.analyse.titles)."""
    ok = recs.filter(pl.col("decode_error").is_null()).join(analysed, on="raw_sha256", how="left")
    bad = recs.filter(pl.col("decode_error").is_not_null()).with_columns(
        *[pl.lit(v, dtype=_ANALYSIS_COLUMNS[k]).alias(k) for k, v in _FAILED.items()],
        quarantine_reason=pl.col("decode_error"),
    )
    out = pl.concat([ok, bad.select(ok.columns)]).sort("paragraph").select(list(ABSTRACT_SCHEMA))
    return out.with_columns(
        pl.Series("title", [titles.clean_title(t) for t in out["title"].to_list()], dtype=pl.String),
        pl.Series(
            "authors",
            [titles.clean_authors(a) for a in out["authors"].to_list()],
            dtype=ABSTRACT_SCHEMA["authors"],
        ),
        analysis_version=pl.lit(ANALYSIS_VERSION),
    )


def _pool_for(fresh_total: int, workers: int) -> tuple[contextlib.AbstractContextManager[Any], int]:
    """The pool for a range with ``fresh_total`` abstracts to analyse and its number of helper processes: the
    warm workers of pipeline.runtime.parallel (they outlive the range), else ``workers - 1`` spawned ones
    when there are at least MIN_PARALLEL abstracts, else none (``None`` and 0)."""
    warm = parallel.executor()
    if warm is not None:
        return contextlib.nullcontext(warm[0]), warm[1]
    if workers > 1 and fresh_total >= MIN_PARALLEL:
        return parallel.spawn_pool(workers - 1), workers - 1
    return contextlib.nullcontext(None), 0


class _RangeRun:
    """The listings of one :func:`iter_abstracts` run whose chunks are queued (``pending``, in key order:
    ``(pos, key, recs, todo, chunks, futures, done here)``), and the analysis rows of texts a later listing
    of the range still needs (``shared``, with the position of their ``last`` listing)."""

    def __init__(self, plan: pl.DataFrame, pool: Any, helpers: int, size: int, step: Step) -> None:
        self.plan, self.pool, self.helpers, self.size, self.step = plan, pool, helpers, size, step
        self.shared = pl.DataFrame(schema={"raw_sha256": pl.String, "last": pl.Int64, **_ANALYSIS_COLUMNS})
        self.pending: deque = deque()
        self.queued = 0  # chunks submitted to the pool and not yet finished

    def queue(self, pos: int, key: str, recs: pl.DataFrame) -> None:
        """Queue the chunks of the abstracts listing ``pos`` is the first of the range to need (and no cached
        file holds) on the pool; serially, only note them."""
        mine = self.plan.filter(
            pl.col("first") == pos,
            pl.col("source").is_null(),
            pl.col("raw_sha256").is_in(recs["raw_sha256"].implode()),
        )
        todo = (
            recs.filter(pl.col("decode_error").is_null())
            .select("raw_sha256", "abstract_raw")
            .unique("raw_sha256", keep="first", maintain_order=True)
            .join(mine.select("raw_sha256"), on="raw_sha256", how="semi", maintain_order="left")
        )
        chunks = _cut(todo["abstract_raw"].to_list(), self.size) if self.helpers else []
        futures = [self.pool.submit(_analyse_chunk, c) for c in chunks]
        self.pending.append((pos, key, recs, todo, chunks, futures, {}))
        self.queued += len(futures)

    def steal(self) -> bool:
        """Analyse here one chunk of a later listing that no helper has picked up yet; False when none."""
        for _, _, _, _, chunks, futures, here in list(self.pending)[1:]:
            for i, f in enumerate(futures):
                if i not in here and f.cancel():  # only a chunk no helper has picked up can be cancelled
                    here[i] = _analyse_chunk(chunks[i])
                    return True
        return False

    def results(self, todo: pl.DataFrame, chunks: list, futures: list, here: dict) -> list:
        """The ``(frame, timings)`` of each chunk of the first pending listing, in order."""
        if not self.helpers:  # in pieces of CHUNK_SIZE only to count progress
            pieces = _cut(todo["abstract_raw"].to_list(), CHUNK_SIZE) if todo.height else []
            return [self._counted(_analyse_chunk(c), len(c)) for c in pieces]
        # this process takes each chunk no helper has picked up yet, and while it waits for one that a
        # helper is analysing, the chunks of the next listings: no process idles at a listing boundary
        results = []
        for i, (c, f) in enumerate(zip(chunks, futures)):
            if i not in here and f.cancel():
                here[i] = _analyse_chunk(c)
            while i not in here and not f.done() and self.steal():
                pass
            results.append(self._counted(here[i] if i in here else f.result(), len(c)))
        return results

    def _counted(self, result: tuple[pl.DataFrame, dict], n: int) -> tuple[pl.DataFrame, dict]:
        self.step.advance(n)
        return result

    def finish(self) -> tuple[str, pl.DataFrame, dict]:
        """The first pending listing done: ``(key, frame, stats)`` as :func:`iter_abstracts` yields them."""
        pos, key, recs, todo, chunks, futures, here = self.pending.popleft()
        self.queued -= len(futures)
        results = self.results(todo, chunks, futures, here)
        timings: dict = {}
        for _, t in results:
            for k, v in t.items():
                timings[k] = timings.get(k, 0.0) + v
        fresh = pl.concat(
            [todo.select("raw_sha256"), pl.concat([f for f, _ in results], how="vertical")]
            if results
            else [todo.select("raw_sha256"), pl.DataFrame(schema=_ANALYSIS_COLUMNS)],
            how="horizontal",
        )
        mine = self.plan.filter(pl.col("raw_sha256").is_in(recs["raw_sha256"].implode()))
        cached = _read_cached(mine.filter(pl.col("first") == pos, pl.col("source").is_not_null()))
        self.step.advance(cached.height)
        earlier = self.shared.join(mine.filter(pl.col("first") < pos), on="raw_sha256", how="semi")
        analysed = pl.concat([fresh, cached, earlier.drop("last")])
        # rows a later listing of the range needs too stay until their last listing is done
        keep = analysed.join(mine.filter(pl.col("last") > pos), on="raw_sha256", how="semi")
        keep = keep.join(mine.select("raw_sha256", "last"), on="raw_sha256").select(self.shared.columns)
        self.shared = pl.concat([self.shared.filter(pl.col("last") > pos), keep]).unique(
            "raw_sha256", keep="first", maintain_order=True
        )
        stats = {"analysed": todo.height, "reused": cached.height, "seconds": timings}
        return key, _assemble(recs, analysed), stats


def iter_abstracts(
    keys: list[str],
    load: Callable[[str], pl.DataFrame],
    record_hashes: pl.LazyFrame,
    cache: dict[str, Path] | None = None,
    workers: int = 1,
    progress: Reporter = SILENT,
) -> Iterator[tuple[str, pl.DataFrame, dict]]:
    """Per-abstract work for a range of listings, one listing at a time, in ``keys`` order.

    Args:
        keys: the partition keys of the range.
        load: key → its :func:`listing_records` frame (called once per key, when its turn comes).
        record_hashes: ``key, raw_sha256`` of the range's readable records (``decode_error`` null), e.g. a
            projected scan of their work files; only this narrow frame covers the whole range.
        cache: key → an earlier abstracts file (any listing; rows of another :data:`ANALYSIS_VERSION` are
            ignored): an unchanged abstract is never analysed twice, and a text repeated in several listings
            of the range is analysed once (kept in memory only until its last listing is done).
        workers: processes for the analysis (see :func:`analyse_texts`); one pool serves the whole range,
            and the chunks of the next listings are queued while a listing is finished, so the helpers keep
            working across listing boundaries.
        progress: counts ``abstracts`` n/N (N: the range's distinct readable abstracts, analysed or reused).

    Yields ``(key, frame, stats)`` as soon as a listing's chunks are done: ``frame`` has
    :data:`ABSTRACT_SCHEMA` plus ``analysis_version`` (the same rows whatever the range), ``stats`` the
    listing's ``analysed`` and ``reused`` (distinct abstracts) and ``seconds`` per stage. Memory holds the
    narrow plan of the range, the listings whose chunks are queued, and the shared rows of texts repeated
    across listings; never every listing's rows. A cached file of a listing of the range may be rewritten by
    the caller once it has been yielded (the plan reads it only before that).
    """
    plan = _plan(keys, record_hashes, cache or {})
    fresh_total = plan.filter(pl.col("source").is_null()).height
    pool_context, helpers = _pool_for(fresh_total, workers)
    # chunk size as for one batch of the whole range (4 chunks per process), cut at listing boundaries
    size = max(1, min(CHUNK_SIZE, -(-fresh_total // (4 * (helpers + 1))))) if helpers else 0
    ahead = CHUNKS_AHEAD * (helpers + 1)
    with pool_context as pool, progress.step("abstracts", plan.height, "abstracts") as step:
        run = _RangeRun(plan, pool, helpers, size, step)
        for pos, key in enumerate(keys):
            run.queue(pos, key, load(key))
            # serially each listing is finished at once; with a pool, while too many chunks or listings wait
            while run.pending and (not helpers or run.queued > ahead or len(run.pending) > ahead):
                yield run.finish()
        while run.pending:
            yield run.finish()


def _cut(raws: list[str], size: int) -> list[list[str]]:
    """``raws`` in consecutive pieces of ``size`` (one piece when ``size`` is 0)."""
    if not size:
        return [raws] if raws else []
    return [raws[i : i + size] for i in range(0, len(raws), size)]


def _read_cached(wanted: pl.DataFrame) -> pl.DataFrame:
    """The analysis rows (``raw_sha256`` + analysis columns) of ``wanted`` (``raw_sha256, source``), read
    from their source files: only those rows, only those columns."""
    out = pl.DataFrame(schema={"raw_sha256": pl.String, **_ANALYSIS_COLUMNS})
    if not wanted.height:
        return out
    rows = (
        pl.scan_parquet(sorted(set(wanted["source"].to_list())), include_file_paths="source")
        .filter(pl.col("analysis_version") == ANALYSIS_VERSION, pl.col("decode_error").is_null())
        .join(wanted.lazy().select("raw_sha256", "source"), on=["raw_sha256", "source"], how="semi")
        .select("raw_sha256", *_ANALYSIS_COLUMNS)
        .unique("raw_sha256", keep="first", maintain_order=True)
        .collect()
    )
    return pl.concat([out, rows])


def record_hashes(files: dict[str, Path]) -> pl.LazyFrame:
    """``key, raw_sha256`` (both pl.String) of the readable records (``decode_error`` null) of
    :func:`listing_records` work files, key → file: a projected scan for :func:`iter_abstracts`."""
    paths = pl.DataFrame(
        {"_file": [str(p) for p in files.values()], "key": list(files)},
        schema={"_file": pl.String, "key": pl.String},
    )
    if not files:
        return pl.LazyFrame(schema={"key": pl.String, "raw_sha256": pl.String})
    return (
        pl.scan_parquet(paths["_file"].to_list(), include_file_paths="_file")
        .filter(pl.col("decode_error").is_null())
        .select("_file", "raw_sha256")
        .join(paths.lazy(), on="_file")
        .select("key", "raw_sha256")
    )


def build_abstracts(
    records_by_key: dict[str, pl.DataFrame], cache: dict[str, Path] | None = None, workers: int = 1
) -> tuple[dict[str, pl.DataFrame], dict]:
    """:func:`iter_abstracts` over frames already in memory, collected: ``(frames, stats)`` with partition
    key → :data:`ABSTRACT_SCHEMA` frame (plus ``analysis_version``) and ``analysed``/``reused``/``seconds``
    summed (for small inputs and tests; the ``abstracts`` asset streams)."""
    keys = list(records_by_key)
    hashes = pl.concat(
        [
            f.filter(pl.col("decode_error").is_null()).select(pl.lit(k).alias("key"), "raw_sha256")
            for k, f in records_by_key.items()
        ]
        or [pl.DataFrame(schema={"key": pl.String, "raw_sha256": pl.String})]
    ).lazy()
    frames, stats = {}, {"analysed": 0, "reused": 0, "seconds": {}}
    for key, frame, s in iter_abstracts(keys, records_by_key.__getitem__, hashes, cache, workers):
        frames[key] = frame
        add_stats(stats, s)
    return frames, stats


def add_stats(total: dict, s: dict) -> None:
    """Add one listing's stats of :func:`iter_abstracts` into ``total`` (same keys)."""
    total["analysed"] += s["analysed"]
    total["reused"] += s["reused"]
    for k, v in s["seconds"].items():
        total["seconds"][k] = total["seconds"].get(k, 0.0) + v


def abstract_rows(records: pl.DataFrame) -> pl.DataFrame:
    """Per-abstract work for every row of one :func:`listing_records` frame, in this process; returns
    :data:`ABSTRACT_SCHEMA` (plus ``analysis_version``). A row with ``decode_error`` is carried through with
    ``quarantine_reason`` = that error."""
    return build_abstracts({"_": records})[0]["_"]
