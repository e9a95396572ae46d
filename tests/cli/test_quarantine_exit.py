"""``python -m pipeline run`` over a raw folder holding files quarantined whole: the good listings are
published, the run ends with a summary naming each refused file with its reason and exits
``cli.EXIT_QUARANTINED`` (4), on every run, the unchanged shortcut included, until they are fixed or removed;
a raw folder of good listings exits 0. Inputs: the two seeds, a 0-byte file and a real JSON listing
(tests/data/readers/iclr2017.json) cut off mid-record."""

import dagster as dg
import pytest

from pipeline import cli, release
from pipeline.ingest.listings import quarantined_whole
from pipeline.ingest.rawfiles import quarantine_summary
from tests.conftest import DATA

pytestmark = pytest.mark.integration

EMPTY = "'empty.txt': empty_file: the file has 0 bytes"
CUT = (
    "'iclr2017.json': unreadable: invalid JSON: the text ends inside an unfinished value (Unterminated "
    "string starting at: line 47 column 15); the file looks truncated (cut off before its end): export or "
    "download it again (line 47, column 290)"
)
HEAD = (
    "warning: 2 listing files quarantined whole, nothing of them published (listing_lineage rows with "
    "paragraph 0); fix or remove them and run again:"
)


def _run(capsys, **kwargs) -> tuple[int, str, str]:
    capsys.readouterr()
    status = cli.run(**kwargs)
    out, err = capsys.readouterr()
    return status, out, err


def test_quarantined_files_are_summarised_at_the_end_and_exit_4_until_removed(project, capsys):
    raw, wh = project / "raw", project / "warehouse"
    status, _, err = _run(capsys)
    assert status == 0 and "quarantined whole" not in err  # good listings only: 0, as `make run` on raw/
    (raw / "empty.txt").write_bytes(b"")
    (raw / "iclr2017.json").write_bytes((DATA / "readers" / "iclr2017.json").read_bytes()[:3064])
    status, out, err = _run(capsys)
    assert status == cli.EXIT_QUARANTINED == 4
    assert err.splitlines()[-3:] == [HEAD, f"  {EMPTY}", f"  {CUT}"]  # the last lines of the run
    # the good listings are published as before; the release documents the two files in its lineage only
    assert release.latest_release(wh) == 2 and release.read_table(wh, "papers").height == 38
    assert "release 2 published: no paper added, changed or removed; lineage only (2 listings)" in out
    # a run from the Dagster UI shows them too: the non-blocking listings_read check of listing_lineage warns
    with dg.DagsterInstance.get() as instance:
        key = dg.AssetCheckKey(dg.AssetKey("listing_lineage"), "listings_read")
        evaluation = instance.event_log_storage.get_latest_asset_check_execution_by_key([key])[key].evaluation
        assert (evaluation.passed, evaluation.severity) == (False, dg.AssetCheckSeverity.WARN)
        assert evaluation.metadata["quarantined_whole"].value == 2
        assert evaluation.metadata["files"].value.splitlines() == [HEAD, f"  {EMPTY}", f"  {CUT}"]
    # nothing changed: the shortcut (no Dagster run) says the same and exits 4 again
    status, out, err = _run(capsys)
    assert (
        status == 4
        and "release 2 unchanged" in out
        and err.splitlines()[-3:] == [HEAD, f"  {EMPTY}", f"  {CUT}"]
    )
    status, _, err = _run(capsys, check_unchanged=False)  # and so does the full path
    assert status == 4 and err.splitlines()[-3:] == [HEAD, f"  {EMPTY}", f"  {CUT}"]
    # fixed: the empty file removed, the JSON whole again (2 of its 3 records published; the third has an
    # empty abstract, quarantined alone: not a file quarantined whole)
    (raw / "empty.txt").unlink()
    (raw / "iclr2017.json").write_bytes((DATA / "readers" / "iclr2017.json").read_bytes())
    status, out, err = _run(capsys)
    assert status == 0 and "quarantined whole" not in err
    assert release.latest_release(wh) == 3 and release.read_table(wh, "papers").height == 40


def test_the_summary_lists_whole_files_only_and_counts_past_the_shown():
    import polars as pl

    lineage = pl.DataFrame(
        {
            "listing": ["b.txt", "b.txt", "a.csv", "c.json", "d.txt"],
            "paragraph": [1, 2, 0, 0, 3],
            "status": ["published", "quarantined", "quarantined", "quarantined", "duplicate"],
            "reason": [
                None,
                "too_short: 3 words",
                "empty_file: the file has 0 bytes",
                "unreadable: x\ny",
                None,
            ],
        }
    )
    files = quarantined_whole(lineage)
    assert files == [("a.csv", "empty_file: the file has 0 bytes"), ("c.json", "unreadable: x\ny")]
    assert quarantine_summary(files, shown=1) == [
        "warning: 2 listing files quarantined whole, nothing of them published (listing_lineage rows with "
        "paragraph 0); fix or remove them and run again:",
        "  'a.csv': empty_file: the file has 0 bytes",
        "  ... and 1 more (listing_lineage)",
    ]
    assert quarantine_summary(files[1:])[1:] == ["  'c.json': unreadable: x y"]
    assert quarantine_summary(files[1:])[0].startswith(
        "warning: 1 listing file quarantined whole, nothing of it"
    )
    assert quarantine_summary([]) == []
