"""Strategies written the way a designer would, outside the project's packages."""
