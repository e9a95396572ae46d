"""A listing file with no text (0 bytes, or only whitespace) is quarantined whole with its own reason,
``empty_file``, whatever its name says, and never with a reader's advice (pipeline.ingest.readers.empty_reason,
pipeline.ingest.records.listing_records); a file with text but no records keeps its own warning."""

import codecs
import gzip
from pathlib import Path

import pytest

from pipeline.cli_inspect import inspect_file
from pipeline.ingest.readers import EmptyListing, parse_listing, read_listing
from pipeline.ingest.records import listing_records
from tests.conftest import SEEDS

NAMES = [
    "notes.txt",
    "papers.json",
    "feed.jsonl",
    "list.csv",
    "refs.bib",
    "schedule.md",
    "volume.xml",
    "README",
]


@pytest.mark.parametrize("name", NAMES)
def test_a_zero_byte_file_is_quarantined_empty_file_without_reader_advice(name):
    frame, warnings = listing_records(b"", name)
    assert frame.select("listing", "paragraph", "reader", "decode_error").rows() == [
        (name, 0, None, "empty_file: the file has 0 bytes")
    ]
    assert warnings == [f"{name}: empty_file: the file has 0 bytes; the listing is quarantined"]
    assert "reader" not in warnings[0] and "settings" not in warnings[0]


@pytest.mark.parametrize(
    ("data", "size"),
    [
        (b"  \n\n\t\n", 6),
        (b"\r\n\r\n", 4),
        ("\u3000\n\u200b\n\u00a0".encode(), 10),  # ideographic space, zero-width space, NBSP
        (codecs.BOM_UTF8, 3),  # a byte order mark and nothing else
        (codecs.BOM_UTF16_LE + " \n ".encode("utf-16-le"), 8),
    ],
)
def test_a_file_of_only_whitespace_is_quarantined_empty_file_with_its_size(data, size):
    frame, _ = listing_records(data, "blank.csv")
    assert frame["decode_error"].to_list() == [
        f"empty_file: only whitespace or invisible characters ({size} bytes), no text"
    ]
    assert len(data) == size


def test_an_empty_gzip_listing_says_so_after_decompression():
    frame, _ = listing_records(gzip.compress(b""), "list.txt.gz")
    assert frame["decode_error"].to_list() == ["empty_file: the file has 0 bytes after gzip decompression"]
    frame, _ = listing_records(gzip.compress(b" \n \n"), "list.txt.gz")
    assert frame["decode_error"].to_list() == [
        "empty_file: only whitespace or invisible characters (4 bytes after gzip decompression), no text"
    ]


def test_a_settings_file_naming_a_reader_does_not_make_an_empty_file_readable():
    with pytest.raises(EmptyListing, match=r"e\.txt: the file has 0 bytes") as e:
        read_listing(b"", "e.txt", [("listing.toml", b'reader = "csv"\nvenue = "ICML"\nyear = 2026\n')])
    assert e.value.kind == "empty_file"
    with pytest.raises(EmptyListing):
        parse_listing(b"\n\n", "e.txt")


def test_a_real_listing_is_not_empty_and_a_header_alone_is_still_a_warning():
    seed = SEEDS[0].read_bytes()
    frame, _ = listing_records(seed, SEEDS[0].name)
    assert frame.height == 19 and frame["decode_error"].null_count() == 19
    header = seed.split(b"\n")[0] + b"\n\n"
    frame, warnings = listing_records(header, "h.txt")
    assert frame.height == 0
    assert warnings[-1] == "h.txt: no abstracts (only a header line); nothing from this listing is published"


def test_inspect_says_empty_file_and_no_reader_advice(tmp_path: Path):
    (tmp_path / "raw").mkdir()
    empty = tmp_path / "raw" / "papers.json"
    empty.write_bytes(b"")
    lines = inspect_file(empty, tmp_path / "raw")
    assert lines == [
        "listing papers.json: empty_file: the file has 0 bytes; the listing is quarantined; "
        "1 quarantined (empty_file 1)",
        "  quarantined: record 0 (line 0): empty_file: the file has 0 bytes",
    ]
