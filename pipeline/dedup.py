"""Duplicate clusters and stable paper identity (design §5).

Three rules, each a named constant with its source:

1. Exact duplicates share :func:`content_hash` (xxh3-128 of the normalised text: NFKC, casefold, every run
   of non-alphanumerics folded to one space). LaTeX/Unicode/whitespace variants are already equal after
   cleaning (../shared/notes/extraction.md §5.2).
2. Near duplicates: MinHash over word 3-gram shingles, LSH banding for candidates, then the exact Jaccard of
   the shingle sets must reach :data:`JACCARD_THRESHOLD`.
3. Truncated copies: a candidate pair whose shingle containment |A∩B|/min(|A|,|B|) reaches
   :data:`CONTAINMENT_THRESHOLD` (a prefix key makes truncated copies candidates: LSH alone misses them).

Candidates are generated per listing (:func:`lsh_keys`, stored with each abstract) so the global step only
joins on keys; exact verification runs on candidate pairs only (no all-pairs comparison).
"""

from __future__ import annotations

import hashlib
import re
import unicodedata

import numpy as np
import polars as pl
import xxhash
from datasketch import MinHash

#: Word n-gram size of shingles: 3, the setting measured in ../shared/notes/extraction.md §5.2.
SHINGLE_WORDS = 3
#: MinHash permutations and LSH bands × rows: (14, 9) over 128 permutations gives P(candidate) 0.87 at
#: J=0.8 and 0.97 at J=0.85 (datasketch threshold=0.7, ../shared/notes/extraction.md §5.3, "tuned for recall").
NUM_PERM = 128
LSH_BANDS = 14
LSH_ROWS = 9
#: Verified near duplicate: exact Jaccard of word 3-gram sets (one edited word gives 0.91, a different
#: abstract on the same topic 0.02; ../shared/notes/extraction.md §5.2).
JACCARD_THRESHOLD = 0.8
#: Verified truncated copy: containment of the shorter in the longer (a 50 % truncation measured 0.973,
#: ../shared/notes/extraction.md §5.2), only when the shorter has at least MIN_CONTAINMENT_SHINGLES shingles.
CONTAINMENT_THRESHOLD = 0.9
MIN_CONTAINMENT_SHINGLES = 20
#: Words of the normalised text that form the prefix key (truncated copies keep their beginning).
PREFIX_WORDS = 12
#: Candidate buckets larger than this are boilerplate (a template sentence shared by many papers); their
#: pairs are not generated. Real duplicate groups in the dev corpus are far smaller.
MAX_BUCKET = 64
MINHASH_SEED = 1

_NON_ALNUM = re.compile(r"[\W_]+")


def normalise_for_hash(text: str) -> str:
    """NFKC, casefold, and every run of non-alphanumeric characters folded to one space."""
    text = unicodedata.normalize("NFKC", text).casefold().replace("×", "x")
    return _NON_ALNUM.sub(" ", text).strip()


def content_hash(text: str) -> str:
    """32 hex digits: xxh3-128 of :func:`normalise_for_hash` (stable across versions and platforms)."""
    return xxhash.xxh3_128_hexdigest(normalise_for_hash(text).encode("utf-8"))


def shingles(normalised: str) -> set[int]:
    """Word 3-gram shingles of a normalised text as 64-bit hashes (a shorter text is one shingle)."""
    words = normalised.split()
    if len(words) < SHINGLE_WORDS:
        return {xxhash.xxh3_64_intdigest(" ".join(words).encode())} if words else set()
    return {xxhash.xxh3_64_intdigest(" ".join(words[i:i + SHINGLE_WORDS]).encode())
            for i in range(len(words) - SHINGLE_WORDS + 1)}


def lsh_keys(normalised: str) -> list[int]:
    """LSH_BANDS band keys of the MinHash signature plus one prefix key, as unsigned 64-bit ints."""
    sh = shingles(normalised)
    if not sh:
        return []
    mh = MinHash(num_perm=NUM_PERM, seed=MINHASH_SEED, hashfunc=lambda x: x)
    mh.update_batch(np.fromiter(sh, dtype=np.uint64, count=len(sh)) & np.uint64(0xFFFFFFFF))
    sig = mh.hashvalues.astype(np.uint64)
    keys = [xxhash.xxh3_64_intdigest(sig[b * LSH_ROWS:(b + 1) * LSH_ROWS].tobytes(), seed=b)
            for b in range(LSH_BANDS)]
    keys.append(xxhash.xxh3_64_intdigest(" ".join(normalised.split()[:PREFIX_WORDS]).encode(), seed=LSH_BANDS))
    return keys


def similarity(a: str, b: str) -> tuple[float, float]:
    """``(jaccard, containment)`` of the word 3-gram shingle sets of two normalised texts."""
    sa, sb = shingles(a), shingles(b)
    if not sa or not sb:
        return 0.0, 0.0
    inter = len(sa & sb)
    small = min(len(sa), len(sb))
    containment = inter / small if small >= MIN_CONTAINMENT_SHINGLES else 0.0
    return inter / len(sa | sb), containment


def paper_id_for(content_hash_hex: str) -> str:
    """A new paper id: ``"p"`` + 16 hex digits of sha256 of the cluster's smallest content hash."""
    return "p" + hashlib.sha256(content_hash_hex.encode()).hexdigest()[:16]


