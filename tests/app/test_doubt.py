"""The reader's doubt, shown and answered: a card read unsure is asked ("2♣ or 2♠?") with a
button to swap it for the likeliest other card and one to keep it; index boxes found but not
read are said in words; on My hand, Showdown and Live."""

import av
import numpy as np
import pytest

from tests.app.conftest import cards, ok, text, type_cards, upload
from tests.app.fakes import FakeReader, photo
from ui.doubt import Doubt, doubts_of, offered, question, swap, unread_text
from ui.live import LiveFeed

TEN = "AS 2S 3S 4S 7H 7D 7C 9C TC 2C"  # the 2♣ may be read unsure: the 2♥?
SWAPPED = TEN.replace("2C", "2H").split()
DEFENDER = "AH 2H 3H 4H 5H 8S 8D 8C KC QC"


def buttons(at, slot: str) -> dict[str, str]:
    """The answer buttons of ``slot``: key -> label."""
    return {b.key: b.label for b in at.button if b.key and b.key.startswith(f"{slot}.doubt.")}


# --- the words, from plain values -----------------------------------------------------------


@pytest.mark.parametrize(
    ("doubt", "hand", "asked"),
    [
        (Doubt("2C", "2S"), ["2C", "5H"], "2♣ or 2♠?"),
        (Doubt("TH", "TD"), ["TH"], "10♥ or 10♦?"),
        (Doubt("2C", None), ["2C"], "2♣: check it"),
        (Doubt("2C", "2S"), ["2C", "2S"], "2♣: check it"),  # the other card is in the hand already
        (Doubt("2C", "2C"), ["2C"], "2♣: check it"),
    ],
)
def test_the_question(doubt, hand, asked):
    assert question(doubt, hand) == asked
    assert (offered(doubt, hand) is None) == asked.endswith("check it")


def test_a_swap_keeps_the_card_s_place_and_never_makes_a_duplicate():
    assert swap(["AS", "2C", "5H"], "2C", "2S") == ["AS", "2S", "5H"]
    assert swap(["AS", "2C", "2S"], "2C", "2S") == ["AS", "2C", "2S"]
    assert swap(["AS", "5H"], "2C", "2S") == ["AS", "5H"]  # the card was removed meanwhile


@pytest.mark.parametrize(("count", "said"), [
    (0, ""),
    (1, "1 card I could not read: hold it closer, or add light."),
    (3, "3 cards I could not read: hold them closer, or add light."),
])
def test_unread_words(count, said):
    assert unread_text(count) == said


def test_doubts_of_a_reading_in_its_order_each_once():
    from tests.app.fakes import reading_of

    reading = reading_of(["AS", "2C", "KD", "2C"], {"2C": "2S", "KD": None}, 64, 48)
    assert doubts_of(reading) == (Doubt("2C", "2S"), Doubt("KD", None))


# --- My hand ---------------------------------------------------------------------------------


def test_an_unsure_card_is_asked_with_both_cards(app, reader):
    at = ok(upload(app(), "hand", photo(TEN, unsure="2C/2H")))
    assert "The reader is unsure of these cards:" in text(at) and "2♣ or 2♥?" in text(at)
    assert buttons(at, "hand") == {"hand.doubt.2C.swap": "It is 2♥", "hand.doubt.2C.keep": "2♣ is right"}


def test_the_swap_button_puts_the_other_card_in_its_place(app, reader):
    at = ok(upload(app(), "hand", photo(TEN, unsure="2C/2H 9C")))
    at.button(key="hand.doubt.2C.swap").click().run()
    assert cards(ok(at), "hand") == SWAPPED
    assert "2♣ or 2♥?" not in text(at) and "2♥ or" not in text(at)  # answered
    assert "9♣: check it" in text(at) and set(buttons(at, "hand")) == {"hand.doubt.9C.keep"}  # the other still asked
    at.run()
    assert cards(ok(at), "hand") == SWAPPED and reader.reads == 1


def test_the_keep_button_clears_the_question(app, reader):
    at = ok(upload(app(), "hand", photo(TEN, unsure="2C/2H")))
    at.button(key="hand.doubt.2C.keep").click().run()
    assert cards(ok(at), "hand") == TEN.split()
    assert "2♣ or 2♥?" not in text(at) and not buttons(at, "hand")
    assert "The reader is unsure" not in text(at)


