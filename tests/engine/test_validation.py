"""Table report validation: every rule of docs/rules.md §5, and properties over dealt hands."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import CLASSIC, Card
from engine.notation import format_card, format_hand, hand_value, sort_hand
from engine.validation import ReportContext, SeatReport, TableReport, Validation, validate_table

S = SeatReport


def check(*seats, seated=None, stopped=False, **ctx) -> Validation:
    seated = [s.player_id for s in seats] if seated is None else seated
    return validate_table(TableReport(seated, list(seats), stopped), ReportContext(**ctx))


def codes(v: Validation) -> list[str]:
    return [i.code for i in v.errors]


def warning_codes(v: Validation) -> list[str]:
    return [i.code for i in v.warnings]


def test_a_good_report():
    v = check(S(1, went_out=True), S(2, "R7 Rev W"), S(3, points="12", card_count="2"), S(4, "Y0"))
    assert v.ok and not v.needs_confirmation
    assert v.winner == 1
    assert v.points == {1: 0, 2: 77, 3: 12, 4: 0}
    assert v.card_counts == {1: 0, 2: 3, 3: 2, 4: 1}
    assert v.hands[1] == () and v.hands[3] is None and v.hands[4] == (Card("0", "Y"),)


def test_default_context_and_cards_with_matching_points_and_count():
    report = TableReport([1, 2], [S(1, went_out=True, points="0"), S(2, "7, 7, +4", points=64, card_count=3)])
    v = validate_table(report)
    assert v.ok and v.points[2] == 64


def test_unknown_card_names_player_and_token():
    v = check(S(1, went_out=True), S(2, "R7 foo"), player_names={2: "Anna"})
    (issue,) = v.errors
    assert issue.code == "unknown_card" and issue.player_id == 2
    assert issue.params["token"] == "foo"
    assert issue.text() == "Anna: the card foo is unknown."
    assert v.issues_for(2) == [issue] and v.issues_for(1) == []


def test_other_notation_errors():
    v = check(S(1, went_out=True), S(2, "R W"))
    assert codes(v) == ["bad_notation"]
    assert v.errors[0].params["token"] == "R W"


@pytest.mark.parametrize("garbage", ["abc", "!!!", "R7 Rev W 12", "rot", "2x"])
def test_garbage_strings_are_errors(garbage):
    v = check(S(1, went_out=True), S(2, garbage))
    assert not v.ok and v.errors[0].player_id == 2


def test_no_winner_and_several_winners():
    assert codes(check(S(1, "7"), S(2, "8"))) == ["no_winner"]
    v = check(S(1, went_out=True), S(2, went_out=True), S(3, "8"), player_names={1: "A", 2: "B"})
    assert codes(v) == ["several_winners"]
    assert v.errors[0].params["players"] == "A, B"


def test_winner_inferred_from_zero_card_count_with_warning():
    v = check(S(1, card_count="0"), S(2, "8"))
    assert v.ok and v.needs_confirmation
    assert v.winner == 1 and warning_codes(v) == ["winner_missing_flag"]


def test_two_zero_counts_without_flag():
    v = check(S(1, card_count=0), S(2, card_count=0), S(3, "5"))
    assert codes(v) == ["no_winner", "empty_hand", "empty_hand"]


def test_winner_with_cards():
    assert codes(check(S(1, "R7", went_out=True), S(2, "8"))) == ["winner_with_cards"]
    assert codes(check(S(1, points=5, went_out=True), S(2, "8"))) == ["winner_with_cards"]
    assert codes(check(S(1, card_count=1, went_out=True), S(2, "8"))) == ["winner_with_cards"]


def test_time_limit():
    ok = check(S(1, "7"), S(2, "8"), stopped=True, time_limit=True)
    assert ok.ok and ok.winner is None and ok.points == {1: 7, 2: 8}
    assert codes(check(S(1, "7"), S(2, "8"), stopped=True)) == ["time_limit_not_allowed"]
    v = check(S(1, went_out=True), S(2, "8"), stopped=True, time_limit=True)
    assert codes(v) == ["stopped_with_winner"] and v.errors[0].player_id == 1


def test_non_winner_without_cards():
    assert codes(check(S(1, went_out=True), S(2, card_count=0))) == ["empty_hand"]
    assert codes(check(S(1, went_out=True), S(2, "", card_count="0", points=0))) == ["empty_hand"]
    assert codes(check(S(1, went_out=True), S(2, ""))) == ["missing_entry"]
    assert codes(check(S(1, went_out=True), S(2, " , "))) == ["missing_entry"]
    assert codes(check(S(1, went_out=True), S(2, card_count=3))) == ["points_missing"]


def test_zero_points_without_cards_is_a_warning():
    v = check(S(1, went_out=True), S(2, points="0"))
    assert v.ok and warning_codes(v) == ["zero_points"]


def test_missing_not_seated_and_duplicate_players():
    v = check(S(1, went_out=True), S(2, "7"), S(2, "8"), S(9, "5"), seated=[1, 2, 3])
    assert sorted(codes(v)) == ["duplicate_player", "missing_entry", "not_seated"]
    assert {i.code: i.player_id for i in v.errors} == {
        "duplicate_player": 2, "not_seated": 9, "missing_entry": 3
    }  # fmt: skip
    assert v.hands[3] is None and 9 not in v.points


@pytest.mark.parametrize(
    ("points", "code"),
    [
        *[("1.5", "points_invalid"), ("abc", "points_invalid"), (2.5, "points_invalid")],
        *[
            ("12.0", "points_invalid"),
            (True, "points_invalid"),
            ([1], "points_invalid"),
            ("1 2", "points_invalid"),
        ],
        *[("-3", "points_negative"), (-3, "points_negative")],
        *[("1" * 5000, "points_too_high"), ("2000", "points_too_high")],
    ],
)
def test_bad_points(points, code):
    assert codes(check(S(1, went_out=True), S(2, points=points))) == [code]


def test_whole_float_and_padded_points_are_fine():
    assert check(S(1, went_out=True), S(2, points=12.0)).points[2] == 12
    assert check(S(1, went_out=True), S(2, points=" +12 ")).points[2] == 12


@pytest.mark.parametrize("count", ["x", "-1", -2, "1.5"])
def test_bad_count(count):
    assert codes(check(S(1, went_out=True), S(2, points=5, card_count=count))) == ["count_invalid"]


def test_points_inconsistent_with_count():
    v = check(S(1, went_out=True), S(2, points="101", card_count="2"))
    assert codes(v) == ["points_count_mismatch"]
    assert v.errors[0].params | {"minimum": 0, "maximum": 100} == v.errors[0].params
    v = check(S(1, went_out=True), S(2, points=1, card_count=6))  # six cards are worth at least 2
    assert codes(v) == ["points_count_mismatch"]


def test_count_bounds_use_what_other_players_hold():
    # the other player holds all eight Wild/+4 cards, so two more cards are worth at most 40
    v = check(S(1, went_out=True), S(2, "W W W W +4 +4 +4 +4"), S(3, points=60, card_count=2))
    assert codes(v) == ["points_count_mismatch"] and v.errors[0].params["maximum"] == 40
    v = check(S(1, went_out=True), S(2, "0 0 0 0"), S(3, points=0, card_count=1))
    assert codes(v) == ["points_count_mismatch"] and v.errors[0].params["minimum"] == 1


def test_cards_disagree_with_points_or_count():
    assert codes(check(S(1, went_out=True), S(2, "R7", points=8))) == ["cards_points_mismatch"]
    assert codes(check(S(1, went_out=True), S(2, "R7", card_count=2))) == ["count_mismatch"]


def test_messages_that_count_cards_say_one_card_and_two_cards():
    names = {"player_names": {1: "Anna", 2: "Ben"}}
    one = check(S(1, went_out=True), S(2, "R7", card_count=2), **names).errors[0]
    assert one.count == 1 and one.text() == "Ben: 1 card was entered, but the card count says 2."
    two = check(S(1, went_out=True), S(2, "R7 R8", card_count=3), **names).errors[0]
    assert two.count == 2 and two.text() == "Ben: 2 cards were entered, but the card count says 3."
    worth = check(S(1, went_out=True), S(2, points=200, card_count=1), **names).errors[0]
    assert worth.text() == "Ben: 1 card is worth between 0 and 50 points, not 200."
    # a message without a number keeps its one text
    plain = check(S(1, went_out=True), S(2, "R7", points=8), **names).errors[0]
    assert plain.plural is None and plain.count is None


@pytest.mark.parametrize(
    ("hands", "card", "count", "allowed"),
    [
        (["R7 R7", "R7"], "R7", 3, 2),
        (["R0", "R0"], "R0", 2, 1),
        (["4x7 R7", "4x7"], "7", 9, 8),
        (["W W W", "W W"], "W", 5, 4),
        (["+4 +4 +4", "zieh 4, wild4"], "+4", 5, 4),
        (["R0 Y0 G0", "B0 0"], "0", 5, 4),
    ],
)
def test_too_many_copies(hands, card, count, allowed):
    v = check(S(1, went_out=True), *(S(i + 2, h) for i, h in enumerate(hands)))
    (issue,) = [i for i in v.errors if i.code == "too_many_copies"]
    assert (issue.params["card"], issue.params["count"], issue.params["allowed"]) == (card, count, allowed)
    assert issue.player_id is None


def test_too_many_copies_in_one_hand_names_the_player():
    v = check(S(1, went_out=True), S(2, "5x W"))
    assert codes(v) == ["too_many_copies"] and v.errors[0].player_id == 2
    assert warning_codes(v) == ["large_hand"]


def test_too_many_cards_in_all_hands():
    v = check(S(1, went_out=True), S(2, points=600, card_count=60), S(3, points=600, card_count=60))
    assert "too_many_cards" in codes(v)
    issue = next(i for i in v.errors if i.code == "too_many_cards")
    assert issue.params == {"count": 120, "allowed": 107}


def test_large_hand_and_always_winner_warnings():
    v = check(S(1, went_out=True), S(2, points=250), wins_so_far={1: 3}, rounds_before=3)
    assert v.ok and v.needs_confirmation
    assert sorted(warning_codes(v)) == ["always_winner", "large_hand"]
    assert check(S(1, went_out=True), S(2, "7"), wins_so_far={1: 1}, rounds_before=1).warnings == []
    assert check(S(1, went_out=True), S(2, "7"), wins_so_far={1: 2}, rounds_before=3).warnings == []


def test_all_messages_fill_in():
    v = check(
        S(1, went_out=True), S(1), S(2, "R7 x"), S(3, points="a", card_count="b"), S(4, "W W W W W"),
        S(5, points=300), S(6, "7", points=1, card_count=4), S(7, went_out=True), S(8), S(99),
        seated=[1, 2, 3, 4, 5, 6, 7, 8], stopped=True,
    )  # fmt: skip
    for issue in v.errors + v.warnings:
        assert "%(" not in issue.text()


# --- properties -------------------------------------------------------------------------------


@st.composite
def dealt_round(draw):
    """A real end-of-round state: hands dealt from a shuffled deck, one card on the discard pile."""
    players = draw(st.integers(2, 10))
    deck = draw(st.permutations(CLASSIC.cards()))
    discard, stock = deck[0], deck[1:]
    winner = draw(st.integers(0, players - 1))
    most = min(30, len(stock) // (players - 1))
    hands, pos = [], 0
    for seat in range(players):
        size = 0 if seat == winner else draw(st.integers(1, most))
        hand = [c if draw(st.booleans()) else Card(c.rank) for c in stock[pos : pos + size]]
        hands.append(sort_hand(hand))
        pos += size
    modes = [draw(st.sampled_from(["cards", "points", "points+count", "all"])) for _ in range(players)]
    return discard, winner, hands, modes


@given(dealt_round())
def test_any_dealt_round_is_accepted(state):
    _discard, winner, hands, modes = state
    seats = []
    for pid, (hand, mode) in enumerate(zip(hands, modes, strict=True)):
        if pid == winner:
            seats.append(S(pid, went_out=True))
            continue
        value = hand_value(hand)
        text = format_hand(hand) if mode in ("cards", "all") else None
        points = str(value) if mode != "cards" else None
        count = len(hand) if mode in ("points+count", "all") else None
        seats.append(S(pid, text, points, count))
    v = validate_table(TableReport(list(range(len(hands))), seats))
    assert v.errors == []
    assert v.winner == winner
    for pid, hand in enumerate(hands):
        assert v.points[pid] == (0 if pid == winner else hand_value(hand))


_IDENTITIES = sorted(set(CLASSIC.cards()) | {Card(spec.code) for spec in CLASSIC.ranks}, key=CLASSIC.sort_key)


@given(st.sampled_from(_IDENTITIES), st.integers(1, 3), st.data())
def test_too_many_copies_is_always_refused(card, extra, data):
    needed = CLASSIC.copies(card.rank, card.colour) + extra
    players = data.draw(st.integers(1, 4))
    owners = data.draw(st.lists(st.integers(0, players - 1), min_size=needed, max_size=needed))
    seats = [S(100, went_out=True)]
    for pid in range(players):
        hand = [card] * owners.count(pid) or [Card("5", "B")]
        seats.append(S(pid, " ".join(format_card(c) for c in hand)))
    v = validate_table(TableReport([s.player_id for s in seats], seats))
    issues = [i for i in v.errors if i.code == "too_many_copies"]
    assert any(i.params["card"] == format_card(card) and i.params["count"] >= needed for i in issues)


_FIELD = st.one_of(st.none(), st.text(max_size=12), st.integers(-5, 500), st.floats(allow_nan=True))


@given(st.lists(st.tuples(st.integers(0, 5), _FIELD, _FIELD, _FIELD, st.booleans()), max_size=6),
       st.lists(st.integers(0, 5), max_size=5), st.booleans(), st.booleans())  # fmt: skip
def test_validation_never_raises(rows, seated, stopped, time_limit):
    seats = [S(pid, None if c is None else str(c), p, n, w) for pid, c, p, n, w in rows]
    v = validate_table(TableReport(seated, seats, stopped), ReportContext(time_limit=time_limit))
    for issue in v.errors + v.warnings:
        assert issue.text()


# --- points-only hands together --------------------------------------------------------------------


def test_points_only_hands_together_cannot_exceed_the_deck():
    # each hand alone is possible (at most 1240), together they are not: 1300 > 1240
    v = check(S(1, went_out=True), S(2, points=700), S(3, points=600), player_names={2: "Anna", 3: "Ben"})
    assert codes(v) == ["points_total_too_high"]
    (issue,) = v.errors
    assert issue.player_id is None
    assert issue.params == {"players": "Anna, Ben", "value": 1300, "maximum": 1240}
    assert "Anna, Ben" in issue.text()


def test_points_together_leave_out_the_listed_cards_and_the_discard_pile():
    total = CLASSIC.total_value
    # every card but the cheapest one may be in the points-only hands: exactly at the limit is fine
    assert check(S(1, went_out=True), S(2, points=total - 600), S(3, points=600)).ok
    # a listed Wild Draw Four (50) is no longer in the deck for the others
    v = check(S(1, went_out=True), S(2, "+4"), S(3, points=total - 600), S(4, points=600))
    assert codes(v) == ["points_total_too_high"]
    assert v.errors[0].params["maximum"] == total - 50
    assert check(S(1, went_out=True), S(2, "+4"), S(3, points=total - 650), S(4, points=600)).ok


def test_points_together_use_the_card_counts_when_all_are_known():
    # 5 cards alone: at most 5 black cards, 250 points; 10 cards together: the 8 black cards and two
    # of 20 points, 440
    v = check(S(1, went_out=True), S(2, points=240, card_count=5), S(3, points=240, card_count=5))
    assert codes(v) == ["points_total_too_high"]
    assert v.errors[0].params["maximum"] == 440
    v = check(S(1, went_out=True), S(2, points=220, card_count=5), S(3, points=220, card_count=5))
    assert v.ok


def test_points_together_not_repeated_when_one_hand_alone_is_too_high():
    v = check(S(1, went_out=True), S(2, points=2000), S(3, points=600))
    assert codes(v) == ["points_too_high"]


def test_a_lone_zero_in_the_points_marks_the_player_who_went_out():
    v = check(S(1, points="0"), S(2, "8"), S(3, points="12"))
    assert v.ok and not v.needs_confirmation
    assert v.winner == 1 and warning_codes(v) == []
    assert check(S(1, points="0", card_count="0"), S(2, "8")).winner == 1


def test_two_zeros_in_the_points_mark_nobody():
    v = check(S(1, points="0"), S(2, points="0"), S(3, "8"))
    assert "no_winner" in codes(v)


def test_a_zero_beside_a_marked_winner_is_only_a_warning():
    v = check(S(1, went_out=True), S(2, points="0"), S(3, "8"))
    assert v.ok and v.winner == 1 and warning_codes(v) == ["zero_points"]
