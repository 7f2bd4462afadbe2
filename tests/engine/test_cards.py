"""The deck is data: counts, values and limits all come from the Deck definition."""

from engine.cards import CLASSIC, COLOURS, DECKS, Card, Deck, RankSpec, count_cards, get_deck


def test_classic_deck_has_108_cards_worth_1240_points():
    assert CLASSIC.size == 108
    assert len(CLASSIC.cards()) == 108
    assert CLASSIC.total_value == 1240
    assert sum(CLASSIC.value(card) for card in CLASSIC.cards()) == 1240


def test_copies_per_colour_and_per_rank():
    assert CLASSIC.copies("0", "R") == 1
    assert CLASSIC.copies("0") == 4
    assert CLASSIC.copies("7", "G") == 2
    assert CLASSIC.copies("7") == 8
    assert CLASSIC.copies("+2") == 8
    assert CLASSIC.copies("W") == 4
    assert CLASSIC.copies("+4") == 4
    assert CLASSIC.copies("W", "R") == 0
    assert CLASSIC.copies("7", "X") == 0
    assert CLASSIC.copies("nope") == 0


def test_values_and_labels():
    assert CLASSIC.value(Card("7", "R")) == 7
    assert CLASSIC.value(Card("Rev")) == 20
    assert CLASSIC.value(Card("+4")) == 50
    assert CLASSIC.rank("+2").label == "Draw Two"
    assert CLASSIC.rank("W").is_black and not CLASSIC.rank("S").is_black
    assert CLASSIC.has_rank("S") and not CLASSIC.has_rank("X")


def test_cards_lists_coloured_cards_with_colour_and_black_ones_without():
    cards = count_cards(CLASSIC.cards())
    assert cards[Card("7", "R")] == 2
    assert cards[Card("0", "B")] == 1
    assert cards[Card("W")] == 4
    assert Card("7") not in cards
    assert {c.colour for c in cards if c.colour} == set(COLOURS)


def test_cheapest_and_dearest():
    assert CLASSIC.cheapest(4) == 0
    assert CLASSIC.cheapest(5) == 1
    assert CLASSIC.dearest(2) == 100
    assert CLASSIC.dearest(8) == 400
    assert CLASSIC.dearest(0) == 0
    assert CLASSIC.dearest(500) == 1240
    available = {"W": 1, "7": 3}
    assert CLASSIC.cheapest(2, available) == 14
    assert CLASSIC.dearest(2, available) == 57


def test_sort_key_orders_colours_then_black_then_colourless():
    cards = [Card("7"), Card("+4"), Card("W"), Card("Rev", "G"), Card("7", "R")]
    assert sorted(cards, key=CLASSIC.sort_key) == [
        Card("7", "R"), Card("Rev", "G"), Card("W"), Card("+4"), Card("7")
    ]  # fmt: skip


def test_get_deck():
    assert get_deck("classic") is CLASSIC
    assert DECKS["classic"] is CLASSIC
    assert get_deck("unknown") is CLASSIC


def test_another_edition_is_just_data():
    deck = Deck(
        key="mini",
        name="Mini",
        colours=("R", "B"),
        ranks=(RankSpec("1", 1, 3, 0, "1"), RankSpec("X", 40, 0, 2, "Swap Hands")),
    )
    assert deck.size == 8
    assert deck.total_value == 6 + 80
    assert deck.copies("1", "R") == 3
    assert deck.sort_key(Card("zz")) > deck.sort_key(Card("1"))
    assert deck.sort_key(Card("1", "Q")) > deck.sort_key(Card("1", "B"))
