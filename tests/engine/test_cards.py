import pytest

from engine.cards import DECK, Card, format_cards, parse_card, parse_cards
from engine.errors import CardParseError, DuplicateCardError, HandSizeError


@pytest.mark.parametrize(
    ("token", "code"),
    [
        ("AS", "AS"), ("as", "AS"), ("2s", "2S"), ("10h", "TH"), ("TH", "TH"), ("th", "TH"),
        ("10♥", "TH"), ("q♠", "QS"), ("K♦", "KD"), ("j♣", "JC"), ("9d", "9D"), (" 7C ", "7C"),
    ],
)
def test_parse_card_forms(token, code):
    assert parse_card(token).code == code


@pytest.mark.parametrize(
    ("token", "needle"),
    [("1S", "unknown rank '1'"), ("11H", "unknown rank '11'"), ("AX", "unknown suit 'X'"),
     ("ZZ", "unknown rank 'Z'"), ("S", "not a card: 'S'"), ("QSS", "unknown rank 'QS'")],
)
def test_parse_card_errors_name_the_token(token, needle):
    with pytest.raises(CardParseError, match=needle):
        parse_card(token)


def test_values():
    assert [parse_card(t).value for t in ["AS", "2S", "9S", "TS", "JS", "QS", "KS"]] == [1, 2, 9, 10, 10, 10, 10]


def test_pretty_and_repr_round_trip():
    card = parse_card("TS")
    assert str(card) == "10♠"
    assert card.pretty == "10♠"
    assert eval(repr(card), {"Card": Card}) == card


def test_every_card_round_trips():
    for card in DECK:
        assert parse_card(card.code) == card
        assert parse_card(str(card)) == card
        assert parse_card(card.code.lower()) == card


def test_parse_cards_separators_and_duplicates():
    assert format_cards(parse_cards("AS, 2s;10h  TH"[:-4])) == "AS 2S TH"
    with pytest.raises(DuplicateCardError, match="duplicate card '10h'"):
        parse_cards("TH AS 10h")


def test_parse_cards_size():
    with pytest.raises(HandSizeError, match="has 2 cards; expected 10 or 11"):
        parse_cards("AS 2S", sizes=(10, 11))
    assert len(parse_cards("AS 2S", sizes=(2,))) == 2