def _find(parent: dict, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def cluster(abstracts: pl.DataFrame, previous_ids: pl.DataFrame | None = None) -> pl.DataFrame:
    """Group publishable abstracts into papers.

    Args:
        abstracts: one row per non-quarantined abstract with columns ``listing`` (str), ``paragraph``
            (Int64), ``year`` (Int64), ``abstract`` (str, clean), ``content_hash`` (str), ``n_words``
            (Int64), ``raw_sha256`` (str), ``lsh_keys`` (List[UInt64]).
        previous_ids: ``key`` (str: a raw_sha256 or content_hash seen in the previous release) →
            ``paper_id`` (str), so papers keep their ids across releases; ``None`` for a first release.

    Returns:
        one row per input row: ``listing``, ``paragraph``, ``paper_id`` (str), ``status`` ("published" for
        the cluster's canonical row, else "duplicate"), ``duplicate_of`` (``"<listing>#<paragraph>"`` of the
        canonical row, null for it), ``similarity`` (Float64: 1.0 exact, the verified Jaccard or containment
        for near/truncated copies, null for the canonical row), ``n_sources`` (Int64, rows in the cluster).
        The canonical row is the most complete (most words), then most recent (year), then the last listing
        name, then the first paragraph.
    """
    rows = abstracts.with_row_index("rid")
    # one representative per exact group; near-duplicate search runs on representatives only
    reps = rows.group_by("content_hash").agg(pl.col("rid").min().alias("rep"))
    rows = rows.join(reps, on="content_hash", how="left")
    rep_rows = rows.filter(pl.col("rid") == pl.col("rep"))
    buckets = (
        rep_rows.select("rep", "lsh_keys").explode("lsh_keys").drop_nulls("lsh_keys")
        .group_by("lsh_keys").agg(pl.col("rep").unique().sort())
        .filter(pl.col("rep").list.len().is_between(2, MAX_BUCKET))
    )
    pairs = (
        buckets.select(pl.col("rep").alias("a"), pl.col("rep").alias("b"))
        .explode("a").explode("b").filter(pl.col("a") < pl.col("b")).unique().sort("a", "b")
    )
    norm = dict(zip(rep_rows["rep"].to_list(), (normalise_for_hash(t) for t in rep_rows["abstract"].to_list())))
    parent = {r: r for r in norm}
    sim_of: dict[int, float] = {}
    for a, b in pairs.iter_rows():
        jac, cont = similarity(norm[a], norm[b])
        if jac >= JACCARD_THRESHOLD or cont >= CONTAINMENT_THRESHOLD:
            ra, rb = _find(parent, a), _find(parent, b)
            if ra != rb:
                parent[max(ra, rb)] = min(ra, rb)
            score = jac if jac >= JACCARD_THRESHOLD else cont
            sim_of[a] = max(sim_of.get(a, 0.0), score)
            sim_of[b] = max(sim_of.get(b, 0.0), score)
    root = pl.DataFrame(
        {"rep": list(parent), "root": [_find(parent, r) for r in parent],
         "rep_similarity": [sim_of.get(r) for r in parent]},
        schema={"rep": pl.UInt32, "root": pl.UInt32, "rep_similarity": pl.Float64},
    )
    rows = rows.join(root, on="rep", how="left")
    order = rows.sort(["root", "n_words", "year", "listing", "paragraph"],
                      descending=[False, True, True, True, False])
    canon = order.group_by("root", maintain_order=True).agg(
        pl.col("rid").first().alias("canon_rid"),
        (pl.col("listing").first() + "#" + pl.col("paragraph").first().cast(pl.String)).alias("canon_ref"),
        pl.col("content_hash").min().alias("min_hash"),
        pl.len().cast(pl.Int64).alias("n_sources"),
    )
    # stable ids: inherit an id a member had in the previous release, else derive one
    if previous_ids is not None and previous_ids.height:
        prev = pl.concat([
            rows.select("root", pl.col("raw_sha256").alias("key")),
            rows.select("root", pl.col("content_hash").alias("key")),
        ]).join(previous_ids, on="key", how="inner").group_by("root").agg(pl.col("paper_id").min())
        canon = canon.join(prev, on="root", how="left")
    else:
        canon = canon.with_columns(pl.lit(None, pl.String).alias("paper_id"))
    fresh = pl.col("min_hash").map_elements(paper_id_for, return_dtype=pl.String)
    # a previous id claimed by two clusters stays with the first (by root); the other gets a fresh id
    canon = canon.sort("root").with_columns(
        pl.when(pl.col("paper_id").is_not_null() & pl.col("paper_id").is_first_distinct())
        .then(pl.col("paper_id")).otherwise(fresh).alias("paper_id")
    )
    out = rows.join(canon, on="root", how="left").with_columns(
        is_canon=pl.col("rid") == pl.col("canon_rid"),
    )
    return out.sort("rid").select(
        "listing", "paragraph", "paper_id",
        pl.when("is_canon").then(pl.lit("published")).otherwise(pl.lit("duplicate")).alias("status"),
        pl.when("is_canon").then(None).otherwise(pl.col("canon_ref")).alias("duplicate_of"),
        pl.when("is_canon").then(None)
        .when(pl.col("rep") == pl.col("rid")).then(pl.col("rep_similarity"))
        .otherwise(pl.lit(1.0)).alias("similarity"),
        "n_sources",
    )
