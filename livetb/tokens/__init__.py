"""Persistence of arbiter tokens, beside the event store."""
