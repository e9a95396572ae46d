"""Duplicate clusters and stable paper identity (docs/design.md, "Dedup and identity").

Three rules, each a named constant with its source:

1. Exact duplicates share :func:`pipeline.analyse.hashing.content_hash` (xxh3-128 of the normalised text:
   NFKC, casefold, every run of non-alphanumerics folded to one space). LaTeX/Unicode/whitespace variants are
   already equal after cleaning (measured on the dev corpus, docs/design.md "Dedup and identity").
2. Near duplicates: MinHash over word 3-gram shingles, LSH banding for candidates, then the exact Jaccard of
   the shingle sets must reach :data:`JACCARD_THRESHOLD`.
3. Truncated copies: a candidate pair whose shingle containment |A∩B|/min(|A|,|B|) reaches
   :data:`CONTAINMENT_THRESHOLD` (a prefix key makes truncated copies candidates: LSH alone misses them).

Candidates are generated per listing (:func:`pipeline.analyse.hashing.lsh_keys`, stored with each abstract) so
the global step only joins on keys (vectorised polars); exact verification runs in Python on candidate pairs
only (no all-pairs comparison). Measured precision/recall and scaling: ``make bench-dedup`` (bench/dedup/,
docs/benchmarks.md, "Duplicates").

Identity (:func:`cluster`): a cluster inherits the ``paper_id`` a member's raw text or content hash had in
the previous release; failing that, the id of a previous paper that left the dataset (its listing removed
or re-scraped) whose canonical text is a verified near or truncated copy of the cluster's; else a new id.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

import polars as pl

from pipeline.analyse.hashing import lsh_keys, normalise_for_hash, shingles

RULES_VERSION = "1"  # bump when outputs change (docs/execution.md)

#: Verified near duplicate: exact Jaccard of word 3-gram sets (one edited word gives 0.91, a different
#: abstract on the same topic 0.02, measured on the dev corpus).
JACCARD_THRESHOLD = 0.8
#: Verified truncated copy: containment of the shorter in the longer (a 50 % truncation measured 0.973
#: on the dev corpus), only when the shorter has at least MIN_CONTAINMENT_SHINGLES shingles.
CONTAINMENT_THRESHOLD = 0.9
MIN_CONTAINMENT_SHINGLES = 20
#: A member of a cluster is *incomplete* (truncated, or a sentence dropped) when another member contains it
#: (containment >= CONTAINMENT_THRESHOLD) and it has fewer than this share of that member's shingles. The
#: truncated copies the dedup tests use keep 60-95 % of the text; a 1-3 word edit changes an abstract of >=
#: 100 words (the dev corpus median is ~170) by <= 3 %, so an edited copy is not called incomplete. The
#: canonical row of a cluster is never an incomplete one when a complete one exists (docs/design.md, "Dedup
#: and identity").
INCOMPLETE_RATIO = 0.97
#: Candidate buckets larger than this are boilerplate (a template sentence shared by many papers); their
#: pairs are not generated. Real duplicate groups in the dev corpus are far smaller.
MAX_BUCKET = 64

#: Texts of rows by their position in :func:`cluster`'s input: given a UInt32 Series of row numbers, the clean
#: texts of those rows in the same order. Only the rows of candidate pairs are ever asked for, so a caller
#: holding many rows can keep the texts on disk (pipeline.release.dataset reads them from the work files).
TextLookup = Callable[[pl.Series], list[str]]


def paper_id_for(content_hash_hex: str) -> str:
    """A new paper id: ``"p"`` + 16 hex digits of sha256 of the cluster's smallest content hash."""
    return "p" + hashlib.sha256(content_hash_hex.encode()).hexdigest()[:16]


def _find(parent: dict, x):
    while parent[x] != x:
        parent[x] = parent[parent[x]]
        x = parent[x]
    return x


