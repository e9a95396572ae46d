"""The per-listing analysis over a range of listings (pipeline.analyse.abstracts.iter_abstracts): one listing at a time,
the same rows whatever the range, cached rows reused only from files that still hold them.

Inputs: the two seed listings (tests/data/seeds) and listings made from their paragraphs (a copy under
another name, a mix of both), so texts repeat across listings as in real archives.
"""

import shutil
from pathlib import Path

import polars as pl
import pytest

from pipeline import cli
from pipeline.analyse import abstracts
from pipeline.ingest.records import listing_records
from tests.conftest import SEEDS


def _paragraphs(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").rstrip("\n").split("\n\n")


def _listings() -> dict[str, bytes]:
    """Key → listing bytes: both seeds, a copy of the first, and the header of the second with 5 abstracts
    of each seed (every text of the copy and of the mix is also in an earlier listing)."""
    a, b = _paragraphs(SEEDS[0]), _paragraphs(SEEDS[1])
    mix = "\n\n".join(b[:1] + a[1:6] + b[1:6]) + "\n"
    return {
        "a.txt": SEEDS[0].read_bytes(),
        "b.txt": SEEDS[1].read_bytes(),
        "c_copy.txt": SEEDS[0].read_bytes(),
        "d_mix.txt": mix.encode("utf-8"),
    }


def _records() -> dict[str, pl.DataFrame]:
    return {k: listing_records(data, k)[0] for k, data in _listings().items()}


def _hashes(recs: dict[str, pl.DataFrame]) -> pl.LazyFrame:
    return pl.concat(
        [
            f.filter(pl.col("decode_error").is_null()).select(pl.lit(k).alias("key"), "raw_sha256")
            for k, f in recs.items()
        ]
    ).lazy()


def test_a_range_gives_each_listing_the_rows_it_gets_alone_and_analyses_a_repeated_text_once():
    recs = _records()
    together, stats = abstracts.build_abstracts(recs)
    assert list(together) == list(recs)
    for key, frame in recs.items():
        alone = abstracts.abstract_rows(frame)
        assert together[key].equals(alone), key
    distinct = pl.concat([f["raw_sha256"] for f in recs.values()]).n_unique()
    assert (stats["analysed"], stats["reused"]) == (distinct, 0) == (38, 0)
    assert together["c_copy.txt"].drop("listing").equals(together["a.txt"].drop("listing"))
    assert together["d_mix.txt"].height == 10


def test_each_listing_is_yielded_before_the_next_ones_are_read():
    recs = _records()
    events = []

    def load(key):
        events.append(("load", key))
        return recs[key]

    for key, frame, _ in abstracts.iter_abstracts(list(recs), load, _hashes(recs)):
        events.append(("yield", key))
        assert frame.height == recs[key].height
    assert events == [(e, k) for k in recs for e in ("load", "yield")]


def test_cached_rows_are_read_only_from_files_that_still_hold_them(tmp_path):
    recs = _records()
    first, _ = abstracts.build_abstracts(recs)
    cache = {}
    for key, frame in first.items():
        cache[key] = tmp_path / f"{key}.parquet"
        frame.write_parquet(cache[key])
    # a.txt loses 5 abstracts that c_copy.txt and d_mix.txt (later in the range) hold; the caller rewrites
    # a.txt's file as soon as it is yielded, so a.txt's old file no longer holds them when their turn comes
    a = _paragraphs(SEEDS[0])
    recs["a.txt"] = listing_records(("\n\n".join(a[:1] + a[6:]) + "\n").encode(), "a.txt")[0]
    rounds = (  # (cached files, analysed, reused)
        (cache, 0, 38),  # from the not yet rewritten files of c_copy.txt / d_mix.txt
        ({k: cache[k] for k in ("a.txt", "b.txt")}, 5, 33),  # only a.txt's old file had them: analysed afresh
    )
    for cached, analysed, reused in rounds:
        for key in first:
            first[key].write_parquet(cache[key])  # the first run's files
        out, stats = {}, {"analysed": 0, "reused": 0, "seconds": {}}
        for key, frame, s in abstracts.iter_abstracts(list(recs), recs.__getitem__, _hashes(recs), cached):
            out[key] = frame
            abstracts.add_stats(stats, s)
            frame.write_parquet(cache[key])  # rewritten as the asset does, as soon as it is yielded
        for key, frame in recs.items():
            assert out[key].equals(abstracts.abstract_rows(frame)), (sorted(cached), key)
        assert (stats["analysed"], stats["reused"]) == (analysed, reused)


@pytest.mark.integration
def test_one_run_over_a_range_writes_the_same_work_files_as_one_run_per_listing(
    project, tmp_path_factory, monkeypatch
):
    names = list(_listings())
    for f in (project / "raw").iterdir():
        f.unlink()
    for key, data in _listings().items():
        (project / "raw" / key).write_bytes(data)
    assert cli.run() == 0  # one range run over the 4 listings

    other = tmp_path_factory.mktemp("per_listing")
    (other / "raw").mkdir()
    monkeypatch.setenv("PIPELINE_RAW_DIR", str(other / "raw"))
    monkeypatch.setenv("PIPELINE_WAREHOUSE_DIR", str(other / "warehouse"))
    monkeypatch.setenv("DAGSTER_HOME", str(other / ".dagster_home"))
    for name in names:  # one listing added per run: each run is a range of one
        shutil.copy(project / "raw" / name, other / "raw" / name)
        assert cli.run() == 0

    for asset in ("listing_records", "abstracts"):
        here = sorted((project / "warehouse" / "_work" / asset).glob("*.parquet"))
        there = sorted((other / "warehouse" / "_work" / asset).glob("*.parquet"))
        assert [p.name for p in here] == [p.name for p in there] and len(here) == 4
        for p, q in zip(here, there):
            assert p.read_bytes() == q.read_bytes(), (asset, p.name)


@pytest.mark.integration
def test_rows_shared_with_a_warm_pool_across_listings_equal_the_serial_rows():
    from pipeline.runtime import parallel

    recs = _records()
    serial, _ = abstracts.build_abstracts(recs)
    with parallel.started(2, cli.WARM_UPS):
        pooled, stats = abstracts.build_abstracts(recs, workers=2)
    assert list(pooled) == list(serial) and all(pooled[k].equals(serial[k]) for k in serial)
    assert stats["analysed"] == 38
