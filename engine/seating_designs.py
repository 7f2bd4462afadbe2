"""Published / precomputed seating designs, continued by :mod:`engine.seating`.

Each design is a list of rounds; a round is a list of tables; points are 0..N-1.  Players are mapped to
points randomly (from the seed), so a design never fixes who sits with whom.
"""

from __future__ import annotations


def _affine_plane_4() -> list[list[list[int]]]:
    """AG(2,4): 16 points (x, y) over GF(4), its 5 parallel classes of lines = 5 rounds of 4 tables of 4."""
    # GF(4) = {0, 1, a, a+1} coded 0..3; addition is XOR, multiplication by table
    mul = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]
    rounds = []
    for slope in range(4):  # lines y = slope * x + c
        rounds.append([[x * 4 + (mul[slope][x] ^ c) for x in range(4)] for c in range(4)])
    rounds.append([[x * 4 + y for y in range(4)] for x in range(4)])  # vertical lines x = c
    return rounds


# (name, rounds).  Earlier entries are preferred.
DESIGNS: list[tuple[str, list[list[list[int]]]]] = [
    ("AG(2,4) 16 players, 5 rounds", _affine_plane_4()),
]