def _verified(sa: set[int], sb: set[int]) -> tuple[float | None, int]:
    """Score of a verified duplicate pair of shingle sets and which side is incomplete.

    Returns ``(score, incomplete)``: ``score`` is the Jaccard when it reaches JACCARD_THRESHOLD, else the
    containment when that reaches CONTAINMENT_THRESHOLD, else ``None`` (not a duplicate); ``incomplete`` is
    0 (neither), 1 (``sa`` is contained in ``sb`` and shorter by more than INCOMPLETE_RATIO) or 2 (``sb``).
    """
    if not sa or not sb:
        return None, 0
    inter = len(sa & sb)
    small, large = sorted((len(sa), len(sb)))
    jac = inter / (len(sa) + len(sb) - inter)
    cont = inter / small if small >= MIN_CONTAINMENT_SHINGLES else 0.0
    score = jac if jac >= JACCARD_THRESHOLD else cont if cont >= CONTAINMENT_THRESHOLD else None
    incomplete = 0
    if score is not None and cont >= CONTAINMENT_THRESHOLD and small < INCOMPLETE_RATIO * large:
        incomplete = 1 if len(sa) < len(sb) else 2
    return score, incomplete


def _candidate_pairs(keyed: pl.DataFrame, left: str, right: str | None = None) -> pl.DataFrame:
    """Pairs of ids sharing an LSH key in buckets of at most MAX_BUCKET members.

    ``keyed`` has columns ``id`` (UInt32/Int64), ``side`` (0/1) and ``lsh_keys`` (List[UInt64]). Without
    ``right``: pairs ``a < b`` of side-0 ids (a self-join). With it: pairs (side-0 id, side-1 id). Returns
    columns ``left``, ``right`` (or ``a``, ``b``), unique and sorted.

    One list position (one band, or the prefix key) at a time: every band's keys are hashed with their own
    seed (:func:`lsh_keys`), so two positions share a key only by a 64-bit collision, and the buckets, hence
    the pairs, are those of all positions together; the join then holds one row per abstract, not one per
    key (15 per abstract)."""
    other = right or "b"
    width = keyed.select(pl.col("lsh_keys").list.len().max().fill_null(0)).item() if keyed.height else 0
    found = [keyed.select(pl.col("id").alias(left), pl.col("id").alias(other)).clear()]
    for i in range(width):
        one = keyed.select("id", "side", pl.col("lsh_keys").list.get(i, null_on_oob=True)).drop_nulls(
            "lsh_keys"
        )
        found.append(_bucket_pairs(one, left, right))
    return pl.concat(found).unique().sort(left, other)


def _bucket_pairs(exploded: pl.DataFrame, left: str, right: str | None) -> pl.DataFrame:
    """:func:`_candidate_pairs` of one key per row (``id``, ``side``, ``lsh_keys``: UInt64), not unique."""
    big = exploded.group_by("lsh_keys").len().filter(pl.col("len") > MAX_BUCKET).select("lsh_keys")
    exploded = exploded.join(big, on="lsh_keys", how="anti")
    a = exploded.filter(pl.col("side") == 0).select("lsh_keys", pl.col("id").alias(left))
    if right is None:
        pairs = a.join(a.rename({left: "b"}), on="lsh_keys").filter(pl.col(left) < pl.col("b"))
        return pairs.select(left, "b")
    b = exploded.filter(pl.col("side") == 1).select("lsh_keys", pl.col("id").alias(right))
    return a.join(b, on="lsh_keys").select(left, right)


def _exact_groups(abstracts: pl.DataFrame) -> pl.DataFrame:
    """The narrow columns of :func:`cluster`'s input with ``rid`` (UInt32, row number), ``identity`` (when
    the input has ``source_id`` and ``title``) and ``rep`` (UInt32: the first rid of its exact group, i.e.
    of its ``content_hash``)."""
    has_identity = "source_id" in abstracts.columns and "title" in abstracts.columns
    rows = abstracts.select(
        "listing",
        "paragraph",
        "year",
        "content_hash",
        "n_words",
        "raw_sha256",
        *([identity_key().alias("identity")] if has_identity else []),
    ).with_row_index("rid")
    # one representative per exact group; near-duplicate search runs on representatives only
    reps = rows.group_by("content_hash").agg(pl.col("rid").min().alias("rep"))
    return rows.join(reps, on="content_hash", how="left")


