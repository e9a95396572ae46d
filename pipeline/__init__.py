"""Listings of ML-conference abstracts -> versioned, validated, deduplicated Parquet releases.

Where each rule lives:
  readers/      sniff a listing file, read it with the reader of its shape, resolve venue/year
  cleaning.py    raw abstract -> clean text (LaTeX, markdown, Unicode repair)
  language.py    seeded, evidence-gated language detection
  quarantine.py  which paragraphs are not abstracts, and why
  extraction/    URLs and reported result metrics (pure functions, text in, rows out)
  dedup.py       exact and near-duplicate clusters, stable paper ids
  records.py     per-listing frames: decode/split rows, per-abstract analysis (parallel, cached by hash)
  tables.py      building the published tables from per-listing rows
  release/       immutable numbered releases: layout, manifest, plan, writer, verify, lock, retention
  card/          what each release explains about itself: dataset card, data dictionary, Croissant, charts
  cli.py         `python -m pipeline run | verify`
  parallel.py    a domain-free pool of warm helper processes (callers pass their warm-ups)
  rawfiles.py    which raw-folder entries are listings; reading them safely (no links out, no FIFOs)
  versions.py    the rules version of each rule set; each asset's code version (docs/execution.md)
  defs/          Dagster wiring only (assets, checks, sensor, schedule)
"""
