"""The script a user would write instead of the pipeline (the anchor of `make bench`).

One process: read each listing, clean with a few regexes, seeded langdetect on every abstract, URLs and
numbers with regexes, drop exact duplicates, write one Parquet file.

usage: python bench/naive_script.py RAW_DIR OUT.parquet
"""

import re
import sys
from pathlib import Path

import polars as pl
from langdetect import DetectorFactory, detect
from langdetect.lang_detect_exception import LangDetectException

DetectorFactory.seed = 0
URL = re.compile(r"https?://\S+")
NUM = re.compile(r"(\d+(?:\.\d+)?)\s*(%|×|x\b)")
LATEX = re.compile(r"\$\\times\$|\\%|\$|\\[a-z]+\{([^}]*)\}")


def main(raw_dir: str, out: str) -> None:
    rows = []
    for path in sorted(Path(raw_dir).rglob("*.txt")):
        text = path.read_text(encoding="utf-8-sig").replace("\r\n", "\n")
        paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()][1:]
        for p in paragraphs:
            clean = re.sub(r"\s+", " ", LATEX.sub(lambda m: m.group(1) or "", p)).strip()
            try:
                lang = detect(clean)
            except LangDetectException:
                lang = "und"
            rows.append(
                {
                    "listing": path.name,
                    "abstract": clean,
                    "language": lang,
                    "urls": URL.findall(p),
                    "numbers": [float(n) for n, _ in NUM.findall(clean)],
                }
            )
    df = pl.DataFrame(rows).unique("abstract", keep="first", maintain_order=True)
    df.write_parquet(out)
    print(f"naive: {len(rows)} abstracts, {df.height} after exact dedup -> {out}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
