"""``python -m pipeline inspect FILE...`` says what the run then does, and writes nothing (pipeline.cli_inspect).

The raw folder holds the two seed listings, a text dump of 40 real EMNLP 2022 records between lines of ``*``
one of which quotes a BibTeX entry whose brace never closes (it was read as BibTeX, one giant record), and a
file no reading explains (Jekyll front matter saved as ``.txt``)."""

import json
import os
import re
import subprocess
import sys

import pytest

from pipeline import cli
from tests.conftest import DATA, SEEDS

pytestmark = [pytest.mark.integration, pytest.mark.slow]

PAPERS = [json.loads(x) for x in (DATA / "sniff" / "abstracts_emnlp2022.jsonl").read_text().splitlines()]
QUOTED = (
    "@inproceedings{smith22,\n  title = {A Quoted Entry},\n  abstract = {A quoted entry whose brace never"
    " closes.\n  year = 2022"
)


def _dump() -> str:
    blocks = [f"{p['title']}\nJane Doe, John Smith\n{p['abstract']}" for p in PAPERS]
    blocks[12] += "\n\nThe entry we build on:\n" + QUOTED
    return "EMNLP 2022 papers\n" + ("\n" + "*" * 36 + "\n").join([""] + blocks) + "\n"


def _posts() -> str:
    return "\n\n".join(f"---\ntitle: Post {i}\nlayout: post\nabstract: short\n---" for i in range(20))


def _cli(project, *args: str, status: int = 0) -> list[str]:
    """``python -m pipeline ARGS`` in its own process, as a user runs it; its stdout lines (exit ``status``
    asserted)."""
    done = subprocess.run(
        [sys.executable, "-m", "pipeline", *args],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PIPELINE_WORKERS": "1"},
    )
    assert done.returncode == status, done.stderr
    return done.stdout.splitlines()


def test_inspect_says_what_the_run_then_does(project):
    raw = project / "raw"
    (raw / "emnlp_2022_dump.txt").write_text(_dump(), encoding="utf-8")
    (raw / "posts.txt").write_text(_posts(), encoding="utf-8")
    files = sorted(p.name for p in raw.iterdir())
    said = _cli(project, "inspect", *[str(raw / f) for f in files])
    assert not (project / "warehouse").exists()  # inspect writes nothing
    heads = {m[1]: line for line in said if (m := re.match(r"listing (\S+): ", line))}
    assert sorted(heads) == files
    dump = heads["emnlp_2022_dump.txt"]
    assert "read by separated_text (utf-8), explaining 1.00 of the file" in dump
    assert ": 40 records;" in dump and "venue/year EMNLP 2022 (venue: the header; year: the header)" in dump
    assert heads["posts.txt"].startswith(
        "listing posts.txt: unexplained: no reading explains 50% of the file"
    )
    assert heads["posts.txt"].endswith("; 1 quarantined (unreadable 1)")
    assert f"record 1 (line 4): {PAPERS[0]['title']} | " in "\n".join(said)
    for seed in SEEDS:
        assert "read by seed_text" in heads[seed.name]

    ran = _cli(project, "run", status=cli.EXIT_QUARANTINED)  # posts.txt is quarantined whole
    run_lines = {m[1]: line for line in ran if (m := re.match(r"listing (\S+): ", line))}
    assert run_lines == heads  # the run's line per listing is the line inspect printed
