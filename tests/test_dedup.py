"""Duplicate clusters on real abstracts: exact, near, truncated, boilerplate, and stable ids."""

import polars as pl

from pipeline import cleaning, dedup
from pipeline.records import listing_records
from tests.conftest import SEEDS


def _seed_abstracts() -> list[str]:
    frame, _ = listing_records(SEEDS[0].read_bytes(), SEEDS[0].name)
    return [cleaning.clean_abstract(t) for t in frame["abstract_raw"]]


def _frame(texts: list[str], listing: str = "a.txt", year: int = 2026) -> pl.DataFrame:
    return pl.DataFrame({
        "listing": [listing] * len(texts), "paragraph": list(range(1, len(texts) + 1)), "year": [year] * len(texts),
        "abstract": texts, "content_hash": [dedup.content_hash(t) for t in texts],
        "n_words": [len(t.split()) for t in texts], "raw_sha256": [dedup.content_hash(t) * 2 for t in texts],
        "lsh_keys": [dedup.lsh_keys(dedup.normalise_for_hash(t)) for t in texts],
    }, schema_overrides={"lsh_keys": pl.List(pl.UInt64)})


def test_distinct_real_abstracts_stay_apart():
    texts = _seed_abstracts()
    out = dedup.cluster(_frame(texts))
    assert out["paper_id"].n_unique() == len(texts) == 19
    assert set(out["status"]) == {"published"}


def test_exact_near_and_truncated_copies_join_their_original():
    texts = _seed_abstracts()
    original = texts[3]
    words = original.split()
    variants = [
        "  " + original.upper().replace(" ", "\n ", 5),                          # case and whitespace
        " ".join(words[:10] + ["novel"] + words[11:]),                           # one word edited
        " ".join(words[: int(len(words) * 0.7)]),                                # truncated to 70 %
    ]
    out = dedup.cluster(pl.concat([_frame(texts), _frame(variants, listing="b.txt", year=2027)]))
    orig_id = out.filter(pl.col("listing") == "a.txt", pl.col("paragraph") == 4)["paper_id"][0]
    copies = out.filter(pl.col("listing") == "b.txt")
    assert copies["paper_id"].to_list() == [orig_id] * 3
    assert out["paper_id"].n_unique() == 19
    cluster = out.filter(pl.col("paper_id") == orig_id)
    # canonical: most complete first (the truncated copy never wins), then most recent
    canon = cluster.filter(pl.col("status") == "published")
    assert canon.height == 1 and canon["listing"][0] == "b.txt" and canon["paragraph"][0] in (1, 2)
    sims = dict(zip(cluster["paragraph"].to_list(), cluster["similarity"].to_list()))
    assert all(s is None or 0.8 <= s <= 1.0 for s in sims.values())


def test_shared_boilerplate_does_not_merge_distinct_papers():
    texts = _seed_abstracts()[:6]
    template = " Code and data are available at our project page, and all results are averaged over five seeds."
    out = dedup.cluster(_frame([t + template for t in texts]))
    assert out["paper_id"].n_unique() == 6


def test_ids_are_stable_across_releases_and_inherited_by_edits():
    texts = _seed_abstracts()
    first = dedup.cluster(_frame(texts))
    previous = first.join(_frame(texts).select("listing", "paragraph", "content_hash"), on=["listing", "paragraph"])
    prev_map = previous.select(pl.col("content_hash").alias("key"), "paper_id")
    words = texts[0].split()
    edited = " ".join(words[:5] + ["improved"] + words[6:])
    # release 2: a later listing re-lists two papers, one of them edited
    second = dedup.cluster(pl.concat([_frame(texts), _frame([edited, texts[1]], listing="c.txt")]), prev_map)
    assert second["paper_id"].n_unique() == 19
    assert second["paper_id"].to_list()[:19] == first["paper_id"].to_list()
    assert second.filter(pl.col("listing") == "c.txt")["paper_id"].to_list() == first["paper_id"].to_list()[:2]
