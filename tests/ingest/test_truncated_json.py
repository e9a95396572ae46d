"""A JSON listing cut off before its end (an export interrupted mid-record) is quarantined whole with a reason
naming the line and column where its text ends and saying that it looks truncated; a JSON Lines file whose
last line is cut loses that record only, with the same words; any other JSON error names its line and
column (pipeline.ingest.readers.json_records.json_error, jsonl_error). Inputs: real listings of
tests/data/readers, cut."""

import pytest

from pipeline.ingest.readers import ReaderError, read_listing
from pipeline.ingest.records import listing_records
from tests.conftest import DATA

READERS = DATA / "readers"
TRUNCATED = "the file looks truncated (cut off before its end)"


def _end(text: str) -> tuple[int, int]:
    """1-based (line, column) just after the last non-blank character of ``text``, counted by hand."""
    body = text.rstrip()
    lines = body.split("\n")
    return len(lines), len(lines[-1]) + 1


def test_a_json_array_cut_mid_record_names_file_line_column_and_says_truncated():
    text = (READERS / "iclr2017.json").read_text(encoding="utf-8")
    cut = text[: text.index('"status": "Reject"', 3000)]  # the 3rd record, cut before its status field
    assert cut.endswith('"track": "main",\n  ') and _end(cut) == (83, 19)
    frame, warnings = listing_records(cut.encode(), "iclr2017.json")
    assert frame.select("paragraph", "reader", "decode_error").rows() == [
        (
            0,
            None,
            "unreadable: invalid JSON: the text ends inside an unfinished value (Expecting property name "
            f"enclosed in double quotes); {TRUNCATED}: export or download it again (line 83, column 19)",
        )
    ]
    assert warnings[0].startswith("iclr2017.json (line 83, column 19): invalid JSON: the text ends inside")


def test_a_json_cut_inside_a_string_names_where_the_string_starts_and_where_the_text_ends():
    text = (READERS / "iclr2017.json").read_text(encoding="utf-8")
    cut = text[: text.index("matching networks") + len("matching")]  # inside the first abstract
    with pytest.raises(ReaderError) as e:
        read_listing(cut.encode(), "iclr2017.json")
    assert (e.value.line, e.value.column) == _end(cut) == (8, 76)
    assert e.value.reason == (
        "invalid JSON: the text ends inside an unfinished value (Unterminated string starting at: line 8 "
        f"column 15); {TRUNCATED}: export or download it again"
    )


@pytest.mark.parametrize("name", ["iclr2017.json", "s2_search.json", "hf_daily_papers.json"])
def test_every_cut_of_a_real_json_listing_is_called_truncated_at_its_end(name):
    """Every 50th character as the end of three real JSON listings (an array, {"data": [...]}, objects one
    level down): each cut is quarantined whole, truncated, at the line and column where the cut text ends;
    the same cuts saved as ``.txt`` are recognised as JSON too."""
    text = (READERS / name).read_text(encoding="utf-8")
    cuts = [text[:n] for n in range(2, len(text.rstrip()) - 1, 50)]
    assert len(cuts) > 60
    for cut in cuts:
        for as_name in (name, name.replace(".json", ".txt")):
            with pytest.raises(ReaderError) as e:
                read_listing(cut.encode(), as_name)
            assert TRUNCATED in e.value.reason, (as_name, len(cut), e.value.reason)
            assert (e.value.line, e.value.column) == _end(cut), (as_name, len(cut))


def test_an_error_in_the_middle_names_its_line_and_column_and_is_not_called_truncated():
    text = (READERS / "iclr2017.json").read_text(encoding="utf-8")
    broken = text.replace('"track": "main",', '"track": "main"', 1)  # a comma lost in the first record
    with pytest.raises(ReaderError) as e:
        read_listing(broken.encode(), "iclr2017.json")
    assert str(e.value) == "iclr2017.json (line 6, column 3): invalid JSON: Expecting ',' delimiter"
    assert "truncated" not in e.value.reason


def test_json_lines_whose_last_line_is_cut_lose_that_record_only_and_say_truncated():
    text = (READERS / "arxiv_feed.jsonl").read_text(encoding="utf-8")
    lines = text.rstrip("\n").split("\n")
    cut = "\n".join(lines[:2] + [lines[2][:1000]]) + "\n"
    frame, _ = listing_records(cut.encode(), "arxiv_feed.jsonl")
    assert frame["reader"].to_list() == ["jsonl"] * 3
    assert frame["decode_error"].to_list()[:2] == [None, None]
    assert frame["line"].to_list() == [1, 2, 3]
    column = len(lines[2][:1000]) + 1
    assert frame["decode_error"][2] == (
        f"malformed_record: invalid JSON at line 3, column {column}: the last line ends inside an "
        f"unfinished object (Unterminated string starting at: column 211); {TRUNCATED}"
    )


def test_a_json_lines_record_broken_in_the_middle_is_not_called_truncated():
    text = (READERS / "arxiv_feed.jsonl").read_text(encoding="utf-8")
    lines = text.rstrip("\n").split("\n")
    broken = "\n".join([lines[0][:-1], *lines[1:]]) + "\n"  # the first line's closing brace lost
    frame, _ = listing_records(broken.encode(), "arxiv_feed.jsonl")
    problem = frame["decode_error"][0]
    assert problem.startswith("malformed_record: invalid JSON at line 1, column ")
    assert "truncated" not in problem and frame["decode_error"].to_list()[1:] == [None, None]
