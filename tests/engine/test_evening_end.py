from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from engine.evening_end import RoundTimes, estimate_end, round_time

T0 = datetime(2026, 12, 4, 19, 0, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def done(number, start, reports, closed=None):
    """A round published at `start` whose tables reported at `reports` (minutes after T0)."""
    return RoundTimes(
        number=number, tables=len(reports), published_at=at(start),
        reports=tuple(at(m) for m in reports), closed_at=None if closed is None else at(closed),
    )


def test_nothing_before_round_1_has_a_result_at_every_table():
    assert estimate_end([], planned_rounds=6, now=at(0)) is None
    drafted = RoundTimes(number=1, tables=3)
    assert estimate_end([drafted], planned_rounds=6, now=at(0)) is None
    two_of_three = RoundTimes(number=1, tables=3, published_at=at(0), reports=(at(30), at(33)))
    assert estimate_end([two_of_three], planned_rounds=6, now=at(34)) is None


def test_after_round_1_play_repeats_with_the_default_turnaround_and_closing():
    # Round 1: 40 minutes of play. Five more rounds: 5 x (10 + 40) after its last report, then 5 to close.
    r1 = done(1, 0, [30, 35, 40])
    assert estimate_end([r1], planned_rounds=6, now=at(41)) == at(40 + 5 * 50 + 5)


def test_observed_turnaround_and_closing_replace_the_defaults():
    rounds = [done(1, 0, [30, 40], closed=44), done(2, 48, [80, 88], closed=92),
              RoundTimes(number=3, tables=2, published_at=at(96), reports=(at(120),))]
    # What was seen replaces the defaults: the play time, the turnaround and the time to close of the
    # finished rounds. The running round ends one play time after it was published (its one report
    # came earlier), then each remaining round takes a turnaround and a play time, then the close.
    assert estimate_end(rounds, planned_rounds=6, now=at(121)) == at(136 + 3 * 48 + 4)


def test_one_long_break_is_not_expected_again():
    rounds = [done(1, 0, [40], closed=42), done(2, 50, [90], closed=92), done(3, 130, [170], closed=172)]
    # A dinner break between two rounds is one turnaround far above the others: the lower median keeps
    # it from being expected again.
    end = estimate_end(rounds, planned_rounds=4, now=at(172))
    assert end == at(170 + 10 + 40 + 2)


def test_a_turnaround_under_way_counts_as_long_as_it_has_lasted():
    rounds = [done(1, 0, [40], closed=42)]
    assert estimate_end(rounds, planned_rounds=2, now=at(45)) == at(40 + 10 + 40 + 2)
    # 25 minutes after the last report round 2 is not published yet: it starts now at the earliest.
    assert estimate_end(rounds, planned_rounds=2, now=at(65)) == at(65 + 40 + 2)
    drafted = RoundTimes(number=2, tables=1)
    assert estimate_end([*rounds, drafted], planned_rounds=2, now=at(65)) == at(65 + 40 + 2)


def test_a_slow_current_round_pushes_the_end_to_now_at_least():
    rounds = [
        done(1, 0, [40], closed=42),
        RoundTimes(number=2, tables=2, published_at=at(50), reports=(at(80),)),
    ]
    # Expected to finish at 90; at 100 one table still plays: its end is now, then the closing.
    assert estimate_end(rounds, planned_rounds=2, now=at(100)) == at(100 + 2)


def test_a_running_clock_caps_the_current_round():
    rounds = [
        done(1, 0, [60], closed=62),
        RoundTimes(number=2, tables=2, published_at=at(70), clock_started_at=at(72), clock_seconds=30 * 60),
    ]
    # Typical play 60, but the clock ends at 102: the reports by 107, then 2 to close.
    assert estimate_end(rounds, planned_rounds=2, now=at(80)) == at(107 + 2)
    paused = [rounds[0], RoundTimes(
        number=2, tables=2, published_at=at(70), clock_started_at=at(72), clock_seconds=1800,
        clock_paused=True,
    )]
    assert estimate_end(paused, planned_rounds=2, now=at(80)) == at(130 + 2)


def test_the_time_limit_caps_the_rounds_to_come():
    rounds = [done(1, 0, [60], closed=62)]
    # Play at most 30 + 5 = 35 minutes per round to come.
    end = estimate_end(rounds, planned_rounds=3, now=at(62), time_limit_minutes=30)
    assert end == at(60 + 2 * (10 + 35) + 2)


def test_no_estimate_once_the_last_round_is_closed():
    rounds = [done(1, 0, [40], closed=42), done(2, 50, [90], closed=93)]
    assert estimate_end(rounds, planned_rounds=2, now=at(93)) is None
    last_reported = [rounds[0], done(2, 50, [90])]
    assert estimate_end(last_reported, planned_rounds=2, now=at(91)) == at(92)


def test_round_time_to_five_minutes():
    def day(d, h, m, s=0):
        return datetime(2026, 12, d, h, m, s, tzinfo=UTC)

    assert round_time(day(4, 22, 37, 30)) == day(4, 22, 40)
    assert round_time(day(4, 22, 37, 29)) == day(4, 22, 35)
    assert round_time(day(4, 23, 58)) == day(5, 0, 0)


minutes = st.integers(min_value=1, max_value=120)


@given(
    plays=st.lists(minutes, min_size=1, max_size=8), gaps=st.lists(minutes, min_size=8, max_size=8),
    planned=st.integers(min_value=1, max_value=10), wait=st.integers(min_value=0, max_value=300),
)
def test_never_before_now_and_later_with_more_rounds(plays, gaps, planned, wait):
    rounds, start = [], 0
    for number, play in enumerate(plays, 1):
        rounds.append(done(number, start, [start + play], closed=start + play + 1))
        start += play + gaps[number - 1]
    now = at(start - gaps[len(plays) - 1] + wait)
    end = estimate_end(rounds, planned_rounds=planned, now=now)
    if len(plays) >= planned:
        assert end is None
        return
    assert end is not None and end >= now
    more = estimate_end(rounds, planned_rounds=planned + 1, now=now)
    assert more > end
