"""CHANGELOG.md names papers by title (or first words) and listing; the card counts papers by reader and
status."""

import polars as pl

from pipeline.card import summary
from pipeline.card.changelog import changelog_markdown, paper_label
from pipeline.release import diff_papers


def _papers(rows):
    return pl.DataFrame(
        rows,
        orient="row",
        schema={
            "paper_id": pl.String,
            "title": pl.String,
            "abstract": pl.String,
            "source_listing": pl.String,
            "source_status": pl.String,
        },
    )


def test_changelog_names_added_removed_changed_by_title_or_first_words():
    old = _papers(
        [
            (
                "p0000000000000001",
                "Prototypical Networks for Few-shot Learning",
                "A recent approach.",
                "iclr2017.json",
                "Reject",
            ),
            (
                "p0000000000000002",
                None,
                "We study *sparse* attention for long documents in great detail "
                "and show it works on every benchmark we tried.",
                "seed.txt",
                None,
            ),
        ]
    )
    new = _papers(
        [
            (
                "p0000000000000001",
                "Prototypical Networks for Few-shot Learning",
                "A recent approach, fixed.",
                "iclr2017.json",
                "Reject",
            ),
            (
                "p0000000000000003",
                "Match-LSTM | Answer Pointer",
                "Machine comprehension.",
                "iclr2017.json",
                "Poster",
            ),
        ]
    )
    md = changelog_markdown(2, 1, diff_papers(old, new), new, old)
    assert "## Added (1)\n\n- Match-LSTM \\| Answer Pointer — `iclr2017.json` (p0000000000000003)" in md
    assert (
        "## Removed (1)\n\n- “We study \\*sparse\\* attention for long documents in great detail and show "
        "…” — `seed.txt` (p0000000000000002)"
    ) in md  # no title: its first 12 words
    assert (
        "- Prototypical Networks for Few-shot Learning — `iclr2017.json` (p0000000000000001; abstract)" in md
    )
    assert paper_label(None, "") == "(no text)"


def test_a_release_changelog_names_at_most_its_limit_and_counts_the_rest():
    """Past the limit per kind, CHANGELOG.md counts the other papers in one line pointing to
    changelog.parquet; the papers named are the first by paper_id, and without a limit every one is."""
    new = _papers(
        [
            (f"p{i:016d}", f"Paper number {i}", "An abstract.", "iclr2017.json", "Poster")
            for i in (7, 3, 11, 5)
        ]
    )
    changes = diff_papers(new.clear(), new)
    md = changelog_markdown(1, None, changes, new, None, limit=2)
    added = md.split("## Added (4)\n\n")[1].split("\n\n")[0].splitlines()
    assert added == [
        "- Paper number 3 — `iclr2017.json` (p0000000000000003)",
        "- Paper number 5 — `iclr2017.json` (p0000000000000005)",
        "- … and 2 more added papers: every change is in `changelog.parquet`",
    ]
    assert "## Removed (0)" in md and "## Changed (0)" in md
    every = changelog_markdown(1, None, changes, new, None)
    assert every.count("— `iclr2017.json`") == 4 and "more added papers" not in every


def test_card_counts_by_reader_and_status():
    lineage = pl.DataFrame(
        {
            "listing": ["a.json", "a.json", "b.txt", "c.html"],
            "reader": ["json", "json", "seed_text", None],
            "status": ["published", "quarantined", "published", "quarantined"],
        }
    )
    assert summary.papers_by_reader(lineage).rows() == [
        ("json", 1, 1, None),
        ("seed_text", 1, 1, None),
        ("unread", 1, 0, None),
    ]  # a lineage table without reader_coverage (a release made before it): no lowest coverage
    lineage = lineage.with_columns(reader_coverage=pl.Series([1.0, 1.0, 0.93, None]))
    assert summary.papers_by_reader(lineage)["lowest_coverage"].to_list() == [1.0, 0.93, None]
    papers = pl.DataFrame({"source_status": ["Poster", "Poster", None, "Oral"]})
    assert summary.papers_by_status(papers).rows() == [("Poster", 2), ("Oral", 1), ("not given", 1)]
