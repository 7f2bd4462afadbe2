"""engine.roles: who deals (the oldest) and who starts (the youngest) at a table."""

from datetime import date, timedelta

from hypothesis import given
from hypothesis import strategies as st

from engine.roles import table_roles


def test_full_birth_dates_decide_dealer_and_starter():
    roles = table_roles({1: (1980, 5, 2), 2: (1950, 1, 30), 3: (2001, 12, 24), 4: (1990, 7, 7)})
    assert roles.dealer == 2
    assert roles.starter == 3


def test_a_missing_birth_leaves_both_roles_to_the_table():
    roles = table_roles({1: (1980, 5, 2), 2: None, 3: (2001, 12, 24)})
    assert roles.dealer is None
    assert roles.starter is None


def test_year_only_decides_when_the_years_differ():
    roles = table_roles({1: (1961, 0, 0), 2: (1975, 3, 1), 3: (1990, 0, 0)})
    assert (roles.dealer, roles.starter) == (1, 3)


def test_same_year_with_only_the_year_known_is_undecided():
    roles = table_roles({1: (1961, 0, 0), 2: (1961, 4, 1), 3: (1990, 6, 6)})
    assert roles.dealer is None  # 1 may be born before or after 2
    assert roles.starter == 3


def test_month_only_birth_covers_the_whole_month():
    assert table_roles({1: (1970, 2, 0), 2: (1970, 2, 28)}).dealer is None
    assert table_roles({1: (1970, 2, 0), 2: (1970, 3, 1)}).dealer == 1
    assert table_roles({1: (1970, 12, 0), 2: (1971, 1, 1)}).dealer == 1


def test_twins_share_the_day_and_nobody_is_chosen():
    roles = table_roles({1: (1988, 8, 8), 2: (1988, 8, 8)})
    assert (roles.dealer, roles.starter) == (None, None)


births = st.one_of(
    st.none(),
    st.dates(date(1920, 1, 1), date(2015, 12, 31)).map(lambda d: (d.year, d.month, d.day)),
    st.integers(1920, 2015).map(lambda y: (y, 0, 0)),
)


@given(st.dictionaries(st.integers(1, 10), births, min_size=2, max_size=10))
def test_a_chosen_dealer_is_certainly_the_oldest_and_a_starter_the_youngest(table):
    roles = table_roles(table)

    def span(born):
        year, month, day = born
        if not month:
            return date(year, 1, 1), date(year, 12, 31)
        if not day:
            return date(year, month, 1), date(year, month, 28)  # the bound only needs to be inside
        return date(year, month, day), date(year, month, day)

    if roles.dealer is not None:
        latest = span(table[roles.dealer])[1]
        assert all(latest < span(b)[0] for k, b in table.items() if k != roles.dealer)
    if roles.starter is not None:
        earliest = span(table[roles.starter])[0]
        assert all(earliest > span(b)[1] for k, b in table.items() if k != roles.starter)
    if any(born is None for born in table.values()):
        assert roles.dealer is None and roles.starter is None


def test_distinct_full_dates_always_decide():
    base = date(1960, 1, 1)
    table = {k: ((base + timedelta(days=400 * k)).year, (base + timedelta(days=400 * k)).month,
                 (base + timedelta(days=400 * k)).day) for k in range(1, 6)}
    assert table_roles(table) == table_roles(dict(reversed(table.items())))
    assert (table_roles(table).dealer, table_roles(table).starter) == (1, 5)


