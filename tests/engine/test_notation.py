"""Card notation: the worked examples of docs/rules.md §6, aliases, errors and round trips."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.cards import CLASSIC, Card, Deck, RankSpec
from engine.notation import NotationError, format_hand, hand_value, parse_hand, sort_hand


@pytest.mark.parametrize(
    ("text", "points", "count"),
    [
        ("R7 Rev W", 77, 3),
        ("rot 7, grün +2, Joker", 77, 3),
        ("7, 7, +4", 64, 3),
        ("Y0", 0, 1),
        ("", 0, 0),
        ("  , ;  ", 0, 0),
    ],
)
def test_worked_examples(text, points, count):
    hand = parse_hand(text)
    assert hand_value(hand) == points
    assert len(hand) == count


@pytest.mark.parametrize("text", ["2x7", "2 x 7", "7 7", "2X7", "2x 7", "7,7", "7;7", "2\u00d77", "2*7"])
def test_two_sevens(text):
    assert parse_hand(text) == (Card("7"), Card("7"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("3xR5", (Card("5", "R"),) * 3),
        ("2x rot 7", (Card("7", "R"),) * 2),
        ("2 x grün Rev", (Card("Rev", "G"),) * 2),
        ("R7", (Card("7", "R"),)),
        ("GRev", (Card("Rev", "G"),)),
        ("RS", (Card("S", "R"),)),
        ("Y+2", (Card("+2", "Y"),)),
        ("Rev", (Card("Rev"),)),
        ("S", (Card("S"),)),
        ("+2", (Card("+2"),)),
        ("2", (Card("2"),)),
        ("red skip", (Card("S", "R"),)),
        ("grün +2", (Card("+2", "G"),)),
        ("gruen +2", (Card("+2", "G"),)),
        ("GRÜN+2", (Card("+2", "G"),)),
        ("blau retour", (Card("Rev", "B"),)),
        ("gelb aussetzen", (Card("S", "Y"),)),
        ("blue richtungswechsel", (Card("Rev", "B"),)),
        ("yellow d2", (Card("+2", "Y"),)),
        ("zieh 2", (Card("+2"),)),
        ("draw 2", (Card("+2"),)),
        ("zieh2 draw2 d2", (Card("+2"),) * 3),
        ("zieh 4", (Card("+4"),)),
        ("wild 4", (Card("+4"),)),
        ("W+4 wild4 zieh4", (Card("+4"),) * 3),
        ("wild draw four", (Card("+4"),)),
        ("farbwahl farbenwahl farbwechsel joker wild W", (Card("W"),) * 6),
        ("W +4", (Card("W"), Card("+4"))),
        ("W, 4", (Card("W"), Card("4"))),
        ("wild, 4", (Card("W"), Card("4"))),
        ("zieh, 2", None),
    ],
)
def test_aliases(text, expected):
    if expected is None:
        with pytest.raises(NotationError):
            parse_hand(text)
    else:
        assert parse_hand(text) == expected


@pytest.mark.parametrize(
    ("text", "token"),
    [
        ("R7 foo", "foo"),
        ("R", "R"),
        ("rot", "rot"),
        ("R W", "R W"),
        ("RW", "RW"),
        ("rot +4", "rot +4"),
        ("rot rot 7", "rot"),
        ("rot R7", "rot R7"),
        ("10", "10"),
        ("2x", "2x"),
        ("2 x", "2 x"),
        ("0x7", "0x7"),
        ("0 x 7", "0 x 7"),
        ("999x7", "999x7"),
        ("2x 2x 7", "2x"),
        ("rot 2x7", "2x7"),
        ("rot 2 x 7", "2"),
        ("Rx", "Rx"),
    ],
)
def test_errors_name_the_token(text, token):
    with pytest.raises(NotationError) as info:
        parse_hand(text)
    assert info.value.token == token
    assert isinstance(info.value, ValueError)


def test_format_hand_is_canonical():
    hand = parse_hand("7 +4 W GRev R7")
    assert format_hand(hand) == "R7 GRev W +4 7"
    assert format_hand(()) == ""


def test_other_deck_codes_and_labels_are_accepted():
    deck = Deck("x", "X", ("R",), (RankSpec("1", 1, 1, 0, "1"), RankSpec("SW", 40, 0, 1, "Swap Hands")))
    assert parse_hand("R1 swaphands", deck) == (Card("1", "R"), Card("SW"))
    assert parse_hand("sw", deck) == (Card("SW"),)
    with pytest.raises(NotationError):
        parse_hand("Y1", deck)


_IDENTITIES = sorted(set(CLASSIC.cards()) | {Card(spec.code) for spec in CLASSIC.ranks}, key=CLASSIC.sort_key)


@given(st.lists(st.sampled_from(_IDENTITIES), max_size=30))
def test_format_parse_round_trip(cards):
    hand = sort_hand(cards)
    assert parse_hand(format_hand(hand)) == hand


@given(st.text(max_size=40))
def test_parser_only_raises_notation_error(text):
    try:
        hand = parse_hand(text)
    except NotationError as exc:
        assert isinstance(exc.token, str) and exc.token
    else:
        assert parse_hand(format_hand(hand)) == hand


# --- cards in the page's language (docs/rules.md §6) ---------------------------------------------

from engine.notation import NOTATIONS, format_card, localise_hand, notation, notation_example  # noqa: E402


def test_german_colour_letters_do_not_read_g_as_green():
    assert localise_hand("Y3 G+2 R7 BRev W +4 7", "de") == "Ge3 Gr+2 R7 BRet J +4 7"
    assert format_card(Card("S", "Y"), notation("de-at")) == "GeStop"


def test_one_language_per_card_german_ranks_too():
    """#51 item 13: a German page writes no English rank ("GeRev", "GrS", "W") next to German colours."""
    assert localise_hand("YRev GS W BS", "de") == "GeRet GrStop J BStop"
    assert notation_example("de") == "R7 GrRet J" and notation_example("en") == "R7 GRev W"


@pytest.mark.parametrize("language", sorted(NOTATIONS))
@given(cards=st.lists(st.sampled_from(sorted(set(CLASSIC.cards()), key=CLASSIC.sort_key)), max_size=12))
def test_every_notation_reads_back_as_the_same_hand(language, cards):
    hand = sort_hand(cards)
    assert parse_hand(format_hand(hand, notation(language))) == hand


def test_english_and_unknown_text_stay_as_stored():
    assert localise_hand("Y3 G+2", "en") == "Y3 G+2"
    assert localise_hand("Y3 Kuh", "de") == "Y3 Kuh"
    assert localise_hand("", "de") == ""


@pytest.mark.parametrize(("typed", "expected"), [
    ("Ge3", "Y3"), ("gr+2", "G+2"), ("GeRev Gr7", "YRev G7"), ("GeRet GrStop J", "YRev GS W"),
])
def test_the_german_letters_are_read_back(typed, expected):
    assert format_hand(parse_hand(typed)) == expected


@given(st.lists(st.sampled_from(sorted(set(CLASSIC.cards()), key=CLASSIC.sort_key)), max_size=12))
def test_the_german_form_reads_back_as_the_same_hand(cards):
    hand = sort_hand(cards)
    assert parse_hand(localise_hand(format_hand(hand), "de")) == hand
