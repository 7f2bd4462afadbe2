"""Prize money: pot, percentage and fixed tables, rounding with remainder, shared places, goods."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.prizes import (
    SharedPlaces,
    TableKind,
    euros,
    goods_pick_order,
    place_prizes,
    pot,
    pot_of_collected,
    split,
)

PERCENT, FIXED = TableKind.PERCENT, TableKind.FIXED


def test_pot_is_fee_times_players_times_percent():
    assert pot(fee_cents=1000, paying_players=24, payout_percent=80) == 19200
    assert pot(fee_cents=750, paying_players=7, payout_percent=100) == 5250
    with pytest.raises(ValueError):
        pot(fee_cents=500, paying_players=3, payout_percent=101)


def test_percentages_rounded_to_whole_euros_with_remainder():
    payout = split(pot_cents=19300, kind=PERCENT, table=[50, 30, 20], places=[(1, 1), (2, 2), (3, 3), (4, 4)])
    assert payout.amounts == {1: 9600, 2: 5700, 3: 3800}
    assert payout.remainder == 19300 - 9600 - 5700 - 3800 == 200


def test_fixed_amounts_and_shortfall():
    payout = split(pot_cents=5000, kind=FIXED, table=[30, 20, 10], places=[(7, 1), (8, 2), (9, 3)])
    assert payout.amounts == {7: 3000, 8: 2000, 9: 1000}
    assert payout.remainder == -1000


def test_shared_place_split_or_both_full():
    places = [(1, 1), (2, 2), (3, 2), (4, 4)]
    split_ = split(pot_cents=10000, kind=PERCENT, table=[50, 30, 20], places=places)
    assert split_.amounts == {1: 5000, 2: 2500, 3: 2500}
    assert split_.remainder == 0
    full = split(
        pot_cents=10000, kind=PERCENT, table=[50, 30, 20], places=places, shared=SharedPlaces.BOTH_FULL
    )
    assert full.amounts == {1: 5000, 2: 3000, 3: 3000}
    assert full.remainder == -1000


def test_shared_last_paid_place_with_unpaid_place():
    payout = split(pot_cents=10000, kind=PERCENT, table=[60, 40], places=[(1, 1), (2, 2), (3, 2)])
    assert payout.amounts == {1: 6000, 2: 2000, 3: 2000}


def test_overrides_replace_and_remainder_follows():
    payout = split(
        pot_cents=10000, kind=PERCENT, table=[50, 30, 20], places=[(1, 1), (2, 2), (3, 3)],
        overrides={3: 1500, 2: 0},
    )
    assert payout.amounts == {1: 5000, 3: 1500}
    assert payout.remainder == 3500
    with pytest.raises(ValueError):
        split(pot_cents=100, kind=PERCENT, table=[100], places=[(1, 1)], overrides={1: 150})


def test_bad_tables_refused():
    with pytest.raises(ValueError):
        place_prizes(pot_cents=100, kind=PERCENT, table=[60, 50])
    with pytest.raises(ValueError):
        place_prizes(pot_cents=100, kind=FIXED, table=[-1])


def test_goods_picked_in_order_of_place():
    assert goods_pick_order([(5, 2), (4, 1), (6, 3)], ["Ball", "Cards"]) == [(4, "Ball"), (5, "Cards")]


def test_euros():
    assert euros(19250) == "192.50" and euros(-5) == "-0.05" and euros(0) == "0.00"


tables = st.lists(st.integers(0, 40), min_size=1, max_size=6).filter(lambda t: sum(t) <= 100)


@st.composite
def standings_places(draw):
    n = draw(st.integers(1, 12))
    places = []
    for index in range(n):
        if index and draw(st.booleans()):
            places.append((index, places[-1][1]))  # tie with the one before
        else:
            places.append((index, index + 1))
    return places


@given(pot_cents=st.integers(0, 10**7), table=tables, places=standings_places())
def test_split_never_pays_more_than_the_pot_and_only_whole_euros(pot_cents, table, places):
    payout = split(pot_cents=pot_cents, kind=PERCENT, table=table, places=places)
    assert all(amount > 0 and amount % 100 == 0 for amount in payout.amounts.values())
    assert 0 <= payout.remainder <= pot_cents
    assert sum(payout.amounts.values()) + payout.remainder == pot_cents


@given(pot_cents=st.integers(0, 10**7), table=tables, places=standings_places())
def test_equal_places_get_equal_amounts_and_full_pays_at_least_split(pot_cents, table, places):
    shares = split(pot_cents=pot_cents, kind=PERCENT, table=table, places=places)
    full = split(pot_cents=pot_cents, kind=PERCENT, table=table, places=places, shared=SharedPlaces.BOTH_FULL)
    for (a, place_a) in places:
        for (b, place_b) in places:
            if place_a == place_b:
                assert shares.amounts.get(a, 0) == shares.amounts.get(b, 0)
    descending = list(table) == sorted(table, reverse=True)
    if descending:
        for player_id, _place in places:
            assert full.amounts.get(player_id, 0) >= shares.amounts.get(player_id, 0)


@given(fee=st.integers(0, 5000), players=st.integers(0, 200), percent=st.integers(0, 100))
def test_pot_never_exceeds_the_fees(fee, players, percent):
    assert 0 <= pot(fee_cents=fee, paying_players=players, payout_percent=percent) <= fee * players


@given(fee=st.integers(0, 5000), players=st.integers(0, 200), percent=st.integers(0, 100),
       short=st.integers(0, 5000))
def test_the_pot_of_the_fees_collected(fee, players, percent, short):
    """Everybody paid the fee: the same pot as the nominal one; less taken: never a bigger pot."""
    nominal = pot(fee_cents=fee, paying_players=players, payout_percent=percent)
    assert pot_of_collected(collected_cents=fee * players, payout_percent=percent) == nominal
    taken = max(0, fee * players - short)
    assert pot_of_collected(collected_cents=taken, payout_percent=percent) <= nominal
    with pytest.raises(ValueError):
        pot_of_collected(collected_cents=-1, payout_percent=percent)
