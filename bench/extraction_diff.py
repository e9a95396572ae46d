"""What a change to the extraction rules does on abstracts no gold file holds: the dev corpus before and
after.

usage: python bench/extraction_diff.py [--base REV] [--n 8000] [--field metric|dataset|kind|...]
                                       [--show 25] [--what CHANGED|ADDED|REMOVED] [--seed 0]

The extraction package of git revision ``--base`` (default ``HEAD``: the committed rules, against the working
tree) is copied into a temporary folder and imported beside the current one. Both run over the same fixed
random sample (seed 13) of ``--n`` abstracts of the dev corpus (``$EVAL_CORPUS`` or ``../shared/corpus/
real_abstracts_dev.parquet``; the command says so and stops when it is absent), cleaned once. Printed: metric
rows, abstracts with rows, the shares of rows with a null metric and a null dataset for both, the counts of
rows added, removed and changed in ``--field``, and a random sample of ``--show`` diffs of kind ``--what``
with the new row's rules and its sentence, to read what else a rule changes.
"""

from __future__ import annotations

import argparse
import importlib
import os
import random
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
# `python bench/extraction_diff.py` needs the repository root on the path for `bench` and `pipeline`;
# `python -m bench.extraction_diff` (the Makefile) and imports from tests do not
if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.analyse.cleaning import clean_text  # noqa: E402
from pipeline.analyse.extraction import metrics as current  # noqa: E402
from pipeline.analyse.extraction.sentences import sentence_of  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "real_abstracts_dev.parquet"


def base_package(rev: str, into: Path):
    """Import the extraction package of git revision ``rev`` as ``base_extraction`` (a copy under
    ``into``)."""
    names = subprocess.run(
        ["git", "ls-tree", "-r", "--name-only", rev, "pipeline/analyse/extraction/"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    pkg = into / "base_extraction"
    pkg.mkdir()
    for name in names:  # every file, sub-packages (vocabulary/) included, at its place under the package
        src = subprocess.run(
            ["git", "show", f"{rev}:{name}"], cwd=ROOT, check=True, capture_output=True, text=True
        ).stdout
        dest = pkg / Path(name).relative_to("pipeline/analyse/extraction")
        dest.parent.mkdir(parents=True, exist_ok=True)
        dest.write_text(src.replace("pipeline.analyse.extraction", "base_extraction"), encoding="utf-8")
    sys.path.insert(0, str(into))
    return importlib.import_module("base_extraction.metrics")


def shares(rows: list[list[dict]]) -> str:
    flat = [r for rs in rows for r in rs]
    n = max(1, len(flat))
    return (
        f"rows {len(flat)}, abstracts with rows {sum(bool(r) for r in rows)}, "
        f"null metric {sum(r['metric'] is None for r in flat) / n:.3f}, "
        f"null dataset {sum(r['dataset'] is None for r in flat) / n:.3f}"
    )


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default="HEAD")
    ap.add_argument("--n", type=int, default=8000)
    ap.add_argument("--field", default="metric")
    ap.add_argument("--what", default="CHANGED", choices=("CHANGED", "ADDED", "REMOVED"))
    ap.add_argument("--show", type=int, default=25)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    corpus = Path(os.environ.get("EVAL_CORPUS") or DEFAULT_CORPUS)
    if not corpus.exists():
        print(
            f"dev corpus ABSENT ({corpus}: ../shared/corpus not present, set $EVAL_CORPUS); nothing to compare"
        )
        return 0
    texts = pl.read_parquet(corpus, columns=["abstract"]).drop_nulls()["abstract"].to_list()
    random.Random(13).shuffle(texts)
    cleans = [clean_text(t) for t in texts[: args.n]]
    with tempfile.TemporaryDirectory(prefix="extraction_base_") as tmp:
        base = base_package(args.base, Path(tmp))
        before = [base.extract_metrics(c) for c in cleans]
    after = [current.extract_metrics(c) for c in cleans]
    print(f"base {args.base}: {shares(before)}")
    print(f"working tree: {shares(after)}")
    diffs = []
    for i, (b, c) in enumerate(zip(before, after)):
        bk = {(r["start"], r["end"]): r for r in b}
        ck = {(r["start"], r["end"]): r for r in c}
        diffs += [(i, "ADDED", ck[k], None) for k in ck.keys() - bk.keys()]
        diffs += [(i, "REMOVED", None, bk[k]) for k in bk.keys() - ck.keys()]
        diffs += [
            (i, "CHANGED", ck[k], bk[k])
            for k in bk.keys() & ck.keys()
            if bk[k].get(args.field) != ck[k].get(args.field)
        ]
    print(f"{args.field}:", dict(Counter(d[1] for d in diffs)))
    random.Random(args.seed).shuffle(diffs)
    for i, what, c, b in [d for d in diffs if d[1] == args.what][: args.show]:
        r = c or b
        print(
            f"{what} {r['span']!r} {args.field}: {b and b.get(args.field)!r} -> {c and c.get(args.field)!r} "
            f"{(c or {}).get('rules')} :: {sentence_of(cleans[i], r['start'], r['end'])[:200]}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
