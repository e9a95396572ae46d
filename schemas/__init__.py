"""Data contract of the published tables as Pandera models (see schemas/models.py)."""

from schemas.models import (
    MODELS,
    SCHEMA_VERSION,
    ListingLineage,
    PaperMetrics,
    Papers,
    PaperUrls,
    validate,
)

__all__ = ["MODELS", "SCHEMA_VERSION", "ListingLineage", "PaperMetrics", "Papers", "PaperUrls", "validate"]
