"""The cheapest-way payment against a brute-force reference."""

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.games.guardians import layout as L
from sim.games.guardians.ruleset import load_ruleset, to_params
from sim.games.guardians.shop import cheapest_payment

P = to_params(load_ruleset("guardians").values)
VALUES = (0, 1, 2, 3, 4, 5, 10)


def reference(counts, price):
    """All sub-multisets; least overpayment, fewest tokens, then fewest high-valued tokens."""
    best = None
    for pick in itertools.product(*(range(n + 1) for n in counts[1:])):
        total = sum(k * VALUES[i + 1] for i, k in enumerate(pick))
        if total < price:
            continue
        key = (total, sum(pick), tuple(reversed(pick)))
        if best is None or key < best[0]:
            best = (key, pick)
    return None if best is None else [0, *best[1]]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 4), min_size=6, max_size=6), st.sampled_from([5, 10, 15, 20]))
def test_cheapest_payment_matches_reference(reserve, price):
    s = np.zeros(L.STATE_SIZE, np.int32)
    s[L.S_N_PLAYERS] = 1
    for k, n in enumerate(reserve, start=1):
        s[L.S_PLAYERS + L.PL_RESERVE + k] = n
    out = np.zeros(L.N_KINDS, np.int64)
    ok = cheapest_payment(s, P, 0, price, out)
    want = reference([0, *reserve], price)
    assert ok == (want is not None)
    if ok:
        assert list(out) == want
