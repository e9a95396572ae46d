"""The per-file read budget (pipeline.ingest.deadline, pipeline.ingest.listings.read_listing): a listing whose
reading takes longer than PIPELINE_READ_BUDGET_SECONDS is interrupted and quarantined ``too_slow`` alone.

No test measures time: the readers below would run for a minute or more, far beyond the tiny budget set for
the test, and return normally (failing the test) if the budget did not stop them."""

import re
import shutil
import signal
import threading
import time

import pytest

from pipeline.ingest import listings, readers
from pipeline.ingest.deadline import BudgetExceeded, deadline
from pipeline.runtime import config
from tests.conftest import SEEDS

BUDGET = "0.05"


def _raw_with_reader(tmp_path, monkeypatch, reader):
    monkeypatch.setitem(readers.READERS, "stalls", reader)
    monkeypatch.setenv("PIPELINE_READ_BUDGET_SECONDS", BUDGET)
    shutil.copy(SEEDS[0], tmp_path / "seed.txt")
    shutil.copy(SEEDS[1], tmp_path / "stalls.txt")
    (tmp_path / "stalls.txt.listing.toml").write_text('reader = "stalls"\n')
    return tmp_path


def _assert_too_slow(read):
    why = listings.too_slow(float(BUDGET))
    assert why.startswith("too_slow: reading took longer than the per-file budget of 0.05 s")
    assert read.frame.select("paragraph", "decode_error").rows() == [(0, why)]
    assert read.warnings == [f"stalls.txt: {why}; the listing is quarantined"]


def test_a_reader_that_hangs_is_quarantined_too_slow_and_the_others_are_read(tmp_path, monkeypatch):
    def sleeps(text, name, columns):
        time.sleep(60)  # interrupted by the budget's alarm long before
        return None, []

    raw = _raw_with_reader(tmp_path, monkeypatch, sleeps)
    _assert_too_slow(listings.read_listing(raw, "stalls.txt"))
    monkeypatch.delenv("PIPELINE_READ_BUDGET_SECONDS")  # the default budget: a seed is read in well under it
    seed = listings.read_listing(raw, "seed.txt").frame
    assert seed.height > 1 and seed["decode_error"].null_count() == seed.height
    # the alarm is disarmed and the previous handler back once the listing is done
    assert signal.getitimer(signal.ITIMER_REAL) == (0.0, 0.0)
    assert signal.getsignal(signal.SIGALRM) is signal.SIG_DFL


def test_a_backtracking_regex_is_interrupted_inside_the_match(tmp_path, monkeypatch):
    def backtracks(text, name, columns):
        re.match(r"(a+)+$", "a" * 28 + "b")  # 2**28 backtracking steps inside one call into the re engine
        return None, []

    _assert_too_slow(listings.read_listing(_raw_with_reader(tmp_path, monkeypatch, backtracks), "stalls.txt"))


def test_off_the_main_thread_a_python_loop_is_interrupted(tmp_path, monkeypatch):
    release = threading.Event()

    def spins(text, name, columns):
        while not release.is_set():  # a Python loop: interrupted at a bytecode boundary
            pass
        return None, []

    raw = _raw_with_reader(tmp_path, monkeypatch, spins)
    got = []
    worker = threading.Thread(target=lambda: got.append(listings.read_listing(raw, "stalls.txt")))
    worker.start()
    worker.join(60)
    release.set()  # if the budget failed, the reader returns now and the assertion below fails
    worker.join()
    _assert_too_slow(got[0])


def test_a_block_that_ends_in_time_is_never_interrupted_later():
    def ends_in_time():
        with deadline(0.05):
            pass
        time.sleep(0.2)  # a budget left armed would fire here (on the main thread: SIGALRM ends the process)
        return "done"

    assert ends_in_time() == "done"
    got = []
    worker = threading.Thread(target=lambda: got.append(ends_in_time()))
    worker.start()
    worker.join()
    assert got == ["done"]


@pytest.mark.parametrize("value", ["0", "-1", "soon", "inf", "nan"])
def test_a_budget_that_is_not_a_positive_number_is_refused(monkeypatch, value):
    monkeypatch.setenv("PIPELINE_READ_BUDGET_SECONDS", value)
    with pytest.raises(ValueError, match="PIPELINE_READ_BUDGET_SECONDS must be a positive number"):
        config.read_budget_seconds()


def test_budget_exceeded_is_not_an_exception_a_reader_catches():
    assert not issubclass(BudgetExceeded, Exception)
    assert str(BudgetExceeded(2.5)) == "over the budget of 2.5 s"