def test_no_other_card_is_offered_when_the_hand_holds_it(app, reader):
    at = ok(upload(app(), "hand", photo(TEN, unsure="2C/2H")))
    at.multiselect(key="hand.cards.widget").unselect("TC").run()
    at.multiselect(key="hand.cards.widget").select("2H").run()  # the player added the 2♥ himself
    assert "2♣: check it. If it is wrong, correct it in the box below." in text(ok(at)).replace("**", "")
    assert buttons(at, "hand") == {"hand.doubt.2C.keep": "2♣ is right"}


def test_a_card_removed_by_the_player_is_no_longer_asked(app, reader):
    at = ok(upload(app(), "hand", photo(TEN, unsure="2C/2H")))
    at.multiselect(key="hand.cards.widget").unselect("2C").run()
    assert "2♣ or 2♥?" not in text(ok(at)) and not buttons(at, "hand")


def test_typed_cards_and_a_new_photo_leave_no_old_question(app, reader):
    at = ok(upload(app(), "hand", photo(TEN, unsure="2C/2H")))
    at = ok(type_cards(at, "hand", TEN))
    assert "2♣ or 2♥?" not in text(at)
    at = ok(upload(at, "hand", photo("AS 2S 3S", unsure="3S/3C")))
    assert "3♠ or 3♣?" in text(at) and "2♣" not in text(at)


@pytest.mark.parametrize(("unread", "said"), [
    (1, "1 card I could not read: hold it closer, or add light."),
    (2, "2 cards I could not read: hold them closer, or add light."),
])
def test_index_boxes_not_read_are_said(app, reader, unread, said):
    at = ok(upload(app(), "hand", photo(TEN, unread=unread)))
    assert said in [w.value for w in at.warning]
    at = ok(upload(at, "hand", photo(TEN)))
    assert "could not read" not in text(at)


def test_a_photo_of_only_unread_corners_says_so_and_keeps_the_cards(app, reader):
    at = type_cards(app(), "hand", TEN)
    at = ok(upload(at, "hand", photo("", unread=2)))
    assert "2 cards I could not read: hold them closer, or add light." in text(at)
    assert "No cards found in this photo" in text(at) and cards(at, "hand") == TEN.split()


# --- Showdown: each hand asks of its own cards ---------------------------------------------


def test_showdown_asks_in_each_hand(app, reader):
    at = app("showdown")
    at = ok(upload(at, "knocker", photo("AS 2S 3S 4S 5S 7H 7D 7C 9C TC", unsure="9C/9H", unread=1)))
    at = ok(upload(at, "defender", photo(DEFENDER, unsure="KC")))
    t = text(at)
    assert "9♣ or 9♥?" in t and "K♣: check it" in t and "1 card I could not read" in t
    assert set(buttons(at, "knocker")) == {"knocker.doubt.9C.swap", "knocker.doubt.9C.keep"}
    assert set(buttons(at, "defender")) == {"defender.doubt.KC.keep"}
    at.button(key="knocker.doubt.9C.swap").click().run()
    assert "9H" in cards(ok(at), "knocker") and "9C" not in cards(at, "knocker")
    assert cards(at, "defender") == DEFENDER.split() and "K♣: check it" in text(at)


# --- Live ---------------------------------------------------------------------------------------


def frame() -> av.VideoFrame:
    return av.VideoFrame.from_ndarray(np.full((48, 64, 3), 90, np.uint8), format="bgr24")


def test_the_live_list_asks_of_its_unsure_cards():
    feed = LiveFeed(FakeReader(live_unsure="9C/9H KD", live_unread=2))
    feed.on_frame(frame())
    read = feed.next(timeout=1)
    assert read.unsure == (Doubt("9C", "9H"), Doubt("KD", None)) and read.unread == 2


def test_live_page_says_the_questions_and_sends_them_to_my_hand(app, reader):
    reader.live_unsure, reader.live_unread = "9C/9H KD", 1
    at = app("live")
    at.session_state["live.feed"].on_frame(frame())
    at.run()
    t = text(ok(at))
    assert "Unsure: 9♣ or 9♥?; K♦: check it" in t and "1 card I could not read: hold it closer" in t
    at.button(key="live.send").click().run()
    assert "Check the unsure ones there." in text(ok(at))
    at.switch_page("ui/pages/my_hand.py").run()
    assert "9♣ or 9♥?" in text(ok(at)) and "K♦: check it" in text(at)
    at.radio(key="hand.source").set_value("Type").run()  # asked whatever the source chosen there
    assert "9♣ or 9♥?" in text(ok(at))
    at.button(key="hand.doubt.9C.swap").click().run()
    assert cards(ok(at), "hand") == [c if c != "9C" else "9H" for c in FakeReader.live_codes]
