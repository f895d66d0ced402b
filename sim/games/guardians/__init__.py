"""Guardians of Space and its Space Defenders variants."""
