"""Profile the dev corpus through the listing functions: decoding/splitting, cleaning, quarantine, language.

    python bench/corpus_profile.py [--corpus PATH] [--limit N] [--examples 3] [--trunc-sample 2000]

Builds one UTF-8 listing per (venue, year) of ../shared/corpus/real_abstracts_dev.parquet (header
``<VENUE> <YEAR> Accepted Papers``, abstracts separated by blank lines; blank lines inside an abstract are
collapsed so one abstract stays one paragraph, and counted), then runs ``parsing.parse_listing``,
``cleaning.clean_text``, ``quarantine.quarantine_reason`` and ``language.detect_language`` exactly as the
pipeline does. Prints: paragraphs in/out per listing (must be equal), quarantine counts by reason with
examples, languages detected, cleaning and detection cost, and how often langdetect's label changes when it
reads only the first ``language.MAX_CHARS`` characters. Exits 0 with a message when the corpus is absent
(the project stands alone without ../shared).
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# `python bench/corpus_profile.py` needs the repository root on the path for `bench` and `pipeline`;
# `python -m bench.corpus_profile` (the Makefile) and imports from tests do not
if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.analyse import language  # noqa: E402
from pipeline.analyse.cleaning import clean_text  # noqa: E402
from pipeline.analyse.language import detect_language  # noqa: E402
from pipeline.analyse.quarantine import REASONS, quarantine_reason  # noqa: E402
from pipeline.ingest.readers import parse_listing  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "real_abstracts_dev.parquet"
_BLANK_LINES = re.compile(r"\n[^\S\n]*\n\s*")


def build_listings(df) -> tuple[dict[str, bytes], int]:
    """``{file name: bytes}`` with one listing per (venue, year), and the number of abstracts whose blank
    lines were collapsed."""
    listings: dict[str, list[str]] = collections.defaultdict(list)
    collapsed = 0
    for venue, year, abstract in zip(df["venue"].to_list(), df["year"].to_list(), df["abstract"].to_list()):
        text = (abstract or "").replace("\r\n", "\n").replace("\r", "\n").strip()
        if _BLANK_LINES.search(text):
            collapsed += 1
            text = _BLANK_LINES.sub("\n", text)
        listings[f"{venue}_{year}.txt"].append(text if text else "-")
    return {
        name: (f"{name[:-4].replace('_', ' ')} Accepted Papers\n\n" + "\n\n".join(paras) + "\n").encode()
        for name, paras in listings.items()
    }, collapsed


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--limit", type=int, default=0, help="use only the first N abstracts (0 = all)")
    ap.add_argument("--examples", type=int, default=3)
    ap.add_argument(
        "--trunc-sample", type=int, default=2000, help="abstracts for the MAX_CHARS check (0 = skip)"
    )
    args = ap.parse_args(argv)
    if not args.corpus.exists():
        print(f"corpus not found: {args.corpus} (../shared is absent); nothing to profile")
        return 0
    import polars as pl

    df = pl.read_parquet(args.corpus, columns=["venue", "year", "abstract"])
    if args.limit:
        df = df.head(args.limit)
    files, collapsed = build_listings(df)
    print(
        f"corpus: {args.corpus}  abstracts: {df.height}  listings: {len(files)}  "
        f"abstracts with blank lines collapsed: {collapsed}"
    )

    reasons: collections.Counter[str] = collections.Counter()
    examples: dict[str, list[str]] = collections.defaultdict(list)
    langs: collections.Counter[str] = collections.Counter()
    lang_examples: dict[str, list[str]] = collections.defaultdict(list)
    lost = 0
    warnings = 0
    t_clean = t_lang = 0.0
    n_clean = n_lang = 0
    published: list[str] = []
    for name, data in sorted(files.items()):
        listing = parse_listing(data, name)
        warnings += len(listing.warnings)
        expected = data.decode().count("\n\n")
        if len(listing.paragraphs) != expected:
            lost += abs(expected - len(listing.paragraphs))
            print(f"  {name}: {expected} abstracts in, {len(listing.paragraphs)} paragraphs out")
        for p in listing.paragraphs:
            t0 = time.perf_counter()
            clean = clean_text(p.text)
            t_clean += time.perf_counter() - t0
            n_clean += 1
            reason = quarantine_reason(p.text, clean, listing.header)
            if reason:
                reasons[reason] += 1
                if len(examples[reason]) < args.examples:
                    examples[reason].append(f"{name}#{p.number}: {p.text[:110]!r}")
                continue
            published.append(clean)
            t0 = time.perf_counter()
            code, _ = detect_language(clean)
            t_lang += time.perf_counter() - t0
            n_lang += 1
            langs[code] += 1
            if code != "en" and len(lang_examples[code]) < args.examples:
                lang_examples[code].append(f"{name}#{p.number}: {clean[:110]!r}")

    print(f"paragraphs: {n_clean}  lost: {lost}  listing warnings: {warnings}")
    print(f"published: {len(published)}  quarantined: {sum(reasons.values())}")
    for reason in REASONS:
        print(f"  {reason:16s} {reasons.get(reason, 0):6d}")
        for ex in examples.get(reason, []):
            print(f"      {ex}")
    print("languages:", ", ".join(f"{k} {v}" for k, v in langs.most_common()))
    for code, exs in sorted(lang_examples.items()):
        for ex in exs:
            print(f"  {code}: {ex}")
    print(
        f"cost: clean {t_clean / max(n_clean, 1) * 1e6:.0f} µs/abstract, "
        f"detect {t_lang / max(n_lang, 1) * 1e3:.2f} ms/abstract"
    )

    if args.trunc_sample and published:
        sample = published[:: max(1, len(published) // args.trunc_sample)][: args.trunc_sample]
        keep = language.MAX_CHARS
        timings = {}
        labels = {}
        for limit in (keep, 10_000):
            language.MAX_CHARS = limit
            t0 = time.perf_counter()
            labels[limit] = [detect_language(s)[0] for s in sample]
            timings[limit] = time.perf_counter() - t0
        language.MAX_CHARS = keep
        diff = [(a, b, s[:90]) for a, b, s in zip(labels[keep], labels[10_000], sample) if a != b]
        print(
            f"MAX_CHARS={keep}: {len(diff)} of {len(sample)} labels differ from the full text; "
            f"{timings[keep] / len(sample) * 1e3:.2f} vs {timings[10_000] / len(sample) * 1e3:.2f} ms/abstract"
        )
        for a, b, s in diff[:5]:
            print(f"  {a} (first {keep}) vs {b} (full): {s!r}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
