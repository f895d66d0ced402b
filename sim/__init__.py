"""Guardians of Space simulation toolkit."""

__version__ = "0.1.0"
