"""Where a launched token lands: the aim point plus a random error that grows with distance.

A launch from the shooter at (sx, sy) aimed at (ax, ay), distance d, lands at

    aim + (bias(d) + sd_along(d) * z1) * u + sd_across(d) * z2 * v

with u the unit vector of the shot, v across it, z1, z2 standard normal deviates, and

    sd_across(d) = (floor + spread * d) * scale,   sd_along(d) = length_ratio * sd_across(d),
    bias(d) = bias * d                              (spread, bias per mm of distance)

`scale` is the seat's own factor (a strategy parameter: a child among adults). With chance
`wild` the launch is a wild shot: it lands anywhere, uniformly, on the board and a margin
around it (a slipped finger, a token bouncing off the UFO's wall). The values, their presets
and how they were chosen: rulesets/dexterity-presets.yaml and docs/games/space_invaders/rules.md.
Out of the model: cards bumped out of place, tokens knocked off by later shots (lines 205,
445-448), a token's roll after landing beyond what the error spread already covers.
"""

import math

from sim.games.space_invaders import layout as L
from sim.jit import jit_inline
from sim.random_streams import normal_pair, uniform


@jit_inline
def sd_across(p, distance, scale):
    """Standard deviation (mm) of the error across the shot at `distance` mm."""
    return (p[L.P_FLOOR] + p[L.P_SPREAD] * distance) * scale


@jit_inline
def sd_along(p, distance, scale):
    """Standard deviation (mm) of the error along the shot (range is harder than direction)."""
    return p[L.P_LENGTH_RATIO] * sd_across(p, distance, scale)


@jit_inline
def bias_along(p, distance):
    """Mean error along the shot (mm); negative falls short."""
    return p[L.P_BIAS] * distance


@jit_inline
def sample_landing(p, rng, slot, ax, ay, sx, sy, scale):
    """(x, y) where a token aimed at (ax, ay) from (sx, sy) lands; draws from stream `slot`."""
    if p[L.P_WILD] > 0.0 and uniform(rng, slot) < p[L.P_WILD]:
        margin = p[L.P_WILD_MARGIN]
        x = -margin + uniform(rng, slot) * (p[L.P_BOARD_W] + 2.0 * margin)
        low = min(p[L.P_SHOOTER_Y], 0.0) - margin
        y = low + uniform(rng, slot) * (max(p[L.P_UFO_Y1], p[L.P_BOARD_H]) + margin - low)
        return x, y
    dx = ax - sx
    dy = ay - sy
    distance = math.sqrt(dx * dx + dy * dy)
    if distance < 1e-9:
        ux, uy = 0.0, 1.0
    else:
        ux, uy = dx / distance, dy / distance
    z1, z2 = normal_pair(rng, slot)
    along = bias_along(p, distance) + sd_along(p, distance, scale) * z1
    across = sd_across(p, distance, scale) * z2
    return ax + along * ux - across * uy, ay + along * uy + across * ux
