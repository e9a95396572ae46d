"""Near-duplicate benchmark: pairwise precision/recall of the pipeline's clusters and the dedup step's
scaling.

    python bench/dedup/bench_dedup.py [--corpus PATH] [--sizes 10000,20000,40000] [--workers 2] [--repeat 3]
    make bench-dedup

What it does:

1. Takes distinct abstracts (distinct normalised text, >= MIN_CHARS characters) of
   ``../shared/corpus/real_abstracts_dev.parquet`` in a seeded random order: the *originals*.
2. Injects one variant of known origin for every VARIANT_EVERY-th original, cycling through the types of
   :data:`VARIANTS` (whitespace/line wraps, LaTeX<->Unicode, markdown, 1-3 word edits, a sentence dropped,
   truncation to 60-95 %, mojibake).
3. Writes them as real listing files (CHUNK originals per listing; the variants of a chunk in a later
   "re-scrape" listing) and runs the pipeline's real per-listing step on each
   (``pipeline.ingest.records.listing_records`` + ``abstract_rows``; results cached by file sha256 and
   ``abstracts.ANALYSIS_VERSION`` under --cache), then the real dedup step
   (``pipeline.build.dedup.cluster(pipeline.build.tables.publishable(...))``).
4. Prints pairwise precision/recall of the clusters (a pair = two rows with the same paper_id; a true pair
   = two rows of the same origin) over all rows and per variant type, the original/original pairs that
   were merged (distinct corpus records: real duplicates in the corpus or false merges), and the dedup
   step's time (best of --repeat) at each size with the growth ratio (time ratio / row ratio) between the
   smallest and largest.

Exits 0 with a message when the corpus is absent (the project stands alone without ../shared).
"""

from __future__ import annotations

import argparse
import hashlib
import math
import random
import re
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

import polars as pl

ROOT = Path(__file__).resolve().parents[2]
# `python bench/dedup/bench_dedup.py` needs the repository root on the path for `bench` and `pipeline`;
# `python -m bench.dedup.bench_dedup` (the Makefile) and imports from tests do not
if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from pipeline.analyse import abstracts, hashing
from pipeline.build import dedup, tables  # noqa: E402
from pipeline.ingest import records as ingest_records  # noqa: E402

DEFAULT_CORPUS = ROOT.parent / "shared" / "corpus" / "real_abstracts_dev.parquet"
#: Originals shorter than this are skipped: most are quarantined by the pipeline (not abstracts).
MIN_CHARS = 300
#: One variant per this many originals: 10 % variants (>= 2k at 20k abstracts, as the issue asks).
VARIANT_EVERY = 10
#: Originals per listing file.
CHUNK = 500
SEED = 20260501
VARIANTS = ("whitespace", "latex", "markdown", "word_edit", "sentence_drop", "truncation", "mojibake")

UNICODE_TO_LATEX = {
    "%": r"\%",
    "×": r"$\times$",
    "α": r"$\alpha$",
    "β": r"$\beta$",
    "γ": r"$\gamma$",
    "λ": r"$\lambda$",
    "ε": r"$\epsilon$",
    "≥": r"$\geq$",
    "≤": r"$\leq$",
    "±": r"$\pm$",
    "→": r"$\rightarrow$",
    "—": "---",
    "–": "--",
    "“": "``",
    "”": "''",
    "&": r"\&",
}
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z])")


def _whitespace(text: str, rng: random.Random) -> str:
    words = text.split(" ")
    out, width = [], 0
    for w in words:
        sep = rng.choice([" ", " ", " ", "  ", "\t"])
        if width > rng.randint(55, 90):
            sep, width = "\n", 0
        out.append(w + sep)
        width += len(w) + 1
    return "  " + "".join(out).rstrip() + "   "


def _latex(text: str, rng: random.Random) -> str:
    if "$" in text or "\\" in text:  # LaTeX -> Unicode
        from pylatexenc.latex2text import LatexNodes2Text

        return LatexNodes2Text().latex_to_text(text)
    for u, tex in UNICODE_TO_LATEX.items():
        text = text.replace(u, tex)
    return _wrap_words(text, rng, 2, [r"\textbf{%s}", r"\emph{%s}", r"\textit{%s}"])


def _wrap_words(text: str, rng: random.Random, k: int, forms: list[str]) -> str:
    """Wrap ``k`` random alphabetic words of ``text`` in one of ``forms`` each."""
    words = text.split(" ")
    alpha = [i for i, w in enumerate(words) if w.isalpha()]
    for i in rng.sample(alpha, k=min(k, len(alpha))):
        words[i] = rng.choice(forms) % words[i]
    return " ".join(words)


