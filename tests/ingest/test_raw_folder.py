"""The raw folder is read safely (pipeline.ingest.rawfiles): only regular files inside it, any legal file name, one
bad entry never blocking the others. Real symlinks, FIFOs, sockets, device nodes and odd names, through real
``python -m pipeline run`` processes (a FIFO would block a reader that opens it without O_NONBLOCK: the
timeout turns that into a failure instead of a hang)."""

import os
import shutil
import socket
import stat
import subprocess
import sys

import polars as pl
import pytest

from pipeline import cli
from pipeline.defs.io import MAX_STEM, work_stem
from pipeline.ingest import rawfiles
from pipeline.ingest.listings import listing_name, listing_path, partition_key, read_listing
from tests.conftest import SEEDS

pytestmark = pytest.mark.integration

#: A realistic long title: 42 Chinese characters (126 UTF-8 bytes, 378 percent-encoded characters).
LONG_TITLE = "大型语言模型在数学推理任务中的可验证奖励强化学习与过程监督方法的系统性研究综述及未来展望"
NON_UTF8 = os.fsdecode(b"caf\xe9 listing.txt")  # a Latin-1 name on a UTF-8 system
ESCAPES = "new\nline \x1b[31mred\x1b[0m.txt"


def _run(project) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pipeline", "run"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=240,
        env={**os.environ, "PIPELINE_WORKERS": "1"},
    )


def _lineage(project) -> pl.DataFrame:
    latest = (project / "warehouse" / "LATEST").read_text().strip()
    return pl.read_parquet(
        project / "warehouse" / f"release={latest}" / "listing_lineage", hive_partitioning=True
    )


def _papers(project) -> pl.DataFrame:
    latest = (project / "warehouse" / "LATEST").read_text().strip()
    return pl.read_parquet(project / "warehouse" / f"release={latest}" / "papers", hive_partitioning=True)


def test_links_out_of_the_raw_folder_and_special_files_are_refused_never_read(project):
    raw = project / "raw"
    outside = project / "outside.txt"
    shutil.copy(SEEDS[0], outside)
    (raw / "passwd.txt").symlink_to("/etc/passwd")
    (raw / "outside_copy.txt").symlink_to(outside)  # a real listing, but outside raw/
    (raw / "etc").symlink_to("/etc")  # a folder outside
    (raw / "inner_link.txt").symlink_to(SEEDS[1].name)  # relative link to a file inside: read
    (raw / "dangling.txt").symlink_to(raw / "gone.txt")  # broken link
    os.mkfifo(raw / "pipe.txt")  # nobody writes: open() would block
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(raw / "sock.txt"))
    device = os.geteuid() == 0  # /dev/zero's node: reads never end
    if device:
        os.mknod(raw / "zero.txt", stat.S_IFCHR | 0o600, os.makedev(1, 5))
    try:
        proc = _run(project)
    finally:
        sock.close()
    assert proc.returncode == cli.EXIT_QUARANTINED, (
        proc.stderr
    )  # published; the refused ones named at the end
    lineage = _lineage(project)
    refused = dict(lineage.filter(pl.col("paragraph") == 0).select("listing", "reason").iter_rows())
    expected = {"passwd.txt", "outside_copy.txt", "etc", "dangling.txt", "pipe.txt", "sock.txt"} | (
        {"zero.txt"} if device else set()
    )
    assert set(refused) == expected
    assert all(r.startswith("refused: ") for r in refused.values())
    assert "outside the raw folder" in refused["passwd.txt"] and "/etc/passwd" in refused["passwd.txt"]
    assert "named pipe (FIFO)" in refused["pipe.txt"] and "socket" in refused["sock.txt"]
    assert "broken symbolic link" in refused["dangling.txt"]
    assert lineage.filter(pl.col("listing").is_in(list(expected)))["status"].unique().to_list() == [
        "quarantined"
    ]
    # nothing of /etc/passwd or of the outside copy was read; the good listings and the inner link were
    papers = _papers(project)
    assert not papers.filter(pl.col("abstract_raw").str.contains("root:")).height
    assert papers.height == 38
    inner = lineage.filter(pl.col("listing") == "inner_link.txt")
    assert inner.height == 19 and set(inner["status"]) <= {"published", "duplicate"}
    assert "'passwd.txt' refused" in proc.stderr and "outside the raw folder" in proc.stderr
    summary = proc.stderr[proc.stderr.index(f"warning: {len(expected)} listing files quarantined whole") :]
    assert [x.split(":")[0].strip() for x in summary.splitlines()[1:]] == [repr(n) for n in sorted(expected)]


def test_long_non_utf8_escape_and_hidden_names_work(project):
    raw = project / "raw"
    names = [f"{LONG_TITLE}.txt", NON_UTF8, ESCAPES, f"sub/{LONG_TITLE}/{LONG_TITLE}.txt"]
    (raw / "sub" / LONG_TITLE).mkdir(parents=True)
    for name, seed in zip(names, [SEEDS[0], SEEDS[1], SEEDS[0], SEEDS[1]]):
        shutil.copy(seed, raw / name)
    shutil.copy(SEEDS[0], raw / ".hidden listing.txt")
    (raw / ".cache").mkdir()
    shutil.copy(SEEDS[0], raw / ".cache" / "x.txt")
    proc = _run(project)
    assert proc.returncode == 0, proc.stderr
    assert (
        "2 hidden entries" in proc.stdout
        and "'.hidden listing.txt'" in proc.stdout
        and "'.cache/'" in proc.stdout
    )
    lineage = _lineage(project)
    shown = {rawfiles.display_name(n) for n in names}
    assert "caf\\xe9 listing.txt" in shown
    assert set(lineage["listing"].unique()) == shown | {s.name for s in SEEDS}
    odd = lineage.filter(pl.col("listing").is_in(list(shown)))
    assert (
        odd.group_by("listing").len()["len"].to_list() == [19] * 4
    )  # every paragraph of every odd name read
    assert set(odd["status"]) <= {"published", "duplicate"}
    assert _papers(project).height == 38 and lineage.filter(pl.col("status") == "published").height == 38
    work = project / "warehouse" / "_work" / "abstracts"
    assert max(len(os.fsencode(p.name)) for p in work.iterdir()) <= MAX_STEM + len(".parquet")
    # the dataset card shows the names escaped, never raw control characters
    latest = (project / "warehouse" / "LATEST").read_text().strip()
    card = (project / "warehouse" / f"release={latest}" / "README.md").read_text()
    assert "\x1b" not in card
    assert "`new\\nline \\x1b[31mred\\x1b[0m.txt`" in card
    # a second run reuses every listing: the bounded work-file names are found again
    again = _run(project)
    assert again.returncode == 0 and "0 new, 0 changed" in again.stdout, again.stdout


