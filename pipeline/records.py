"""Per-listing frames: the work of one listing partition, as pure functions over polars DataFrames.

``listing_records(data, name)`` decodes and splits one file; ``abstract_rows(records)`` cleans, detects the
language, extracts URLs and metrics, hashes and quarantines each paragraph. The Dagster assets of the same
names call these and write the result to ``<warehouse>/_work/<asset>/<partition key>.parquet``.
"""

from __future__ import annotations

import hashlib

import polars as pl

from pipeline import cleaning, dedup, language, quarantine
from pipeline.extraction import extract_metrics, extract_urls
from pipeline.parsing import UNKNOWN_VENUE, UNKNOWN_YEAR, ListingDecodeError, parse_listing

#: Columns and dtypes of :func:`listing_records`.
RECORD_SCHEMA = {
    "listing": pl.String,          # file path relative to the raw folder
    "listing_sha256": pl.String,   # sha256 of the file's bytes
    "encoding": pl.String,         # codec that decoded it (null when undecodable)
    "venue": pl.String,
    "year": pl.Int64,
    "paragraph": pl.Int64,         # 1-based; 0 for a whole listing that could not be decoded
    "line": pl.Int64,              # 1-based line of the paragraph's first line; 0 when undecodable
    "raw_sha256": pl.String,       # sha256 of abstract_raw (UTF-8); of the file bytes when undecodable
    "abstract_raw": pl.String,     # decoded text, line ends normalised, wrapped lines joined by "\n"
    "decode_error": pl.String,     # why the file could not be decoded (with the byte offset), else null
}

URL_STRUCT = pl.Struct({"url": pl.String, "url_raw": pl.String, "kind": pl.String, "host": pl.String,
                        "start": pl.Int64, "end": pl.Int64})
METRIC_STRUCT = pl.Struct({
    "value": pl.Float64, "value_text": pl.String, "unit": pl.String, "kind": pl.String,
    "value_from": pl.Float64, "value_low": pl.Float64, "value_high": pl.Float64, "metric": pl.String,
    "dataset": pl.String, "subject": pl.String, "baseline": pl.String, "direction": pl.String,
    "qualifier": pl.String, "span": pl.String, "start": pl.Int64, "end": pl.Int64,
})

#: Columns and dtypes of :func:`abstract_rows` (RECORD_SCHEMA plus these).
ABSTRACT_SCHEMA = {
    **RECORD_SCHEMA,
    "abstract": pl.String,          # clean text (pipeline.cleaning)
    "language": pl.String,          # ISO 639-1 or "und"
    "language_score": pl.Float64,   # langdetect probability, 0..1
    "n_words": pl.Int64,            # whitespace-separated words of the clean text
    "content_hash": pl.String,      # pipeline.dedup.content_hash of the clean text
    "quarantine_reason": pl.String, # why the paragraph is not an abstract, else null
    "urls": pl.List(URL_STRUCT),    # pipeline.extraction.extract_urls(abstract_raw)
    "metrics": pl.List(METRIC_STRUCT),  # pipeline.extraction.extract_metrics(abstract)
    "lsh_keys": pl.List(pl.UInt64), # pipeline.dedup.lsh_keys (near-duplicate candidates)
}


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def listing_records(data: bytes, name: str) -> tuple[pl.DataFrame, list[str]]:
    """Decode and split one listing file into one row per paragraph.

    Returns ``(frame, warnings)``: the frame has :data:`RECORD_SCHEMA`; the header is not a row. An
    undecodable file gives a single row with ``paragraph`` 0 and ``decode_error`` set (it is quarantined
    whole downstream, never dropped). ``warnings`` are messages for the run log (missing header, ...).
    """
    file_sha = hashlib.sha256(data).hexdigest()
    try:
        listing = parse_listing(data, name)
    except ListingDecodeError as e:
        row = dict(listing=name, listing_sha256=file_sha, encoding=None, venue=UNKNOWN_VENUE,
                   year=UNKNOWN_YEAR, paragraph=0, line=0, raw_sha256=file_sha, abstract_raw="",
                   decode_error=f"undecodable: {e.reason} (byte offset {e.offset})")
        return pl.DataFrame([row], schema=RECORD_SCHEMA), [str(e)]
    frame = pl.DataFrame(
        {
            "listing": [name] * len(listing.paragraphs),
            "listing_sha256": [listing.sha256] * len(listing.paragraphs),
            "encoding": [listing.encoding] * len(listing.paragraphs),
            "venue": [listing.venue] * len(listing.paragraphs),
            "year": [listing.year] * len(listing.paragraphs),
            "paragraph": [p.number for p in listing.paragraphs],
            "line": [p.line for p in listing.paragraphs],
            "raw_sha256": [_sha256(p.text) for p in listing.paragraphs],
            "abstract_raw": [p.text for p in listing.paragraphs],
            "decode_error": [None] * len(listing.paragraphs),
        },
        schema=RECORD_SCHEMA,
    )
    return frame, list(listing.warnings)


def analyse_abstract(raw: str) -> dict:
    """All per-abstract work for one paragraph's raw text.

    Returns a dict with the :data:`ABSTRACT_SCHEMA` keys beyond :data:`RECORD_SCHEMA` (abstract, language,
    language_score, n_words, content_hash, quarantine_reason, urls, metrics, lsh_keys). Quarantined
    paragraphs get ``und``, no URLs, metrics or LSH keys.
    """
    clean = cleaning.clean_abstract(raw)
    reason = quarantine.quarantine_reason(raw, clean)
    if reason is not None:
        return dict(abstract=clean, language="und", language_score=0.0, n_words=len(clean.split()),
                    content_hash=dedup.content_hash(clean), quarantine_reason=reason, urls=[], metrics=[],
                    lsh_keys=[])
    lang, score = language.detect_language(clean)
    return dict(
        abstract=clean, language=lang, language_score=float(score), n_words=len(clean.split()),
        content_hash=dedup.content_hash(clean), quarantine_reason=None, urls=extract_urls(raw),
        metrics=extract_metrics(clean), lsh_keys=dedup.lsh_keys(dedup.normalise_for_hash(clean)),
    )


def abstract_rows(records: pl.DataFrame) -> pl.DataFrame:
    """Per-abstract work for every row of a :func:`listing_records` frame; returns :data:`ABSTRACT_SCHEMA`.

    A row with ``decode_error`` is carried through with ``quarantine_reason`` = that error.
    """
    results = []
    for raw, err in records.select("abstract_raw", "decode_error").iter_rows():
        if err is not None:
            results.append(dict(abstract="", language="und", language_score=0.0, n_words=0,
                                content_hash=dedup.content_hash(""), quarantine_reason=err, urls=[],
                                metrics=[], lsh_keys=[]))
        else:
            results.append(analyse_abstract(raw))
    extra = {k: v for k, v in ABSTRACT_SCHEMA.items() if k not in RECORD_SCHEMA}
    return pl.concat([records, pl.DataFrame(results, schema=extra)], how="horizontal")