def _markdown(text: str, rng: random.Random) -> str:
    return _wrap_words(text, rng, 3, ["**%s**", "*%s*", "_%s_", "`%s`"])


def _word_edit(text: str, rng: random.Random, vocab: list[str]) -> str:
    words = text.split(" ")
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(words))
        op = rng.choice(["replace", "insert", "delete", "typo"])
        if op == "replace":
            words[i] = rng.choice(vocab)
        elif op == "insert":
            words.insert(i, rng.choice(vocab))
        elif op == "delete" and len(words) > 1:
            del words[i]
        elif len(words[i]) > 3:
            j = rng.randrange(len(words[i]) - 1)
            w = words[i]
            words[i] = w[:j] + w[j + 1] + w[j] + w[j + 2 :]
    return " ".join(words)


def _sentence_drop(text: str, rng: random.Random) -> str:
    sentences = _SENTENCE.split(text)
    if len(sentences) < 3:
        return " ".join(sentences[:-1]) if len(sentences) > 1 else text[: int(len(text) * 0.85)]
    del sentences[rng.randrange(1, len(sentences))]
    return " ".join(sentences)


def _truncation(text: str, rng: random.Random) -> str:
    cut = text[: int(len(text) * rng.uniform(0.60, 0.95))].rstrip()
    return cut + rng.choice(["", "...", "…"])


def _mojibake(text: str, rng: random.Random) -> str:
    if text.isascii():  # give it typographic characters first, as a re-scrape through a CMS would
        text = text.replace(" - ", " — ").replace("'", "’")
        if text.isascii():
            text = text.replace(". ", ". “", 1) + "”"
    return text.encode("utf-8").decode("cp1252", errors="ignore")


def make_variant(kind: str, text: str, rng: random.Random, vocab: list[str]) -> str:
    """One injected variant of ``text`` of type ``kind`` (one of :data:`VARIANTS`)."""
    if kind == "word_edit":
        return _word_edit(text, rng, vocab)
    return {
        "whitespace": _whitespace,
        "latex": _latex,
        "markdown": _markdown,
        "sentence_drop": _sentence_drop,
        "truncation": _truncation,
        "mojibake": _mojibake,
    }[kind](text, rng)


def load_originals(corpus: Path, n: int) -> pl.DataFrame:
    """``n`` distinct abstracts (``origin``, ``venue``, ``year``, ``text``) in a seeded random order."""
    df = pl.read_parquet(corpus, columns=["venue", "year", "abstract"]).drop_nulls("abstract")
    df = df.with_columns(text=pl.col("abstract").str.replace_all(r"\s*\n\s*\n\s*", "\n").str.strip_chars())
    df = df.filter(pl.col("text").str.len_chars() >= MIN_CHARS)
    norm = [hashing.normalise_for_hash(t) for t in df["text"].to_list()]
    df = df.with_columns(norm=pl.Series(norm)).unique("norm", keep="first", maintain_order=True)
    df = df.sample(fraction=1.0, shuffle=True, seed=SEED)
    if df.height < n:
        raise SystemExit(f"the corpus has only {df.height} usable abstracts, {n} asked for")
    return df.head(n).with_row_index("origin").select("origin", "venue", "year", "text")


def build_listings(originals: pl.DataFrame) -> list[dict]:
    """Listing files: per chunk of CHUNK originals one file, plus one 're-scrape' file with its variants.

    Returns dicts ``name``, ``data`` (bytes), ``chunk``, ``truth`` (per paragraph: origin, variant type or
    None)."""
    rng = random.Random(SEED)
    vocab = [w for t in originals["text"].head(2000).to_list() for w in t.split(" ") if w.isalpha()]
    out = []
    rows = originals.rows(named=True)
    n_variant = 0
    for c in range(math.ceil(len(rows) / CHUNK)):
        chunk = rows[c * CHUNK : (c + 1) * CHUNK]
        venue = re.sub(r"[^A-Za-z0-9]", "", chunk[0]["venue"] or "") or "Corpus"
        year = chunk[0]["year"] or 2024
        paras, truth = [], []
        for r in chunk:
            paras.append(r["text"])
            truth.append((r["origin"], None))
        out.append(
            {
                "name": f"c{c:03d}_{venue}_{year}.txt",
                "chunk": c,
                "truth": truth,
                "data": (f"{venue} {year} Accepted Papers\n\n" + "\n\n".join(paras) + "\n").encode(),
            }
        )
        vparas, vtruth = [], []
        for r in chunk:
            if r["origin"] % VARIANT_EVERY:
                continue
            kind = VARIANTS[n_variant % len(VARIANTS)]
            n_variant += 1
            v = make_variant(kind, r["text"], random.Random(rng.random()), vocab)
            vparas.append(re.sub(r"\n\s*\n", "\n", v))
            vtruth.append((r["origin"], kind))
        out.append(
            {
                "name": f"v{c:03d}_Rescrape_2030.txt",
                "chunk": c,
                "truth": vtruth,
                "data": ("Rescrape 2030 Papers\n\n" + "\n\n".join(vparas) + "\n").encode(),
            }
        )
    return out


