"""Data contract of the published tables as Pandera models (see schemas/tables.py)."""

from schemas.tables import (
    MODELS,
    SCHEMA_VERSION,
    ListingLineage,
    PaperMetrics,
    Papers,
    PaperUrls,
    validate,
)

__all__ = ["MODELS", "SCHEMA_VERSION", "ListingLineage", "PaperMetrics", "Papers", "PaperUrls", "validate"]
