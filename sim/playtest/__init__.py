"""Playtest records in, the lab's players fitted to them and checked against them
(`sim playtest`, docs/playtest.md)."""
