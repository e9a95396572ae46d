"""pipeline.runtime.progress: what each mode writes, on a real stream (not timed)."""

import io

import pytest

from pipeline.runtime import progress


def test_plain_mode_writes_the_first_and_last_line_and_logs_the_same():
    stream, logged = io.StringIO(), []
    with progress.Reporter(logged.append, mode="plain", stream=stream).step("abstracts", 5, "abstracts") as s:
        for _ in range(5):
            s.advance()
    lines = stream.getvalue().splitlines()
    assert lines[0] == "abstracts: 0/5 (0 %)"
    assert lines[-1].startswith("abstracts: 5/5 in ") and lines[-1].endswith(" abstracts/s")
    assert logged == lines


def test_off_writes_nothing_and_auto_is_plain_off_a_terminal(monkeypatch):
    stream, logged = io.StringIO(), []
    monkeypatch.setenv("PIPELINE_PROGRESS", "off")
    with progress.Reporter(logged.append, stream=stream).step("listings", 3, "listings") as s:
        s.advance(3)
    assert stream.getvalue() == "" and logged == []
    monkeypatch.setenv("PIPELINE_PROGRESS", "auto")
    assert progress.Reporter(stream=io.StringIO()).mode == "plain"
    monkeypatch.setenv("PIPELINE_PROGRESS", "loud")
    with pytest.raises(
        ValueError, match="PIPELINE_PROGRESS must be one of auto, bar, plain, off, got 'loud'"
    ):
        progress.Reporter()


def test_bar_mode_draws_a_tqdm_bar_with_the_count():
    stream = io.StringIO()
    with progress.Reporter(mode="bar", stream=stream).step("partitions", 4, "partitions") as s:
        s.advance(4)
    assert "partitions: 100%" in stream.getvalue() and "4/4" in stream.getvalue()
