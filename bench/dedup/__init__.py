"""The near-duplicate benchmark (``make bench-dedup``)."""
