"""Warm worker processes (pipeline.runtime.parallel): the rows and charts they make equal the main process's.

One pool of 1 helper (PIPELINE_WORKERS=2) is started per test; each takes ~1 s to warm up on this box.
"""

import pytest

from pipeline import card, cli
from pipeline.analyse import abstracts
from pipeline.ingest.records import listing_records
from pipeline.runtime import parallel
from tests.conftest import SEEDS


def _seed_raws() -> list[str]:
    raws = []
    for path in SEEDS:
        frame, _ = listing_records(path.read_bytes(), path.name)
        raws += frame["abstract_raw"].to_list()
    return raws


@pytest.mark.integration
def test_abstracts_shared_with_a_warm_worker_equal_the_serial_rows():
    raws = _seed_raws()
    assert len(raws) == 38
    serial, serial_t = abstracts.analyse_texts(raws, workers=1)
    with parallel.started(2, cli.WARM_UPS) as pool:
        assert pool is not None and parallel.executor() == (pool, 1)
        shared, shared_t = abstracts.analyse_texts(raws, workers=2)
    assert parallel.executor() is None  # stopped with the block
    assert shared.equals(serial)
    assert shared.height == 38 and shared["language"].value_counts().sort("language").rows() == [("en", 38)]
    assert set(shared_t) == set(serial_t) == {*abstracts.STAGES, *abstracts.CHUNK_TOTALS}


def test_chunks_cover_the_texts_in_order():
    texts = [str(i) for i in range(1001)]
    chunks = abstracts._chunks(texts, 8)
    assert [t for c in chunks for t in c] == texts
    assert len(chunks) == 8 and max(map(len, chunks)) == 126
    big = abstracts._chunks([str(i) for i in range(10_000)], 8)
    assert max(map(len, big)) == abstracts.CHUNK_SIZE and len(big) == 25
    assert abstracts._chunks(["a"], 8) == [["a"]]


@pytest.mark.integration
def test_charts_drawn_by_a_warm_worker_are_the_same_bytes(project):
    from pipeline import cli, release
    from pipeline.runtime import config

    assert cli.run() == 0
    wh = config.warehouse_dir()
    tables = {name: release.read_table(wh, name) for name in release.TABLES}
    here = card.start_charts(tables)()
    with parallel.started(2):
        there = card.start_charts(tables)()
    assert set(here) == set(card.charts.CHARTS) and here == there
    assert all(png.startswith(b"\x89PNG") for png in there.values())


def test_a_second_pool_of_another_size_is_refused():
    with parallel.started(2):
        assert parallel.start(2) is parallel.executor()[0]
        with pytest.raises(ValueError, match="already running"):
            parallel.start(3)
    assert parallel.start(1) is None and parallel.executor() is None
