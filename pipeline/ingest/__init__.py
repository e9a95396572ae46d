"""Ingest: the raw folder scanned (which entries are listings, which are refused), settings files, and each
listing file read into one row per record by the reader of its shape.

Stage 1 of the flow; imports only :mod:`pipeline.runtime`. Where each rule lives: docs/design.md, "Where each
rule lives"."""
