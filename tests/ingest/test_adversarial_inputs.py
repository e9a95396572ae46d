"""Every reader reads hostile ~1 MB inputs (long runs of spaces, ``[``, ``{``, ``#``, ``*``, quotes, ``<``) in
time linear in the file: no pattern that sees raw lines backtracks super-linearly (pipeline.ingest.readers).

Each reader runs in a subprocess with a generous timeout that only guards against a hang (the quadratic link
pattern took about 45 minutes on 1 MB of ``[``); speed itself is measured by bench/reader_scaling.py."""

import subprocess
import sys

import pytest

from pipeline.ingest.readers import READERS
from pipeline.ingest.records import MAX_RECORD_CHARS

MB = 1 << 20
HANG_GUARD_SECONDS = 60

#: name -> text of about 1 MB; the comments say which pattern each used to stall.
CASES = {
    "heading_spaces": "# x" + " " * MB + "y\n",  # the heading pattern: cubic in the spaces
    "field_spaces": "### Title\n**Authors" + " " * MB + "x\n",  # the **Label:** pattern: quadratic
    "brackets": "### Title\n" + "[" * MB + "\n",  # the link pattern: quadratic
    "link_openings": "### Title\n" + "[a](http://" * (MB // 11) + "\n",
    "tags": "### Title\n" + "<details" * (MB // 8) + "\n",
    "summaries": "### Title\n" + "<summary>" * (MB // 9) + "\n",
    "braces": "{" * MB,
    "hashes": "#" * MB + "\n",
    "stars": "### Title\n" + "*" * MB + "\n",
    "quotes": 'title,abstract\nA,"' + '"' * MB + "\n",
    "bibtex_braces": "@article{k,\n  abstract = {" + "{" * MB + "\n",
    "bibtex_quotes": '@article{k,\n  abstract = "' + "\\" * MB + '"}\n',
    "authors_spaces": '[{"abstract": "We study x.", "authors": "Ann' + " " * MB + 'Lee"}]',
    "abstract_spaces": "Abstract" + " " * MB + "x\n",
    "xml_comments": "<!-- a -->" * (MB // 10) + "x",  # the XML prolog pattern
    "xml_doctype": "<!DOCTYPE x " + "[a]" * (MB // 3),
    "xml_declarations": "<?" * (MB // 2),
}

SCRIPT = """
import sys
from pipeline.ingest.records import listing_records
from tests.ingest.test_adversarial_inputs import CASES
reader = sys.argv[1]
settings = [("x.listing.toml", f'reader = "{reader}"'.encode())]
for case, text in CASES.items():
    frame, _ = listing_records(text.encode(), f"{case}.txt", settings)
    print(case, frame.height, frame["decode_error"][0] if frame.height else None, flush=True)
"""


@pytest.mark.parametrize("reader", sorted(READERS))
def test_reader_reads_hostile_inputs_without_stalling(reader):
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT, reader], capture_output=True, text=True, timeout=HANG_GUARD_SECONDS
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rows = {line.split()[0]: line.split(maxsplit=2)[1:] for line in done.stdout.splitlines()}
    assert list(rows) == list(CASES)
    if reader == "markdown":  # the cases aimed at its patterns are read: one paper each, without a problem
        # of the reader's; one whose abstract is ~1 MB is then quarantined alone as too long for one record
        too_long = f"over the limit of {MAX_RECORD_CHARS} for one record"
        for case in ("heading_spaces", "field_spaces", "brackets", "link_openings", "tags", "summaries"):
            assert rows[case][0] == "1", (case, rows[case])
            assert rows[case][1] == "None" or rows[case][1].endswith(too_long), (case, rows[case])
        assert rows["heading_spaces"][1] == "None"  # the spaces are in the title, the abstract is short


def test_sniffing_reads_hostile_inputs_without_stalling():
    script = SCRIPT.replace("settings)", "None)")
    done = subprocess.run(
        [sys.executable, "-c", script, "-"], capture_output=True, text=True, timeout=HANG_GUARD_SECONDS
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert [line.split()[0] for line in done.stdout.splitlines()] == list(CASES)