def _per_listing(args: tuple[str, bytes]) -> pl.DataFrame:
    name, data = args
    recs, _ = ingest_records.listing_records(data, name)
    return abstracts.abstract_rows(recs)


def run_listings(listings: list[dict], cache: Path, workers: int) -> dict[str, pl.DataFrame]:
    """The pipeline's per-listing step for every listing, cached by sha256 of the bytes + ANALYSIS_VERSION."""
    version = abstracts.ANALYSIS_VERSION
    cache.mkdir(parents=True, exist_ok=True)
    out, todo = {}, []
    for item in listings:
        path = cache / f"{hashlib.sha256(item['data']).hexdigest()[:20]}_{version}.parquet"
        item["cache"] = path
        if path.exists():
            out[item["name"]] = pl.read_parquet(path)
        else:
            todo.append(item)
    if todo:
        t0 = time.perf_counter()
        print(
            f"per-listing step: {len(todo)} listings to analyse ({len(listings) - len(todo)} cached), "
            f"{workers} worker(s)...",
            flush=True,
        )
        with ProcessPoolExecutor(max_workers=workers, mp_context=get_context("spawn")) as pool:
            for item, frame in zip(todo, pool.map(_per_listing, [(i["name"], i["data"]) for i in todo])):
                frame.write_parquet(item["cache"])
                out[item["name"]] = frame
        n = sum(out[i["name"]].height for i in todo)
        print(f"per-listing step: {n} abstracts in {time.perf_counter() - t0:.1f} s", flush=True)
    return out


def truth_frame(listings: list[dict]) -> pl.DataFrame:
    rows = [(i["name"], p, o, k) for i in listings for p, (o, k) in enumerate(i["truth"], 1)]
    return pl.DataFrame(
        rows,
        schema={"listing": pl.String, "paragraph": pl.Int64, "origin": pl.UInt32, "variant": pl.String},
        orient="row",
    )


