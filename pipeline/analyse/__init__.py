"""Analyse: per abstract, the clean text, the quarantine rules, the language, URLs and reported metrics, and
the duplicate keys; the per-abstract step that runs them over a listing's records.

Stage 2 of the flow; imports from :mod:`pipeline.ingest` and :mod:`pipeline.runtime` only. Where each rule
lives: docs/design.md, "Where each rule lives".
"""
