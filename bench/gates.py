"""What the quarantine gates quarantine, measured: the dev corpus and every shared listing file, now and (with
``--base``) at another revision, and what changed between the two.

usage: python -m bench.gates [--base REV] [--examples 3] [--out FILE.md] [--dev-only | --listings-only]

Every abstract of the dev corpus (``$EVAL_CORPUS`` or ``../shared/corpus/real_abstracts_dev.parquet``, its
``abstract`` column taken as ``abstract_raw``) is cleaned (pipeline.analyse.cleaning.clean_text) and given
its quarantine reason (pipeline.analyse.quarantine.quarantine_reason); every file under
``../shared/listings`` (``$EVAL_LISTINGS``; README.md, truth.jsonl and settings files left out) is read and
analysed as a run does (pipeline.ingest.records.listing_records, pipeline.analyse.abstracts.abstract_rows).
Printed: rows per quarantine reason for each source, with examples of the gates that judge a text's shape
(``markup``, ``citation``, ``several_abstracts``). With ``--base REV`` the same runs
on REV's ``pipeline/`` and ``schemas/`` (``git archive`` into a temporary folder, run in a subprocess), and
the rows whose reason or clean text differ are counted, by (before → after), with examples. Rows are
matched by (source, row index or paragraph): a listing whose reader now gives a different number of
records shows its later rows as changed. A source that
is absent is said and skipped. ``--out`` also writes the report as markdown.
"""

from __future__ import annotations

import argparse
import difflib
import os
import subprocess
import sys
import tarfile
import tempfile
from collections import Counter
from io import BytesIO
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
CORPUS = Path(os.environ.get("EVAL_CORPUS", SHARED / "corpus" / "real_abstracts_dev.parquet"))
LISTINGS = Path(os.environ.get("EVAL_LISTINGS", SHARED / "listings"))
SHAPE_GATES = ("markup", "citation", "several_abstracts")
_SKIP = {"README.md", "truth.jsonl", "listing.toml"}


def dump(out: Path, dev: bool, listings: bool) -> None:
    """Write ``out`` (parquet): one row per dev abstract and per listing record, ``source`` (``dev`` or the
    listing path), ``key`` (row index or paragraph), ``raw`` (first 2,000 characters), ``clean``, ``reason``.
    Runs with whatever ``pipeline`` is first on the path."""
    from pipeline.analyse import abstracts, cleaning, quarantine
    from pipeline.ingest import records

    frames = []
    if dev and CORPUS.exists():
        raws = pl.read_parquet(CORPUS, columns=["abstract"])["abstract"].fill_null("").to_list()
        cleans = [cleaning.clean_text(r) for r in raws]
        frames.append(
            pl.DataFrame(
                {
                    "source": ["dev"] * len(raws),
                    "key": list(range(len(raws))),
                    "raw": [r[:2000] for r in raws],
                    "clean": cleans,
                    "reason": [quarantine.quarantine_reason(r, c) for r, c in zip(raws, cleans)],
                },
                schema={
                    "source": pl.String,
                    "key": pl.Int64,
                    "raw": pl.String,
                    "clean": pl.String,
                    "reason": pl.String,
                },
            )
        )
    if listings and LISTINGS.is_dir():
        for path in sorted(p for p in LISTINGS.rglob("*") if p.is_file()):
            if path.name in _SKIP or path.name.endswith(".listing.toml"):
                continue
            rel = path.relative_to(LISTINGS).as_posix()
            frame, _ = records.listing_records(path.read_bytes(), rel)
            rows = abstracts.abstract_rows(frame)
            frames.append(
                pl.DataFrame(
                    {
                        "source": [rel] * rows.height,
                        "key": rows["paragraph"].cast(pl.Int64),
                        "raw": rows["abstract_raw"].str.slice(0, 2000),
                        "clean": rows["abstract"],
                        "reason": rows["quarantine_reason"].str.split(":").list.first(),
                    }
                )
            )
    pl.concat(frames).write_parquet(out) if frames else pl.DataFrame().write_parquet(out)


def _run_at(rev: str | None, out: Path, args: list[str]) -> None:
    """:func:`dump` in a subprocess, with REV's pipeline (``None``: this working tree's)."""
    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as tmp:
        path = str(ROOT)
        if rev is not None:
            tar = subprocess.run(
                ["git", "-C", str(ROOT), "archive", rev, "pipeline", "schemas"],
                check=True,
                capture_output=True,
            ).stdout
            with tarfile.open(fileobj=BytesIO(tar)) as t:
                t.extractall(tmp, filter="data")
            path = f"{tmp}{os.pathsep}{ROOT}"
        env["PYTHONPATH"] = path
        # run from the tree under test: ``-m`` puts the working folder first on the path, before PYTHONPATH
        cwd = tmp if rev is not None else str(ROOT)
        subprocess.run(
            [sys.executable, "-m", "bench.gates", "--dump", str(out), *args], check=True, env=env, cwd=cwd
        )


