"""Accuracy cost of the English shortcut in pipeline.analyse.language (target: it changes at most 0.5 % of the labels).

Runs detect_language with and without the shortcut over the dev corpus and the gold abstracts and prints
how many labels and scores differ, and the CPU time of each.

usage: python bench/language_shortcut.py [--limit N]
"""

import argparse
import json
import sys
import time
from pathlib import Path

# `python bench/language_shortcut.py` needs the repository root on the path for `bench` and `pipeline`;
# `python -m bench.language_shortcut` (the Makefile) and imports from tests do not
if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from bench.listings import load_corpus  # noqa: E402
from pipeline.analyse import cleaning, language  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--limit", type=int, default=0)
    args = ap.parse_args()
    corpus = load_corpus()
    texts = [t for t in corpus["abstract"].to_list() if t]
    if args.limit:
        texts = texts[: args.limit]
    gold = [
        json.loads(line)["text"]
        for line in (ROOT / "tests/data/gold/gold_dev.jsonl").read_text().splitlines()
    ]
    for name, raw in (("dev corpus", texts), ("gold_dev", gold)):
        clean = [cleaning.clean_text(t) for t in raw]
        t0 = time.process_time()
        fast = [language.detect_language(t) for t in clean]
        t1 = time.process_time()
        shortcut = language.is_plainly_english
        language.is_plainly_english = lambda text, tokens=None: False
        try:
            slow = [language.detect_language(t) for t in clean]
        finally:
            language.is_plainly_english = shortcut
        t2 = time.process_time()
        fired = sum(shortcut(language.evidence_text(t)) for t in clean)
        labels = sum(a[0] != b[0] for a, b in zip(fast, slow))
        scores = sum(a != b for a, b in zip(fast, slow))
        print(
            f"{name}: {len(clean)} abstracts; shortcut fired on {fired} ({fired / len(clean):.1%}); "
            f"labels changed {labels} ({labels / len(clean):.3%}); (label, score) changed {scores}; "
            f"CPU {1000 * (t1 - t0) / len(clean):.2f} ms/abstract with, {1000 * (t2 - t1) / len(clean):.2f} without"
        )


if __name__ == "__main__":
    main()
