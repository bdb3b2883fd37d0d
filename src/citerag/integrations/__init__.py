"""Adapters that plug a citerag index into other frameworks (optional extras)."""