def _short(text: str, n: int = 220) -> str:
    text = " ".join((text or "").split())
    return text if len(text) <= n else text[: n - 1] + "…"


def _counts(df: pl.DataFrame) -> list[str]:
    lines = []
    for name, part in (
        ("dev corpus", df.filter(pl.col("source") == "dev")),
        ("shared listings", df.filter(pl.col("source") != "dev")),
    ):
        if not part.height:
            lines.append(f"- {name}: absent")
            continue
        reasons = Counter(part["reason"].to_list())
        n_q = part.height - reasons.pop(None, 0)
        lines.append(
            f"- {name}: {part.height} rows, {n_q} quarantined: "
            + ", ".join(f"{k} {v}" for k, v in sorted(reasons.items(), key=lambda kv: (-kv[1], kv[0])))
        )
    return lines


def _examples(df: pl.DataFrame, k: int) -> list[str]:
    lines = []
    for reason in SHAPE_GATES:
        part = df.filter(pl.col("reason") == reason)
        lines.append(
            f"\n### `{reason}`: {part.height} rows "
            f"({part.filter(pl.col('source') == 'dev').height} dev, "
            f"{part.filter(pl.col('source') != 'dev').height} in listings)\n"
        )
        by_source = Counter(part["source"].to_list())
        if by_source:
            lines.append("by source: " + ", ".join(f"`{s}` {n}" for s, n in by_source.most_common(8)) + "\n")
        for src, key, raw in part.select("source", "key", "raw").head(k).rows():
            lines.append(f"- `{src}`#{key}: {_short(raw)}")
    return lines


def _changes(before: pl.DataFrame, after: pl.DataFrame, k: int) -> list[str]:
    both = before.join(after, on=["source", "key"], how="inner", suffix="_new")
    lines = [f"\n## Changes from the base revision ({both.height} rows in both)\n"]
    moved = both.filter(pl.col("reason").ne_missing(pl.col("reason_new")))
    pairs = Counter(zip(moved["reason"].to_list(), moved["reason_new"].to_list()))
    lines.append(f"reason changed: {moved.height} rows")
    for (a, b), n in pairs.most_common():
        lines.append(f"- {a or 'published'} → {b or 'published'}: {n}")
        ex = moved.filter(pl.col("reason").eq_missing(a) & pl.col("reason_new").eq_missing(b)).head(k)
        for src, key, raw in ex.select("source", "key", "raw").rows():
            lines.append(f"  - `{src}`#{key}: {_short(raw, 180)}")
    changed = both.filter(pl.col("clean") != pl.col("clean_new"))
    lines.append(
        f"\nclean text changed: {changed.height} rows "
        f"({changed.filter(pl.col('source') == 'dev').height} dev)"
    )
    for src, key, old, new in changed.select("source", "key", "clean", "clean_new").head(4 * k).rows():
        ops = [
            o
            for o in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes()
            if o[0] != "equal"
        ]
        shown = "; ".join(
            f"`{old[max(0, a - 15) : b + 15]}` → `{new[max(0, c - 15) : d + 15]}`"
            for _, a, b, c, d in ops[:3]
        )
        lines.append(f"- `{src}`#{key}: {shown}")
    return lines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--base")
    ap.add_argument("--examples", type=int, default=3)
    ap.add_argument("--out", type=Path)
    ap.add_argument("--dev-only", action="store_true")
    ap.add_argument("--listings-only", action="store_true")
    ap.add_argument("--dump", type=Path, help=argparse.SUPPRESS)
    a = ap.parse_args(argv)
    dev, listings = not a.listings_only, not a.dev_only
    if a.dump:
        dump(a.dump, dev, listings)
        return 0
    for what, where in (("dev corpus", CORPUS), ("listings", LISTINGS)):
        if not where.exists():
            print(f"gates: {what} {where} is absent; skipped")
    flags = ["--dev-only"] if a.dev_only else ["--listings-only"] if a.listings_only else []
    with tempfile.TemporaryDirectory() as tmp:
        now = Path(tmp) / "now.parquet"
        _run_at(None, now, flags)
        after = pl.read_parquet(now)
        lines = ["## Quarantine reasons now\n", *_counts(after), *_examples(after, a.examples)]
        if a.base:
            base = Path(tmp) / "base.parquet"
            _run_at(a.base, base, flags)
            before = pl.read_parquet(base)
            lines = [*lines, f"\n## At {a.base}\n", *_counts(before), *_changes(before, after, a.examples)]
    report = "\n".join(lines) + "\n"
    print(report)
    if a.out:
        a.out.write_text(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
