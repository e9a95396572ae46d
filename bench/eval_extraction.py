"""Extraction quality: score URLs and metrics against the hand-labelled gold (``make eval``).

usage: python bench/eval_extraction.py [--gold PATH ...] [--direct-only] [--errors N] [--json]

This is an evaluation entry point, not part of the runtime package: it loads the gold scorer
(``tests/data/gold/score.py``) by path, so ``pipeline`` never imports anything under ``tests/``.

Gold files: every ``--gold`` (default: ``gold_dev.jsonl``, ``gold_dev2.jsonl`` and ``gold_dev3.jsonl`` in
``tests/data/gold/``) is scored apart and their union is scored as one file; ``$EVAL_HELDOUT`` may name one more
gold file (scored apart, never part of the union). The targets hold for EACH file, so the table ends with the
spread: the worst and the best file per score (through the pipeline when it ran, else direct).

What it does:
1. **Pipeline run** (on the union) (when ``python -m pipeline run`` exists): writes the gold abstracts as one
   listing with the gold scorer's ``listing`` rule into a temporary raw folder, runs the pipeline into a
   temporary warehouse (``PIPELINE_RAW_DIR``, ``PIPELINE_WAREHOUSE_DIR``, ``DAGSTER_HOME`` set to temp dirs),
   then scores the release with the gold scorer's ``score`` (``tests/data/gold/score.py``, a copy of the
   project's scoring rules, README there), once for the union and once for each gold file (columns
   ``pipeline <file>``).
2. **Direct**: the same gold through the extraction functions alone (paper ``abstract_raw`` = the listing
   paragraph, metrics read ``clean_text(abstract_raw)``), written as a one-release warehouse and scored
   by the same ``score`` function. This isolates extraction from parsing/dedup.
3. **Fixtures**: the ``metric`` and ``url`` groups of ``fixtures.jsonl`` (exact expectations), called
   directly; a case passes when every expected row is found with the right kind/metric/dataset/subject and
   nothing else is emitted (the fixtures' older URL kind names are mapped onto the table's kinds, see
   :data:`FIXTURE_KIND_ALIAS`).
4. **Cost**: ms per abstract for ``extract_urls(raw) + extract_metrics(clean)`` (cleaning excluded, done
   beforehand) over the dev corpus ``../shared/corpus/real_abstracts_dev.parquet`` (or ``$EVAL_CORPUS``);
   says so when the corpus is absent.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[1]
# `python bench/eval_extraction.py` needs the repository root on the path for `bench` and `pipeline`;
# `python -m bench.eval_extraction` (the Makefile) and imports from tests do not
if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pipeline.analyse.abstracts import METRIC_STRUCT, URL_STRUCT
from pipeline.analyse.cleaning import clean_text
from pipeline.analyse.extraction import METRIC_FIELDS, URL_FIELDS, extract_metrics, extract_urls

GOLD_DIR = ROOT / "tests" / "data" / "gold"
DEFAULT_GOLD = GOLD_DIR / "gold_dev.jsonl"
#: Every dev gold file; the targets hold on each of them (the worst file is what counts).
DEV_GOLDS = (GOLD_DIR / "gold_dev.jsonl", GOLD_DIR / "gold_dev2.jsonl", GOLD_DIR / "gold_dev3.jsonl")
FIXTURES = GOLD_DIR / "fixtures.jsonl"
DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "real_abstracts_dev.parquet"

#: Targets on EACH dev gold file through the pipeline (docs/extraction.md "Evaluation"; the floors that
#: tests/analyse/test_evaluation.py asserts are the figures met today, at or below these).
TARGETS = {
    "url_f1": 0.98,
    "url_kind_acc": 0.97,
    "metric_f1": 0.94,
    "metric_precision": 0.95,
    "metric_kind_acc": 0.90,
    "metric_name_acc": 0.88,
    "metric_dataset_acc": 0.88,
    "metric_subject_acc": 0.95,
}
#: fixtures.jsonl predates the paper_urls kinds; these are the same kinds under the table's names.
FIXTURE_KIND_ALIAS = {"code_anonymous": "anonymous_code", "code_owner": "code", "shortener": "other"}


def load_scorer():
    """The gold scorer module (``tests/data/gold/score.py``), imported from its file."""
    spec = importlib.util.spec_from_file_location("gold_score", GOLD_DIR / "score.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def read_jsonl(path: Path) -> list[dict]:
    """One dict per non-empty line of a JSON Lines file (UTF-8). Raises json.JSONDecodeError on a bad line."""
    return [json.loads(line) for line in Path(path).read_text(encoding="utf-8").splitlines() if line.strip()]


def listing_paragraph(text: str) -> str:
    """The paragraph as the pipeline stores it (score.py ``listing``: blank-line runs become one line end)."""
    return re.sub(r"\n\s*\n+", "\n", text.strip())


def direct_tables(records: list[dict]) -> dict[str, pl.DataFrame]:
    """papers / paper_urls / paper_metrics built by the extraction functions alone (no Dagster)."""
    papers, urls, mets = [], [], []
    for i, rec in enumerate(records):
        pid = f"p{i:05d}"
        raw = listing_paragraph(rec["text"])
        papers.append({"paper_id": pid, "abstract_raw": raw})
        for r in extract_urls(raw):
            urls.append({"paper_id": pid, **r})
        for r in extract_metrics(clean_text(raw)):
            mets.append({"paper_id": pid, **r})
    url_schema = {"paper_id": pl.String, **dict(URL_STRUCT.to_schema())}
    met_schema = {"paper_id": pl.String, **dict(METRIC_STRUCT.to_schema())}
    assert set(URL_FIELDS) <= set(url_schema) and set(METRIC_FIELDS) <= set(met_schema)
    return {
        "papers": pl.DataFrame(papers, schema={"paper_id": pl.String, "abstract_raw": pl.String}),
        "paper_urls": pl.DataFrame(urls, schema=url_schema),
        "paper_metrics": pl.DataFrame(mets, schema=met_schema),
    }


def write_release(tables: dict[str, pl.DataFrame], wh: Path, n: int = 1) -> None:
    """Write ``tables`` as release ``n`` in the layout score.py reads (``release=N/<table>/*.parquet``)."""
    for name, df in tables.items():
        d = wh / f"release={n}" / name
        d.mkdir(parents=True, exist_ok=True)
        df.write_parquet(d / "part-0.parquet")
    (wh / "LATEST").write_text(str(n))


def score_direct(gold_path: Path = DEFAULT_GOLD):
    """Score the extraction functions on ``gold_path`` with score.py's rules -> (result dict, errors)."""
    scorer = load_scorer()
    records = [g for g in read_jsonl(gold_path) if "urls" in g or "metrics" in g]
    with tempfile.TemporaryDirectory(prefix="eval_direct_") as tmp:
        write_release(direct_tables(records), Path(tmp))
        return scorer.score(str(gold_path), tmp)


def pipeline_cli_available() -> bool:
    """Whether the lead's ``python -m pipeline run`` exists (``pipeline/__main__.py`` + a ``"run"``
    command)."""
    main, cli = ROOT / "pipeline" / "__main__.py", ROOT / "pipeline" / "cli.py"
    return main.exists() and any(
        p.exists() and '"run"' in p.read_text(encoding="utf-8", errors="replace") for p in (main, cli)
    )


def score_pipeline(gold_path: Path = DEFAULT_GOLD, timeout: int = 1800, parts: dict[str, Path] | None = None):
    """Run ``python -m pipeline run`` over a raw folder holding only the gold listing, score the release.

    Returns ``(result, errors, log)``; ``result`` is None when the run failed (log says why). With ``parts``
    (name -> gold file whose abstracts are all in ``gold_path``) the same release is also scored on each
    part: ``result["parts"]`` is then ``{name: (result, errors)}``.
    """
    scorer = load_scorer()
    tmp = Path(tempfile.mkdtemp(prefix="eval_pipeline_"))
    try:
        raw, wh, home = tmp / "raw", tmp / "warehouse", tmp / "dagster_home"
        for d in (raw, wh, home):
            d.mkdir()
        scorer.main(["listing", str(gold_path), str(raw / "gold.txt")])
        env = dict(
            os.environ, PIPELINE_RAW_DIR=str(raw), PIPELINE_WAREHOUSE_DIR=str(wh), DAGSTER_HOME=str(home)
        )
        proc = subprocess.run(
            [sys.executable, "-m", "pipeline", "run"],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        log = (proc.stdout + proc.stderr)[-3000:]
        if proc.returncode != 0 or not (wh / "LATEST").exists():
            return None, [], f"pipeline run failed (exit {proc.returncode}):\n{log}"
        res, errors = scorer.score(str(gold_path), str(wh))
        res["parts"] = {name: scorer.score(str(p), str(wh)) for name, p in (parts or {}).items()}
        return res, errors, log
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def _match_rows(gold_rows, pred_rows, scorer):
    """Greedy one-to-one matching as in score.py -> list of (gold, pred or None), unmatched preds."""
    used = [False] * len(pred_rows)
    pairs = []
    for g in gold_rows:
        for j, p in enumerate(pred_rows):
            if not used[j] and scorer.metric_match(g, p):
                used[j] = True
                pairs.append((g, p))
                break
        else:
            pairs.append((g, None))
    return pairs, [p for j, p in enumerate(pred_rows) if not used[j]]


def fixture_results() -> list[dict]:
    """Per fixture of the metric and url groups: id, group, passed, and what went wrong."""
    scorer = load_scorer()
    out = []
    for fx in read_jsonl(FIXTURES):
        if fx.get("group") == "metric":
            pred = extract_metrics(clean_text(fx["text"]))
            pairs, extra = _match_rows(fx["metrics"], pred, scorer)
            problems = []
            for g, p in pairs:
                if p is None:
                    problems.append(f"missed {g.get('value_text') or g.get('value')} {g.get('unit')}")
                    continue
                for field, ok in (
                    ("kind", g.get("kind") == p.get("kind")),
                    ("metric", scorer.name_ok(g.get("metric"), p.get("metric"))),
                    ("dataset", scorer.name_ok(g.get("dataset"), p.get("dataset"))),
                    ("subject", (g.get("subject") or "ours") == (p.get("subject") or "ours")),
                ):
                    if not ok:
                        problems.append(f"{g.get('value')}: {field} {p.get(field)!r} != {g.get(field)!r}")
            problems += [f"spurious {p['value']} {p['unit']}" for p in extra]
            out.append({"id": fx["id"], "group": "metric", "passed": not problems, "problems": problems})
        elif fx.get("group") == "url":
            pred = {scorer.url_key(r["url"]): r["kind"] for r in extract_urls(fx["text"])}
            gold = {
                scorer.url_key(u["url"]): FIXTURE_KIND_ALIAS.get(u["kind"], u["kind"]) for u in fx["urls"]
            }
            problems = [f"missed {k}" for k in gold.keys() - pred.keys()]
            problems += [f"spurious {k}" for k in pred.keys() - gold.keys()]
            problems += [
                f"{k}: kind {pred[k]} != {gold[k]}" for k in gold.keys() & pred.keys() if pred[k] != gold[k]
            ]
            out.append({"id": fx["id"], "group": "url", "passed": not problems, "problems": problems})
    return out


def measure_cost(corpus: Path | None = None, limit: int | None = None) -> dict:
    """Mean ms per abstract for ``extract_urls(raw) + extract_metrics(clean)`` over the dev corpus.

    Cleaning is done before the clock starts (it is the cleaning step's cost, not extraction's).
    Returns ``{"corpus": path or None, "n": int, "ms_per_abstract": float or None, "note": str}``.
    """
    path = Path(corpus or os.environ.get("EVAL_CORPUS") or DEFAULT_CORPUS)
    if not path.exists():
        recs = read_jsonl(DEFAULT_GOLD)
        texts = [listing_paragraph(r["text"]) for r in recs]
        note = (
            f"dev corpus ABSENT ({path}: ../shared/corpus not present, set $EVAL_CORPUS); "
            f"measured on the {len(texts)} gold_dev abstracts instead"
        )
    else:
        df = pl.read_parquet(path, columns=["abstract"]).drop_nulls()
        texts = df["abstract"].to_list()
        note = f"dev corpus {path} ({len(texts)} abstracts)"
    if limit:
        texts = texts[:limit]
    cleaned = [clean_text(t) for t in texts]
    t0 = time.perf_counter()
    n_urls = n_mets = 0
    for raw, clean in zip(texts, cleaned):
        n_urls += len(extract_urls(raw))
        n_mets += len(extract_metrics(clean))
    dt = time.perf_counter() - t0
    return {
        "corpus": str(path) if path.exists() else None,
        "n": len(texts),
        "ms_per_abstract": 1000 * dt / max(1, len(texts)),
        "urls": n_urls,
        "metrics": n_mets,
        "note": note,
    }


_ROWS = (
    ("URL precision", "url_precision"),
    ("URL recall", "url_recall"),
    ("URL F1", "url_f1"),
    ("URL kind accuracy", "url_kind_acc"),
    ("metric precision", "metric_precision"),
    ("metric recall", "metric_recall"),
    ("metric F1", "metric_f1"),
    ("metric kind accuracy", "metric_kind_acc"),
    ("metric name accuracy", "metric_name_acc"),
    ("metric dataset accuracy", "metric_dataset_acc"),
    ("metric subject accuracy", "metric_subject_acc"),
)


def spread(columns: dict[str, dict | None], names: list[str]) -> dict[str, tuple[float, float]]:
    """Score key -> (worst, best) over the columns ``names`` that have a result (the spread between files)."""
    res = [columns[n] for n in names if columns.get(n) is not None]
    return {key: (min(r[key] for r in res), max(r[key] for r in res)) for _, key in _ROWS} if res else {}


def format_table(columns: dict[str, dict | None], spread_of: list[str] | None = None) -> str:
    """A markdown table: one row per score, one column per run, then (with ``spread_of``, the per-file
    columns) the worst and best of those files, the target and whether the worst file meets it."""
    names = list(columns)
    sp = spread(columns, spread_of or [])
    extra = " worst | best | met |" if sp else ""
    lines = [
        "| score | " + " | ".join(names) + " |" + extra + " target |",
        "|---|" + "---|" * (len(names) + (3 if sp else 0)) + "---|",
    ]
    for label, key in _ROWS:
        cells = []
        for n in names:
            res = columns[n]
            cells.append("n/a" if res is None else f"{res[key]:.3f}")
        tgt = TARGETS.get(key)
        if sp:
            worst, best = sp[key]
            met = ("yes" if worst >= tgt else "no") if tgt else ""
            cells += [f"{worst:.3f}", f"{best:.3f}", met]
        lines.append(f"| {label} | " + " | ".join(cells) + f" | {f'≥ {tgt:.2f}' if tgt else ''} |")
    return "\n".join(lines)


def union_gold(paths: list[Path], out: Path) -> Path:
    """Write the records of every gold file in ``paths`` into one JSON Lines file ``out`` (returned)."""
    with open(out, "w", encoding="utf-8") as f:
        for p in paths:
            for rec in read_jsonl(p):
                f.write(json.dumps(rec, ensure_ascii=False) + "\n")
    return out


def gold_sets(golds: list[Path]) -> dict[str, Path]:
    """Name -> gold file of each scored set: each file, ``union`` of them (when more than one), the held-out
    file named by ``$EVAL_HELDOUT`` (when set). Missing files raise FileNotFoundError naming them."""
    for p in golds:
        if not Path(p).exists():
            raise FileNotFoundError(f"gold file {p} not found")
    sets = {Path(p).stem: Path(p) for p in golds}
    if len(golds) > 1:
        tmp = Path(tempfile.mkdtemp(prefix="eval_union_")) / "union.jsonl"
        sets["union"] = union_gold(golds, tmp)
    held = os.environ.get("EVAL_HELDOUT")
    if held:
        sets["heldout"] = Path(held)
    return sets


def main(argv: list[str] | None = None) -> int:
    """``python bench/eval_extraction.py``: print the score table; exit status 0 (2 on bad usage)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument(
        "--gold",
        type=Path,
        action="append",
        default=None,
        help="a gold JSON Lines file (repeatable); default: the dev gold files",
    )
    ap.add_argument("--direct-only", action="store_true", help="skip the end-to-end pipeline run")
    ap.add_argument("--errors", type=int, default=25, help="print the first N errors of each scored run")
    ap.add_argument("--cost-limit", type=int, default=None, help="time only the first N corpus abstracts")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    sets = gold_sets(args.gold or list(DEV_GOLDS))
    main_set = "union" if "union" in sets else next(iter(sets))

    columns: dict[str, dict | None] = {}
    all_errors: dict[str, list] = {}
    notes = []
    files = [n for n in sets if n not in ("union", "heldout")]
    per_file = files
    if not args.direct_only:
        if pipeline_cli_available():
            parts = {n: sets[n] for n in files} if main_set == "union" else {}
            res, errors, log = score_pipeline(sets[main_set], parts=parts)
            columns[f"pipeline {main_set}"] = res
            all_errors[f"pipeline {main_set}"] = errors
            if res is None:
                notes.append(log)
            else:
                if res["unmatched_docs"]:
                    notes.append(
                        f"pipeline: {res['unmatched_docs']} gold abstracts not found among published papers"
                    )
                for name, (pres, _) in res.pop("parts").items():
                    columns[f"pipeline {name}"] = pres
                per_file = [f"pipeline {n}" for n in files] if parts else files
        else:
            notes.append("`python -m pipeline run` not available yet: pipeline column skipped")
    for name, path in sets.items():
        res, errors = score_direct(path)
        columns[name] = res
        if name != "union":
            all_errors[name] = errors
    fx = fixture_results()
    cost = measure_cost(limit=args.cost_limit)

    if args.json:
        print(json.dumps({"scores": columns, "fixtures": fx, "cost": cost, "notes": notes}, default=str))
        return 0
    print("gold: " + ", ".join(f"{k}={v}" for k, v in sets.items()))
    print(format_table(columns, spread_of=per_file if len(files) > 1 else None))
    if len(files) > 1:
        print(f"worst/best: over {', '.join(per_file)}; met: the worst file meets the target")
    for grp in ("metric", "url"):
        rows = [f for f in fx if f["group"] == grp]
        ok = sum(f["passed"] for f in rows)
        print(
            f"fixtures {grp}: {ok}/{len(rows)} pass"
            + (
                " (fail: " + ", ".join(f["id"] for f in rows if not f["passed"]) + ")"
                if ok < len(rows)
                else ""
            )
        )
    print(f"extraction cost: {cost['ms_per_abstract']:.3f} ms/abstract (URLs+metrics) on {cost['note']}")
    for n in notes:
        print("note:", n)
    for name, errs in all_errors.items():
        if errs and args.errors:
            print(f"first errors ({name}):")
            for e in errs[: args.errors]:
                print("  ", *e)
    if args.errors:
        for f in fx:
            if not f["passed"]:
                print("  fixture", f["id"], "; ".join(f["problems"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
