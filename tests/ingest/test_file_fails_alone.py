"""A listing file fails alone (pipeline.ingest.records.listing_records): any exception raised while reading
one listing or its settings files quarantines that listing, with the error's class and message and the file
named, and every other listing is read and published."""

import shutil
import zlib

import polars as pl
import pytest

from pipeline import cli
from pipeline.ingest import listings, rawfiles, readers
from pipeline.ingest.settings import is_settings_file
from tests.conftest import SEEDS


def _bad_files(raw):
    """The real inputs that used to stop a whole run: a JSON array nested 3,000 levels, a CSV field over
    the csv module's 131,072-character limit, a folder settings file nested 3,000 levels."""
    (raw / "deep.json").write_text("[" * 3000 + "]" * 3000)
    (raw / "big_field.csv").write_text('title,abstract\nA,"' + "x" * 140_000 + '"\n')
    (raw / "deep_settings").mkdir()
    (raw / "deep_settings" / "listing.toml").write_text("venue = " + "[" * 3000 + "]" * 3000 + "\n")
    shutil.copy(SEEDS[0], raw / "deep_settings" / "seed.txt")


EXPECTED = {
    "deep.json": "reader_failed: RecursionError: maximum recursion depth exceeded",
    "big_field.csv": "reader_failed: _csv.Error: field larger than field limit (131072)",
    "deep_settings/seed.txt": "unreadable: settings file deep_settings/listing.toml: nested deeper than",
}


def _read_all(raw) -> dict[str, listings.ListingRead]:
    names = [name for name in rawfiles.scan(raw).listings if not is_settings_file(name)]
    return {name: listings.read_listing(raw, name) for name in names}


def test_a_reader_that_raises_quarantines_its_listing_alone(tmp_path, monkeypatch):
    def broken(text, name, columns):
        raise KeyError("a reader's own bug")

    monkeypatch.setitem(readers.READERS, "broken", broken)
    for seed in SEEDS:
        shutil.copy(seed, tmp_path / seed.name)
    shutil.copy(SEEDS[0], tmp_path / "other.txt")
    (tmp_path / "other.txt.listing.toml").write_text('reader = "broken"\n')
    got = _read_all(tmp_path)
    bad = got.pop("other.txt")
    assert bad.frame.select("paragraph", "decode_error").rows() == [
        (0, 'reader_failed: KeyError: "a reader\'s own bug"')
    ]
    assert bad.warnings == [
        'other.txt: reader_failed: KeyError: "a reader\'s own bug"; the listing is quarantined'
    ]
    assert set(got) == {s.name for s in SEEDS}
    for read in got.values():
        assert read.frame.height > 1 and read.frame["decode_error"].null_count() == read.frame.height


def test_deep_json_huge_csv_field_and_deep_settings_are_quarantined_alone(tmp_path):
    _bad_files(tmp_path)
    got = _read_all(tmp_path)
    for name, reason in EXPECTED.items():
        rows = got[name].frame.select("paragraph", "decode_error").rows()
        assert len(rows) == 1 and rows[0][0] == 0 and rows[0][1].startswith(reason), (name, rows)
        assert got[name].warnings[0].startswith(name)


@pytest.mark.integration
def test_the_seeds_publish_beside_files_that_fail(project):
    _bad_files(project / "raw")
    assert cli.run() == cli.EXIT_QUARANTINED  # the seeds published, the failing files named at the end
    rel = project / "warehouse" / "release=1"
    lineage = pl.read_parquet(rel / "listing_lineage", hive_partitioning=True)
    papers = pl.read_parquet(rel / "papers", hive_partitioning=True)
    for name, reason in EXPECTED.items():
        rows = lineage.filter(pl.col("listing") == name).select("status", "reason").rows()
        assert len(rows) == 1 and rows[0][0] == "quarantined" and rows[0][1].startswith(reason), (name, rows)
    assert set(papers["source_listing"]) == {s.name for s in SEEDS}


def test_settings_files_follow_the_raw_folder_rules(tmp_path):
    raw = tmp_path / "raw"
    raw.mkdir()
    outside = tmp_path / "outside.toml"
    outside.write_text('venue = "CVPR"\nyear = 2001\n')
    for name in ("linked.txt", "passwd.txt", "huge.txt", "fine.txt"):
        shutil.copy(SEEDS[0], raw / name)
    (raw / "linked.txt.listing.toml").symlink_to(outside)
    (raw / "passwd.txt.listing.toml").symlink_to("/etc/passwd")
    (raw / "huge.txt.listing.toml").write_text("# padding\n" * 7000 + 'venue = "CVPR"\n')
    (raw / "fine.txt.listing.toml").write_text('venue = "CVPR"\nyear = 2001\n')
    got = _read_all(raw)
    for name, why in {
        "linked.txt": "a symbolic link to ",
        "passwd.txt": "a symbolic link to '/etc/passwd', outside the raw folder",
        "huge.txt": "too_large: 70015 bytes, over the limit of 65536",
    }.items():
        rows = got[name].frame.select("paragraph", "venue", "decode_error").rows()
        assert len(rows) == 1 and rows[0][:2] == (0, "unknown"), rows
        assert rows[0][2].startswith(f"unreadable: settings file {name}.listing.toml: refused: {why}"), rows
    fine = got["fine.txt"].frame
    assert fine.height > 1 and set(fine["venue"]) == {"CVPR"} and set(fine["year"]) == {2001}


