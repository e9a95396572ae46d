"""Data contract of the published tables as Pandera models (see schemas/models.py)."""

from schemas.models import (
    MODELS,
    SCHEMA_VERSION,
    BenchmarkResults,
    Benchmarks,
    ListingLineage,
    PaperMetrics,
    Papers,
    PaperUrls,
    validate,
)

__all__ = [
    "MODELS",
    "BenchmarkResults",
    "Benchmarks",
    "SCHEMA_VERSION",
    "ListingLineage",
    "PaperMetrics",
    "Papers",
    "PaperUrls",
    "validate",
]