def test_partition_keys_of_any_name_round_trip_and_work_stems_are_bounded():
    for name in [NON_UTF8, ESCAPES, f"{LONG_TITLE}.txt", "a b|c,d..e...txt", "plain.txt"]:
        key = partition_key(name)
        assert key.isascii() and ".." not in key and "|" not in key and "/" not in key
        assert listing_path(key) == name
        assert listing_name(key) == rawfiles.display_name(name)
        stem = work_stem(key)
        assert len(stem) <= MAX_STEM and work_stem(stem) == stem
    assert partition_key("000_d1f8394cc51cd0ab.txt") == work_stem("000_d1f8394cc51cd0ab.txt")
    long_a, long_b = partition_key(LONG_TITLE + "a.txt"), partition_key(LONG_TITLE + "b.txt")
    assert work_stem(long_a) != work_stem(long_b) and len(long_a) > MAX_STEM


def test_a_file_swapped_for_a_fifo_after_the_scan_is_refused_without_blocking(tmp_path):
    """read() checks again after opening (O_NONBLOCK, fstat): the scan's answer is not trusted."""
    (tmp_path / "a.txt").write_text("x")
    assert rawfiles.read(tmp_path, "a.txt") == (b"x", None)
    os.remove(tmp_path / "a.txt")
    os.mkfifo(tmp_path / "a.txt")
    data, reason = rawfiles.read(tmp_path, "a.txt")
    assert data is None and "named pipe" in reason


def _deep_folder(raw, levels: int = 22) -> str:
    """Folders 200 bytes long each, ``levels`` deep (over Linux's 4,096-byte path limit from 21 on), made
    relative to open folders (an absolute path that long cannot be named); a seed listing at the bottom.
    Returns the relative path of the first folder whose path is over the limit."""
    fd = os.open(raw, os.O_RDONLY)
    rel, over = [], None
    try:
        for level in range(levels):
            name = f"{level:02d}" + "d" * 198
            os.mkdir(name, dir_fd=fd)
            rel.append(name)
            if over is None and len(os.fsencode(os.path.realpath(raw))) + 201 * len(rel) >= 4096:
                over = "/".join(rel)
            inner = os.open(name, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        out = os.open("deep.txt", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd)
        os.write(out, SEEDS[0].read_bytes())
        os.close(out)
    finally:
        os.close(fd)
    assert over is not None
    return over


def test_a_path_over_the_system_limit_and_control_names_are_never_skipped_silently(project):
    raw = project / "raw"
    over = _deep_folder(raw)
    shutil.copy(SEEDS[1], raw / "tab\tname.txt")
    # settings files follow the same rule: read (applied), and named in the same warning line
    (raw / "tab\tname.txt.listing.toml").write_text('venue = "CVPR"\nyear = 2001\n')
    (raw / "esc\x1bfolder").mkdir()
    (raw / "esc\x1bfolder" / "listing.toml").write_text('venue = "ICLR"\nyear = 2019\n')
    shutil.copy(SEEDS[0], raw / "esc\x1bfolder" / "seed.txt")
    scan = rawfiles.scan(raw)
    assert scan.refused[over].startswith("could not be read: File name too long")
    named = [
        "esc\x1bfolder/listing.toml",
        "esc\x1bfolder/seed.txt",
        "tab\tname.txt",
        "tab\tname.txt.listing.toml",
    ]
    assert scan.control_names == named
    proc = _run(project)
    assert proc.returncode == cli.EXIT_QUARANTINED, proc.stderr  # the deep folder is refused
    warnings = [x for x in proc.stderr.splitlines() if x.startswith("warning:")]
    assert (
        "warning: 4 raw entries have a control character in their name (shown escaped): "
        + ", ".join(repr(n) for n in named)
        in warnings
    )
    assert any(x.startswith(f"warning: {over!r} refused, quarantined") for x in warnings)
    lineage = _lineage(project)
    deep = lineage.filter(pl.col("listing") == over)
    assert deep.select("status", "reason").rows() == [("quarantined", "refused: " + scan.refused[over])]
    # read (a copy of a seed: published or a duplicate of the seed's papers), never quarantined for its name
    statuses = set(lineage.filter(pl.col("listing") == "tab\tname.txt")["status"])
    assert statuses and statuses <= {"published", "duplicate"}
    for listing, venue_year in {
        "tab\tname.txt": ("CVPR", 2001),
        "esc\x1bfolder/seed.txt": ("ICLR", 2019),
    }.items():
        frame = read_listing(raw, listing).frame
        assert frame.height > 1 and set(frame.select("venue", "year").rows()) == {venue_year}
