"""Reading time against file size, per reader: doubling a listing must double its read time, not quadruple it.

Generates synthetic listings (no corpus needed) and times ``pipeline.ingest.records.listing_records`` (decode,
sniff, read, venue/year, the record frame) in this process, best of ``--repeat`` runs:

- BibTeX: ``--bibtex`` entries (default 50,000) then twice as many, each with title, author and abstract;
- JSON: an array of ``--json`` tiny records (default 100,000) then twice as many;
- markdown: ``--markdown`` paper headings (default 20,000) then twice as many.

Prints one line per size and the ratio of the two times per reader (about 2 when the reader is linear; 4 when
quadratic). Usage: ``python -m bench.reader_scaling [--bibtex N] [--json N] [--markdown N] [--repeat R]``.
Figures are recorded in docs/benchmarks.md ("Reader scaling").
"""

from __future__ import annotations

import argparse
import json
import time

from pipeline.ingest.records import listing_records


def bibtex(n: int) -> bytes:
    """``n`` BibTeX entries with an abstract each (about 130 bytes per entry)."""
    return "".join(
        f"@inproceedings{{key{i},\n  title = {{Paper {i}}},\n  author = {{Ann Lee and Bo Chen}},\n"
        f"  abstract = {{We study problem {i} and improve the {{state}} of the art.}}\n}}\n\n"
        for i in range(n)
    ).encode()


def json_array(n: int) -> bytes:
    """A JSON array of ``n`` tiny paper objects (title and abstract)."""
    return json.dumps([{"title": f"T{i}", "abstract": f"We study {i}."} for i in range(n)]).encode()


def markdown(n: int) -> bytes:
    """A markdown schedule of ``n`` paper headings with an authors line and an abstract each."""
    papers = "".join(
        f"### Paper {i}\n**Authors:** Ann Lee, Bo Chen\n\nWe study [problem {i}](https://x.org/{i}).\n\n"
        for i in range(n)
    )
    return ("# NeurIPS 2023\n\n" + papers).encode()


def best_time(data: bytes, name: str, repeat: int) -> tuple[float, int]:
    """Best wall time (s) of ``listing_records`` over ``repeat`` runs and the records it read."""
    best, rows = float("inf"), 0
    for _ in range(repeat):
        t = time.perf_counter()
        frame, _ = listing_records(data, name)
        best = min(best, time.perf_counter() - t)
        rows = frame.height
    return best, rows


def main(argv: list[str] | None = None) -> None:
    """Time each reader at a size and at twice that size; print the times and their ratio."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bibtex", type=int, default=50_000)
    ap.add_argument("--json", type=int, default=100_000)
    ap.add_argument("--markdown", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=2)
    args = ap.parse_args(argv)
    cases = [("bibtex", bibtex, "x.bib", args.bibtex), ("json", json_array, "x.json", args.json)]
    cases.append(("markdown", markdown, "x.md", args.markdown))
    for reader, make, name, n in cases:
        times = []
        for size in (n, 2 * n):
            data = make(size)
            seconds, rows = best_time(data, name, args.repeat)
            times.append(seconds)
            print(
                f"{reader:9} {size:>8,} records {len(data) / 1e6:7.1f} MB  {seconds:7.2f} s  ({rows:,} read)"
            )
        print(f"{reader:9} doubling the file: time x {times[1] / times[0]:.2f}")


if __name__ == "__main__":
    main()