def _near_roots(rows: pl.DataFrame, text: TextLookup, lsh: pl.Series) -> pl.DataFrame:
    """Near-duplicate search among the exact groups' representatives: candidate pairs by LSH bucket, each
    verified (:func:`_verified`), merged by union-find.

    Returns:
        one row per representative in a verified pair: ``rep`` and ``root`` (UInt32: the smallest rep of its
        near-duplicate cluster), ``rep_similarity`` (Float64: its best verified score), ``incomplete``
        (Boolean: it was the short side of a truncated copy, see INCOMPLETE_RATIO).
    """
    rep_rows = rows.filter(pl.col("rid") == pl.col("rep"))
    pairs = _candidate_pairs(
        rep_rows.select(pl.col("rep").alias("id"), pl.lit(0).alias("side"), lsh.gather(rep_rows["rep"])), "a"
    )
    # Python from here on touches candidate pairs only
    members = pl.concat([pairs["a"], pairs["b"]]).unique().sort()
    shingle_sets = {r: shingles(normalise_for_hash(t)) for r, t in zip(members.to_list(), text(members))}
    parent = {r: r for r in shingle_sets}
    sim_of: dict[int, float] = {}
    incomplete: set[int] = set()
    for a, b in pairs.iter_rows():
        score, short = _verified(shingle_sets[a], shingle_sets[b])
        if score is None:
            continue
        ra, rb = _find(parent, a), _find(parent, b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
        sim_of[a] = max(sim_of.get(a, 0.0), score)
        sim_of[b] = max(sim_of.get(b, 0.0), score)
        if short:
            incomplete.add(a if short == 1 else b)
    merged = [r for r in parent if parent[r] != r or r in sim_of]
    return pl.DataFrame(
        {
            "rep": merged,
            "root": [_find(parent, r) for r in merged],
            "rep_similarity": [sim_of.get(r) for r in merged],
            "incomplete": [r in incomplete for r in merged],
        },
        schema={"rep": pl.UInt32, "root": pl.UInt32, "rep_similarity": pl.Float64, "incomplete": pl.Boolean},
    )


def _canonical_rows(rows: pl.DataFrame) -> pl.DataFrame:
    """One row per cluster (``root``, sorted): ``canon_rid`` and ``canon_ref`` (``"<listing>#<paragraph>"``)
    of its canonical row (order in :func:`cluster`'s docstring), ``min_hash`` (its smallest content_hash)
    and ``n_sources`` (Int64)."""
    order = rows.sort(
        ["root", "incomplete", "year", "n_words", "listing", "paragraph"],
        descending=[False, False, True, True, True, False],
    )
    return (
        order.group_by("root", maintain_order=True)
        .agg(
            pl.col("rid").first().alias("canon_rid"),
            (pl.col("listing").first() + "#" + pl.col("paragraph").first().cast(pl.String)).alias(
                "canon_ref"
            ),
            pl.col("content_hash").min().alias("min_hash"),
            pl.len().cast(pl.Int64).alias("n_sources"),
        )
        .sort("root")
    )


def _cluster_rows(rows: pl.DataFrame, canon: pl.DataFrame) -> pl.DataFrame:
    """:func:`cluster`'s output (input row order) from the rows with their ``root`` and the clusters with
    their ``paper_id``."""
    out = rows.join(
        canon.select("root", "canon_rid", "canon_ref", "n_sources", "paper_id"), on="root", how="left"
    ).with_columns(is_canon=pl.col("rid") == pl.col("canon_rid"))
    return out.sort("rid").select(
        "listing",
        "paragraph",
        "paper_id",
        pl.when("is_canon").then(pl.lit("published")).otherwise(pl.lit("duplicate")).alias("status"),
        pl.when("is_canon").then(None).otherwise(pl.col("canon_ref")).alias("duplicate_of"),
        pl.when("is_canon")
        .then(None)
        .when(pl.col("rep") == pl.col("rid"))
        .then(pl.col("rep_similarity"))
        .otherwise(pl.lit(1.0))
        .alias("similarity"),
        "n_sources",
    )


def cluster(
    abstracts: pl.DataFrame,
    previous: pl.DataFrame | None = None,
    previous_texts: pl.LazyFrame | pl.DataFrame | None = None,
    texts: TextLookup | None = None,
) -> pl.DataFrame:
    """Group publishable abstracts into papers and give each paper its stable id.

    Args:
        abstracts: one row per non-quarantined abstract with columns ``listing`` (str), ``paragraph``
            (Int64), ``year`` (Int64), ``abstract`` (str, clean; not needed with ``texts``),
            ``content_hash`` (str), ``n_words`` (Int64), ``raw_sha256`` (str), ``lsh_keys``
            (List[UInt64]).
        previous: the previous release's identity (pipeline.build.tables.previous_id_map): ``key`` (str: a
            raw_sha256 or content_hash seen there) → ``paper_id`` (str), and optionally ``abstract`` (str:
            the paper's canonical clean text on its content_hash row, else null). ``None`` for a first
            release.
        previous_texts: the previous papers' ``paper_id`` and ``abstract`` (a lazy scan: only the papers
            no cluster claimed are read), used when ``previous`` has no ``abstract`` column.
        texts: the clean texts of rows of ``abstracts`` by row number (:data:`TextLookup`), asked only for
            the rows of candidate pairs; default: its ``abstract`` column. Either way the result is the
            same.

    Returns:
        one row per input row: ``listing``, ``paragraph``, ``paper_id`` (str), ``status`` ("published" for
        the cluster's canonical row, else "duplicate"), ``duplicate_of`` (``"<listing>#<paragraph>"`` of the
        canonical row, null for it), ``similarity`` (Float64: 1.0 exact, the verified Jaccard or containment
        for near/truncated copies, null for the canonical row), ``n_sources`` (Int64, rows in the cluster).

    The canonical row is the most complete one (never an incomplete copy, see INCOMPLETE_RATIO), then the
    most recent (year), then the most words, then the last listing name, then the first paragraph
    (docs/design.md, "Dedup and identity"). Ids: see the module docstring; an id is given to one cluster only
    (the first by row order), so two clusters never share one.
    """
    # the texts and LSH keys stay in ``text`` / ``lsh`` (indexed by rid): the joins and sorts below copy
    # only the narrow columns
    text = texts if texts is not None else _column_lookup(abstracts["abstract"])
    lsh = abstracts["lsh_keys"]
    rows = _exact_groups(abstracts)
    rows = rows.join(_near_roots(rows, text, lsh), on="rep", how="left").with_columns(
        pl.col("root").fill_null(pl.col("rep")), pl.col("incomplete").fill_null(False)
    )
    canon = _assign_ids(rows, text, lsh, _canonical_rows(rows), previous, previous_texts)
    return _cluster_rows(rows, canon)


def _column_lookup(column: pl.Series) -> TextLookup:
    """A :data:`TextLookup` over a column held in memory."""
    return lambda rows: column.gather(rows).to_list()


def identity_key() -> pl.Expr:
    """Key of a record's identity in its listing: ``"src:" + source_id + "|" + title`` (title casefolded, runs
    of non-word characters one space), null unless both are given. A paper whose abstract was fixed keeps its
    id when its source id and title match (pipeline.build.tables.previous_id_map holds the same key)."""
    title = pl.col("title").str.to_lowercase().str.replace_all(r"[\W_]+", " ").str.strip_chars()
    return pl.when(pl.col("source_id").is_not_null() & pl.col("title").is_not_null()).then(
        pl.lit("src:") + pl.col("source_id") + pl.lit("|") + title
    )


def _assign_ids(
    rows: pl.DataFrame,
    text: TextLookup,
    lsh: pl.Series,
    canon: pl.DataFrame,
    previous: pl.DataFrame | None,
    previous_texts: pl.LazyFrame | pl.DataFrame | None,
) -> pl.DataFrame:
    """Add ``paper_id`` to ``canon`` (one row per cluster ``root``, sorted): inherited by exact key, else
    by a verified near/truncated match with a previous paper that no cluster claimed, else new."""
    ids = canon.with_columns(pl.lit(None, pl.String).alias("paper_id"))
    if previous is not None and previous.height:
        keyed = [
            rows.select("root", pl.col("raw_sha256").alias("key")),
            rows.select("root", pl.col("content_hash").alias("key")),
        ]
        if "identity" in rows.columns:
            keyed.append(rows.select("root", pl.col("identity").alias("key")).drop_nulls("key"))
        by_key = (
            pl.concat(keyed)
            .join(previous.select("key", "paper_id"), on="key", how="inner")
            .group_by("root")
            .agg(pl.col("paper_id").min())
        )
        ids = (
            canon.join(by_key, on="root", how="left")
            .sort("root")
            .with_columns(
                # a previous id claimed by two clusters stays with the first (by root)
                pl.when(pl.col("paper_id").is_first_distinct()).then(pl.col("paper_id")).alias("paper_id")
            )
        )
        ids = _inherit_near(rows, text, lsh, ids, previous, previous_texts)
    new = ids.filter(pl.col("paper_id").is_null())
    fresh = dict(zip(new["root"].to_list(), (paper_id_for(h) for h in new["min_hash"].to_list())))
    return ids.with_columns(
        pl.col("paper_id").fill_null(
            pl.col("root").replace_strict(fresh, default=None, return_dtype=pl.String)
        )
    )


def _inherit_near(
    rows: pl.DataFrame,
    text: TextLookup,
    lsh: pl.Series,
    ids: pl.DataFrame,
    previous: pl.DataFrame,
    previous_texts: pl.LazyFrame | pl.DataFrame | None,
) -> pl.DataFrame:
    """Clusters without an id inherit the id of an unclaimed previous paper whose canonical text is a
    verified near or truncated copy of one of their members (an edited or truncated copy
    keeps its id after the listing of the original is removed). Python work ∝ unclaimed previous papers;
    only their texts are read from ``previous_texts`` (when ``previous`` has no ``abstract``)."""
    open_roots = ids.filter(pl.col("paper_id").is_null()).select("root")
    if not open_roots.height:
        return ids
    claimed = ids.filter(pl.col("paper_id").is_not_null()).select("paper_id")
    if "abstract" in previous.columns:
        candidates = previous.filter(pl.col("abstract").is_not_null()).select("paper_id", "abstract")
    elif previous_texts is not None:
        unclaimed = previous.select("paper_id").unique().join(claimed, on="paper_id", how="anti")
        candidates = (
            previous_texts.lazy()
            .select("paper_id", "abstract")
            .filter(
                pl.col("paper_id").is_in(unclaimed["paper_id"].implode()), pl.col("abstract").is_not_null()
            )
            .collect()
        )
    else:
        return ids
    orphans = (
        candidates.join(claimed, on="paper_id", how="anti").unique("paper_id", keep="first").sort("paper_id")
    )
    if not orphans.height:
        return ids
    orphan_ids = orphans["paper_id"].to_list()
    orphan_norm = [normalise_for_hash(t) for t in orphans["abstract"].to_list()]
    open_reps = (
        rows.join(open_roots, on="root")
        .filter(pl.col("rid") == pl.col("rep"))
        .select(pl.col("rep").cast(pl.Int64).alias("id"), pl.lit(0).alias("side"))
    )
    keyed = pl.concat(
        [
            open_reps.with_columns(lsh_keys=lsh.gather(open_reps["id"])),
            pl.DataFrame(
                {
                    "id": range(len(orphan_ids)),
                    "side": [1] * len(orphan_ids),
                    "lsh_keys": [lsh_keys(n) for n in orphan_norm],
                },
                schema={"id": pl.Int64, "side": pl.Int32, "lsh_keys": pl.List(pl.UInt64)},
            ),
        ]
    )
    pairs = _candidate_pairs(keyed.with_columns(pl.col("side").cast(pl.Int32)), "rep", "orphan")
    if not pairs.height:
        return ids
    rep_root = dict(rows.filter(pl.col("rid") == pl.col("rep")).select("rep", "root").iter_rows())
    reps = pairs["rep"].unique().sort()
    texts = dict(zip(reps.to_list(), text(reps)))
    verified = []
    for rep, o in pairs.iter_rows():
        score, _ = _verified(shingles(normalise_for_hash(texts[rep])), shingles(orphan_norm[o]))
        if score is not None:
            verified.append((-score, rep_root[rep], orphan_ids[o]))
    taken_roots: dict[int, str] = {}
    taken_ids: set[str] = set()
    for _, root, pid in sorted(verified):  # best match first; ties by root, then id: deterministic
        if root not in taken_roots and pid not in taken_ids:
            taken_roots[root] = pid
            taken_ids.add(pid)
    return ids.with_columns(
        pl.col("paper_id").fill_null(
            pl.col("root").replace_strict(taken_roots, default=None, return_dtype=pl.String)
        )
    )
