"""Guardians of Space simulation toolkit."""

from sim import compile_cache

__version__ = "0.1.0"

compile_cache.configure()