def test_a_listing_over_the_size_limit_is_refused_too_large_before_it_is_read(tmp_path):
    limit = rawfiles.max_listing_bytes()
    assert limit == 64 << 20  # the default (pipeline.runtime.config.DEFAULT_MAX_LISTING_BYTES)
    shutil.copy(SEEDS[0], tmp_path / "seed.txt")
    with open(tmp_path / "huge.txt", "wb") as f:  # sparse: no disk, and never read
        f.truncate(limit + 1)
    bomb = zlib.compressobj(wbits=31)
    chunks = [bomb.compress(b"\0" * (1 << 20)) for _ in range(limit // (1 << 20) + 1)]
    (tmp_path / "bomb.txt.gz").write_bytes(b"".join(chunks) + bomb.flush())
    scan = rawfiles.scan(tmp_path)
    assert scan.refused == {"huge.txt": f"too_large: {limit + 1} bytes, over the limit of {limit}; not read"}
    got = _read_all(tmp_path)
    assert got["huge.txt"].frame["decode_error"].to_list() == [f"refused: {scan.refused['huge.txt']}"]
    assert got["bomb.txt.gz"].frame["decode_error"].to_list() == [
        f"undecodable: too_large: gzip: more than {limit} bytes decompressed (byte offset -1)"
    ]
    assert got["seed.txt"].frame["decode_error"].null_count() == got["seed.txt"].frame.height > 1


def test_the_size_limit_is_configurable_and_holds_for_the_scan_the_read_and_gzip(tmp_path, monkeypatch):
    seed = SEEDS[0].read_bytes()
    monkeypatch.setenv("PIPELINE_MAX_LISTING_BYTES", str(len(seed) - 1))
    (tmp_path / "seed.txt").write_bytes(seed)
    # small on disk, one byte over the limit decoded
    (tmp_path / "seed.txt.gz").write_bytes(zlib.compress(seed, wbits=31))
    (tmp_path / "short.txt").write_bytes(seed[: len(seed) // 2])
    scan = rawfiles.scan(tmp_path)
    limit = len(seed) - 1
    assert scan.refused == {"seed.txt": f"too_large: {len(seed)} bytes, over the limit of {limit}; not read"}
    got = _read_all(tmp_path)
    assert got["seed.txt"].frame["decode_error"].to_list() == [f"refused: {scan.refused['seed.txt']}"]
    assert got["seed.txt.gz"].frame["decode_error"].to_list() == [
        f"undecodable: too_large: gzip: more than {limit} bytes decompressed (byte offset -1)"
    ]
    assert got["short.txt"].frame["decode_error"].null_count() == got["short.txt"].frame.height >= 1
    monkeypatch.setenv("PIPELINE_MAX_LISTING_BYTES", "64MiB")
    with pytest.raises(ValueError, match="PIPELINE_MAX_LISTING_BYTES must be a positive integer"):
        rawfiles.max_listing_bytes()


def test_a_huge_single_record_is_quarantined_too_long_without_copies(tmp_path):
    """A real abstract repeated into one 8 MB paragraph (a whole file glued into one record) beside a real
    one: quarantined ``too_long`` with its length and never analysed; reading it allocates (Python side,
    tracemalloc) at most 8x the file: 6.0x measured (the decoded text is 2 bytes a character here, as the
    header is Chinese), 10.8x when sniffing split the record into its words."""
    import tracemalloc

    from pipeline.analyse.abstracts import abstract_rows
    from pipeline.ingest import records

    paragraphs = SEEDS[0].read_text().split("\n\n")
    header, first, second = paragraphs[0], paragraphs[1], paragraphs[2]
    huge = " ".join([first.replace("\n", " ")] * (8_000_000 // len(first)))
    data = f"{header}\n\n{huge}\n\n{second}\n".encode()
    tracemalloc.start()
    try:
        frame, _ = records.listing_records(data, "glued.txt")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 8 * len(data), (peak, len(data))
    assert frame["decode_error"].to_list() == [records.too_long(len(huge)), None]
    assert len(huge) > records.MAX_RECORD_CHARS
    rows = abstract_rows(frame)
    assert rows["quarantine_reason"].to_list() == [records.too_long(len(huge)), None]
    assert rows["abstract"][0] == "" and rows["n_words"][0] == 0 and rows["abstract"][1]  # never cleaned
