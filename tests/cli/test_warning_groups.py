"""The run's warnings say once what they say of many listings (pipeline.ingest.listings.group_warnings), on the warnings
the readers give for real per-paper files (tests/data/readers/yaml: two PMLR Jekyll posts of COLT 2022)."""

from __future__ import annotations

import datetime as dt

from pipeline.ingest.listings import group_warnings
from pipeline.ingest.readers import read_listing
from tests.conftest import DATA

POSTS = ["2022-01-11-aceituno22a.md", "2022-01-11-dean22a.md"]


def _warnings(folder: str) -> list[str]:
    out = []
    for post in POSTS:
        data = (DATA / "readers" / "yaml" / post).read_bytes()
        out += read_listing(data, f"{folder}/{post}", today=dt.date(2026, 12, 2)).warnings
    return out


def test_one_line_for_the_same_warning_of_many_listings():
    said = _warnings("colt2022")
    assert said == [
        f"colt2022/{p}: no header line; venue 'COLT' and year 2022 taken from the path (colt2022)"
        for p in POSTS
    ]
    other = "a settings file names no [columns]"
    assert group_warnings([said[0], other, said[1], other]) == [
        "2 listings: no header line; venue 'COLT' and year 2022 taken from the path (colt2022) "
        "(colt2022/2022-01-11-aceituno22a.md, colt2022/2022-01-11-dean22a.md)",
        other,
    ]
    many = [said[0].replace("aceituno22a", f"post{i:02d}") for i in range(30)]
    (line,) = group_warnings(many)
    assert line.startswith("30 listings: no header line;") and line.endswith(
        "(colt2022/2022-01-11-post00.md, colt2022/2022-01-11-post01.md, colt2022/2022-01-11-post02.md, …)"
    )


def test_different_texts_and_single_listings_stay_as_they_are():
    said = _warnings("colt2022") + _warnings("colt2021")
    grouped = group_warnings(said)
    assert len(grouped) == 2 and all(g.startswith("2 listings: ") for g in grouped)
    assert "year 2021 taken from the path (colt2021)" in grouped[1]
    assert group_warnings(said[:1]) == said[:1]


def test_the_listing_line_does_not_name_its_listing_twice(tmp_path):
    """The run's line per listing (pipeline.ingest.listings.run_line) starts with the listing's name, so its
    first warning follows without it."""
    from pipeline.ingest import listings

    (tmp_path / "colt2022").mkdir()
    post = POSTS[1]
    (tmp_path / "colt2022" / post).write_bytes((DATA / "readers" / "yaml" / post).read_bytes())
    info = listings.read_listing(tmp_path, f"colt2022/{post}").info
    line = listings.run_line(info, {})
    assert line.startswith(f"listing colt2022/{post}: read by front_matter (utf-8), explaining 1.00")
    assert line.endswith(
        "; 0 quarantined; WARNING (1): no header line; venue 'COLT' and year 2022 taken from the path (colt2022)"
    )
    assert line.count(post) == 1