def _pairs(n: pl.Expr) -> pl.Expr:
    return (n * (n - 1) // 2).sum()


def score(labelled: pl.DataFrame) -> list[dict]:
    """Pairwise precision/recall over all rows and per variant type (rows: paper_id, origin, variant)."""
    pred = labelled.group_by("paper_id").len().select(_pairs(pl.col("len").cast(pl.Int64))).item()
    true = labelled.group_by("origin").len().select(_pairs(pl.col("len").cast(pl.Int64))).item()
    tp = labelled.group_by("paper_id", "origin").len().select(_pairs(pl.col("len").cast(pl.Int64))).item()
    out = [
        {
            "variant": "all",
            "rows": labelled.height,
            "true_pairs": true,
            "found_pairs": pred,
            "correct": tp,
            "precision": tp / pred if pred else 1.0,
            "recall": tp / true if true else 1.0,
        }
    ]
    size = labelled.group_by("paper_id").len().rename({"len": "size"})
    same = labelled.group_by("paper_id", "origin").len().rename({"len": "same"})
    origin_size = labelled.group_by("origin").len().rename({"len": "osize"})
    v = (
        labelled.filter(pl.col("variant").is_not_null())
        .join(size, on="paper_id")
        .join(same, on=["paper_id", "origin"])
        .join(origin_size, on="origin")
    )
    for kind in VARIANTS:
        k = v.filter(pl.col("variant") == kind)
        pred_k = int((k["size"] - 1).sum())
        tp_k = int((k["same"] - 1).sum())
        true_k = int((k["osize"] - 1).sum())
        out.append(
            {
                "variant": kind,
                "rows": k.height,
                "true_pairs": true_k,
                "found_pairs": pred_k,
                "correct": tp_k,
                "precision": tp_k / pred_k if pred_k else 1.0,
                "recall": tp_k / true_k if true_k else 1.0,
            }
        )
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    ap.add_argument("--sizes", default="10000,20000,40000", help="numbers of originals (comma-separated)")
    ap.add_argument("--workers", type=int, default=2, help="processes for the per-listing step")
    ap.add_argument("--repeat", type=int, default=3, help="dedup step runs per size (best is reported)")
    ap.add_argument(
        "--cache",
        type=Path,
        default=Path("/tmp/bench_dedup_cache"),
        help="per-listing results cache (default /tmp/bench_dedup_cache)",
    )
    ap.add_argument("--examples", type=int, default=5, help="merged original/original pairs to print")
    args = ap.parse_args(argv)
    if not args.corpus.exists():
        print(
            f"corpus {args.corpus} not found: this benchmark needs ../shared/corpus (not part of the repo); "
            "nothing measured"
        )
        return 0
    sizes = sorted(int(s) for s in args.sizes.split(","))
    originals = load_originals(args.corpus, sizes[-1])
    listings = build_listings(originals)
    frames = run_listings(listings, args.cache, args.workers)
    truth = truth_frame(listings)
    print(
        f"\ncorpus {args.corpus}: {originals.height} originals, {truth['variant'].is_not_null().sum()} variants "
        f"in {len(listings)} listings"
    )
    timing = []
    for n in sizes:
        chunks = math.ceil(n / CHUNK)
        names = [i["name"] for i in listings if i["chunk"] < chunks]
        abstracts = pl.concat([frames[nm] for nm in names])
        pub = tables.publishable(abstracts)
        best = math.inf
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            clusters = dedup.cluster(pub)
            best = min(best, time.perf_counter() - t0)
        timing.append((n, pub.height, best))
        labelled = clusters.join(truth, on=["listing", "paragraph"], how="left")
        assert labelled["origin"].null_count() == 0, "a paragraph without ground truth: listing split changed"
        q = truth.join(pub.select("listing", "paragraph"), on=["listing", "paragraph"], how="anti").filter(
            pl.col("listing").is_in(names)
        )
        print(
            f"\n## {n} originals: {abstracts.height} abstracts, {pub.height} clustered "
            f"({q.height} quarantined by the pipeline, of them {q['variant'].is_not_null().sum()} variants: "
            f"{dict(q.drop_nulls('variant').group_by('variant').len().iter_rows())}); "
            f"dedup step {best:.2f} s (best of {args.repeat})\n"
        )
        print("| variant | rows | true pairs | found pairs | correct | precision | recall |")
        print("|---|---|---|---|---|---|---|")
        for r in score(labelled):
            print(
                f"| {r['variant']} | {r['rows']} | {r['true_pairs']} | {r['found_pairs']} | {r['correct']} | "
                f"{r['precision']:.4f} | {r['recall']:.4f} |"
            )
        merged = (
            labelled.filter(pl.col("variant").is_null())
            .group_by("paper_id")
            .agg(pl.col("origin").unique().sort())
            .filter(pl.col("origin").list.len() > 1)
        )
        print(
            f"\noriginal/original merges (distinct corpus records in one cluster): {merged.height} clusters"
        )
        text_of = dict(zip(originals["origin"].to_list(), originals["text"].to_list()))
        for origins in merged["origin"].head(args.examples).to_list():
            a, b = text_of[origins[0]], text_of[origins[1]]
            sa, sb = (hashing.shingles(hashing.normalise_for_hash(x)) for x in (a, b))
            inter = len(sa & sb)
            print(
                f"  - origins {origins}: jaccard {inter / len(sa | sb):.3f}, containment "
                f"{inter / min(len(sa), len(sb)):.3f}\n      {a[:110]!r}\n      {b[:110]!r}"
            )
    print("\n| originals | rows clustered | dedup step (s) | s per 1k rows |")
    print("|---|---|---|---|")
    for n, rows, t in timing:
        print(f"| {n} | {rows} | {t:.3f} | {1000 * t / rows:.4f} |")
    (_n0, r0, t0), (_n1, r1, t1) = timing[0], timing[-1]
    growth = (t1 / t0) / (r1 / r0)
    print(
        f"\ngrowth: time x{t1 / t0:.2f} for rows x{r1 / r0:.2f} -> growth ratio {growth:.2f} (target <= 1.3)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
