"""Build listing files from the dev corpus (../shared/corpus/real_abstracts_dev.parquet) for benchmarks.

Listings look like the seeds: a header ``<Venue> <Year> papers``, then one abstract per blank-line-separated
paragraph (blank lines inside an abstract are folded to one line break, as ../shared/gold/score.py does).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import polars as pl

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "real_abstracts_dev.parquet"


def load_corpus(path: Path = CORPUS) -> pl.DataFrame:
    """The dev corpus sorted deterministically (venue, year, source_record_id); exits with a clear message
    when ../shared is not there."""
    if not path.exists():
        sys.exit(f"benchmark needs the dev corpus at {path} (../shared/corpus/); it is not there")
    return pl.read_parquet(path).sort("venue", "year", "source_record_id")


def write_listings(corpus: pl.DataFrame, out_dir: Path, per_listing: int = 500) -> list[Path]:
    """Write ``corpus`` as listing files of at most ``per_listing`` abstracts, one venue/year per file.

    Returns the paths written (names ``<venue>_<year>_<nnn>.txt``).
    """
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = []
    for (venue, year), group in corpus.group_by("venue", "year", maintain_order=True):
        texts = [re.sub(r"\n\s*\n+", "\n", t.strip()) for t in group["abstract"].to_list() if t and t.strip()]
        for i in range(0, len(texts), per_listing):
            path = out_dir / f"{venue}_{year}_{i // per_listing:03d}.txt"
            path.write_text(
                f"{venue} {year} papers\n\n" + "\n\n".join(texts[i : i + per_listing]) + "\n",
                encoding="utf-8",
            )
            paths.append(path)
    return paths


def write_json_listing(corpus: pl.DataFrame, path: Path) -> Path:
    """Write ``corpus`` as one papercopilot-style JSON listing (an array of objects with ``id``, ``title``,
    ``abstract``, ``status``; venue and year only in the file name, e.g. ``icml2024.json``), so the benchmark
    times a structured reader too. Returns ``path``."""
    import json

    path.parent.mkdir(parents=True, exist_ok=True)
    rows = [
        {"id": r["source_record_id"], "title": r["title"], "abstract": r["abstract"], "status": r["status"]}
        for r in corpus.select("source_record_id", "title", "abstract", "status").iter_rows(named=True)
        if r["abstract"] and r["abstract"].strip()
    ]
    path.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
    return path
