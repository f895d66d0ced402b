"""Statistics for reports and the runner's precision stop: intervals (see intervals.py)."""

from sim.stats.intervals import (
    Z95,
    mean_interval,
    normal_interval,
    rate_width,
    wilson,
    z_for,
)

__all__ = ["Z95", "mean_interval", "normal_interval", "rate_width", "wilson", "z_for"]
