"""Pairing tables livetb can generate itself (a Swiss still comes from the pairing program)."""
