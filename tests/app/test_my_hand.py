"""My hand: typed and photographed hands, corrections, the analysis and advice, bad input."""

import io

import pytest
from PIL import Image

from tests.app.conftest import cards, errors, ok, text, type_cards, upload
from tests.app.fakes import photo

GIN_11 = "AS 2S 3S 4S 7H 7D 7C 9C TC JC KD"
KNOCK_11 = "AS 2S 3S 7H 7D 7C 9C TC JC KD QH"
TEN = "5H 6H 9S 9D 2C 3C KS QD JC 4S"


def test_empty_page_invites_cards(app, reader):
    at = ok(app())
    assert "No cards yet" in text(at)
    assert reader.reads == 0


def test_typed_eleven_cards_gin(app, reader):
    at = ok(type_cards(app(), "hand", GIN_11))
    assert cards(at, "hand") == GIN_11.split()
    t = text(at)
    assert "Best discard: K♦" in t and "Deadwood: 0" in t and "Knock: gin" in t
    assert "Advice**: Knock: gin, 0 deadwood after discarding K♦" in t
    assert "a gin hand cannot be undercut" in t


def test_typed_eleven_cards_knock_with_undercut_risk(app, reader):
    at = ok(type_cards(app(), "hand", KNOCK_11))
    t = text(at)
    assert "Knock: legal" in t and "Deadwood: 10" in t
    assert "Best discard: K♦" in t  # the advice's discard (Q♥ and K♦ tie on deadwood)
    assert "**Advice**: Knock: 10 deadwood after discarding K♦; undercut risk about" in t
    assert "**Undercut risk**: about" in t and "300 showdowns settled" in t
    assert "**Gin outs**: 4 unseen cards give gin" in t
    melds = next(m.value for m in at.markdown if "Melds" in m.value)
    assert "#dbeafe" in melds and "#dcfce7" in melds and "deadwood = 10" in melds  # melds in colour


def test_what_else_is_known_sharpens_the_advice(app, reader):
    at = type_cards(app(), "hand", KNOCK_11)
    at.text_input(key="hand.discards").input("4D KC 9H").run()
    at.text_input(key="hand.took").input("8S").run()
    ok(at)
    assert "the 3 cards of the discard pile" in text(at) and "the opponent's 8♠ taken from the pile" in text(at)
    at.selectbox(key="hand.taken").set_value("KD").run()  # just taken from the pile: may not be discarded
    assert "Best discard: Q♥" in text(ok(at))
    at.text_input(key="hand.discards").input("4D QH").run()  # QH is in the hand
    assert any("Q♥ in discards is also named elsewhere" in e for e in errors(ok(at)))  # as players write it
    at.text_input(key="hand.discards").input("4D XX").run()
    assert any("Not used for the advice" in e and "XX" in e for e in errors(ok(at)))


def test_typed_ten_cards_take_or_draw_with_upcard(app, reader):
    at = ok(type_cards(app(), "hand", TEN))
    t = text(at)
    assert "Knock: not legal" in t and "Best discard: —" in t
    assert "Choose the upcard" in t
    at.selectbox(key="hand.upcard").set_value("7H").run()
    t = text(ok(at))
    assert "**Advice**: Take 7♥: deadwood 47 after discarding" in t
    assert "having taken 7♥, play on" in t  # then the discard and the knock, with the card taken
    assert "5H" not in at.selectbox(key="hand.upcard").options  # a card of the hand is no upcard


@pytest.mark.parametrize(
    ("typed", "needle"),
    [
        ("AS 2S 3S 7H 7D 7C 9C TC JC", "9 cards, 1 missing: a hand has 10 cards, or 11 just after taking one. "
                                        "Correct the cards above: add the missed card."),
        ("AS 2S 3S 7H 7D 7C 9C TC JC KD QH 5C", "12 cards: a hand has 10 cards, or 11 just after taking one. "
                                                 "Correct the cards above: remove 1 wrong card."),
    ],
)
def test_wrong_number_of_cards(app, reader, typed, needle):
    at = ok(type_cards(app(), "hand", typed))
    assert needle in errors(at)
    assert not [m for m in at.metric]
    assert ("Melds so far" in text(at)) == (len(typed.split()) < 10)


@pytest.mark.parametrize(
    ("typed", "needle"),
    [
        ("AS 2S ZZ", "unknown rank 'Z' in card 'ZZ'"),
        ("AS 2S AS", "duplicate card 'A♠' in hand"),
        ("   ", "Type the cards of the hand first"),
    ],
)
def test_bad_typing_leaves_the_cards(app, reader, typed, needle):
    at = type_cards(app(), "hand", GIN_11)
    at = ok(type_cards(at, "hand", typed))
    assert any(needle in e for e in errors(at)), errors(at)
    assert cards(at, "hand") == GIN_11.split()


def test_a_mirrored_photo_is_said_to_be_read_flipped_back(app, reader):
    at = ok(upload(app(), "hand", photo("AS 2S 3S", mirrored=True)))
    assert cards(at, "hand") == ["AS", "2S", "3S"]
    assert "3 cards read in 12 ms: A♠ 2♠ 3♠ (the photo is mirrored, as a selfie camera may save it: " \
        "read flipped back)" in text(at)
    at = ok(upload(app(), "hand", photo("AS 2S 3S")))
    assert "mirrored" not in text(at)


def test_photo_read_drawn_and_corrected(app, reader):
    at = ok(upload(app(), "hand", photo("AS 2S 3S 4S 7H 7D 7C 9C TC JC", unsure="9C")))
    assert cards(at, "hand") == ["AS", "2S", "3S", "4S", "7H", "7D", "7C", "9C", "TC", "JC"]
    assert len(at.image) == 1  # the photo with the cards drawn
    assert "10 cards read in 12 ms: A♠ 2♠ 3♠ 4♠ 7♥ 7♦ 7♣ 9♣ 10♣ J♣" in text(at)
    assert "The reader is unsure of these cards:" in text(at) and "9♣: check it" in text(at)
    assert "Deadwood: 0" in text(at)
    # Remove a wrong card, add a missed one: the analysis follows.
    at.multiselect(key="hand.cards.widget").unselect("9C").run()
    assert any(e.startswith("9 cards, 1 missing") for e in errors(ok(at)))
    at.multiselect(key="hand.cards.widget").select("KD").run()
    assert cards(at, "hand")[-1] == "KD" and "Deadwood: 30" in text(ok(at))
    # A rerun does not read the same photo again, so the corrections stay.
    at.run()
    assert reader.reads == 1 and "KD" in cards(at, "hand") and "9C" not in cards(at, "hand")
    at.button(key="hand.clear").click().run()
    assert cards(ok(at), "hand") == [] and reader.reads == 1


def test_camera_photo(app, reader):
    at = app()
    at.radio(key="hand.source").set_value("Camera").run()
    at.camera_input(key="hand.camera").set_value(("shot.jpg", photo(GIN_11), "image/jpeg")).run()
    assert cards(ok(at), "hand") == GIN_11.split() and "Knock: gin" in text(at)


def test_photo_with_nine_cards_then_one_added(app, reader):
    at = ok(upload(app(), "hand", photo("AS 2S 3S 7H 7D 7C 9C TC JC")))
    assert any(e.startswith("9 cards, 1 missing: a hand has 10 cards") for e in errors(at))
    at.multiselect(key="hand.cards.widget").select("KD").run()
    assert "Deadwood: 10" in text(ok(at)) and not errors(at)


def _truncated_jpeg() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (200, 150), (10, 80, 30)).save(out, "JPEG")
    return out.getvalue()[:300]


@pytest.mark.parametrize(
    ("data", "name", "needle"),
    [
        (b"%PDF-1.4 not a photo at all", "rules.pdf", "That file could not be read as a photo: not an image"),
        (_truncated_jpeg(), "cut.jpg", "That file could not be read as a photo: not an image or a damaged one"),
        (photo("AS", size=(8000, 6000), fmt="PNG"), "huge.png", "image too large: 8000x6000 pixels"),
        (b"", "empty.jpg", "That file is empty"),
        (photo(""), "table.png", "No cards found in this photo"),
    ],
)
def test_bad_photos_leave_the_cards(app, reader, data, name, needle):
    at = type_cards(app(), "hand", GIN_11)
    at = ok(upload(at, "hand", data, name=name))
    assert any(needle in e for e in errors(at)), errors(at)
    assert cards(at, "hand") == GIN_11.split()  # untouched
    assert "Knock: gin" in text(at)


def test_file_over_the_upload_limit(app, reader):
    at = type_cards(app(), "hand", GIN_11)
    at = ok(upload(at, "hand", b"\xff\xd8" + b"0" * (65 * 2**20), name="big.jpg", mime="image/jpeg"))
    assert any("That file is 65 MB; photos up to 64 MB are read." in e for e in errors(at)), errors(at)
    assert cards(at, "hand") == GIN_11.split() and reader.reads == 0
    at = ok(upload(at, "hand", photo("AS 2S 3S")))  # the next photo replaces it, and its message
    assert cards(at, "hand") == ["AS", "2S", "3S"] and len(at.image) == 1
    assert not [e for e in errors(at) if "MB" in e]


def test_a_photo_of_30_mb_is_read(app, reader):
    """Phones' 108- and 200-megapixel photos are 20-40 MB."""
    big = photo("AS 2S 3S")
    at = ok(upload(app(), "hand", big + b"\0" * (30 * 2**20)))  # PNG readers ignore what follows its end
    assert cards(at, "hand") == ["AS", "2S", "3S"] and not [e for e in errors(at) if "MB" in e or "photo" in e]


def test_a_photo_with_more_pixels_than_the_reader_takes_is_read_smaller(app, reader, monkeypatch):
    import ui.photo

    monkeypatch.setattr(ui.photo, "MAX_PIXELS", 5_000_000)  # as 50 MP is to a 200 MP photo
    out = io.BytesIO()
    Image.new("RGB", (4000, 3000), (20, 90, 40)).save(out, "JPEG", quality=50)
    at = ok(upload(app(), "hand", out.getvalue(), name="phone.jpg", mime="image/jpeg"))
    assert not errors(at) and cards(at, "hand") == reader.live_codes
    assert "(a 12-megapixel photo, read at 1/2 size)" in text(at)
    assert at.image[0].proto.imgs  # drawn, at the size it was read


def test_no_reader_still_takes_typed_cards(app, no_reader):
    at = ok(app())
    assert any("The card reader is not available (FileNotFoundError: no card detector shipped" in e
               for e in errors(at))
    at = ok(type_cards(at, "hand", GIN_11))
    assert "Knock: gin" in text(at)


def test_cards_survive_a_page_change(app, reader):
    at = type_cards(app(), "hand", TEN)
    at.switch_page("ui/pages/game.py").run()
    at.switch_page("ui/pages/my_hand.py").run()
    assert cards(ok(at), "hand") == TEN.split()


def test_a_click_during_a_read_does_not_leave_the_photo_half_read(app, reader, monkeypatch):
    """A rerun asked for while the photo is read (the user clicks or types) stops the run at
    the spinner's end: the photo is then read again, never shown beside the old cards."""
    from streamlit.runtime.scriptrunner_utils.script_requests import RerunData
    from streamlit.runtime.scriptrunner_utils.script_run_context import get_script_run_ctx

    at = type_cards(app(), "hand", TEN)
    plain_read = reader.read
    clicks = [True]

    def read_while_the_user_clicks(image):
        reading = plain_read(image)
        if clicks.pop() if clicks else False:
            ctx = get_script_run_ctx()
            ctx.script_requests.request_rerun(RerunData(page_script_hash=ctx.page_script_hash))
        return reading

    monkeypatch.setattr(reader, "read", read_while_the_user_clicks)
    at = ok(upload(at, "hand", photo(GIN_11)))
    assert reader.reads == 2  # stopped once, read again on the rerun
    assert cards(at, "hand") == GIN_11.split() and "Knock: gin" in text(at)
    assert "11 cards read" in text(at)


@pytest.mark.parametrize("typed", ["2c", "2C", "TH", "10h", "th", "q♠", "Q♠ "])
def test_a_card_typed_into_the_correction_box_in_any_spelling(app, reader, typed):
    at = type_cards(app(), "hand", "AS 2S 3S")
    at.multiselect(key="hand.cards.widget").select(typed).run()
    expected = {"2c": "2C", "2C": "2C", "TH": "TH", "10h": "TH", "th": "TH", "q♠": "QS", "Q♠ ": "QS"}[typed]
    assert cards(ok(at), "hand") == ["AS", "2S", "3S", expected]
    assert not [e for e in errors(at) if "Not added" in e]


def test_a_spelling_that_is_no_card_is_named_and_the_cards_stay(app, reader):
    at = type_cards(app(), "hand", "AS 2S 3S")
    at.multiselect(key="hand.cards.widget").select("1h").run()
    assert cards(ok(at), "hand") == ["AS", "2S", "3S"]
    assert any(e.startswith("Not added: unknown rank '1' in card '1h'") for e in errors(at)), errors(at)
    at.run()
    assert not [e for e in errors(at) if "Not added" in e]  # said once


def test_the_correction_chips_are_coloured_by_suit(app, reader):
    at = ok(type_cards(app(), "hand", "AS TH"))
    style = "".join(h.proto.body for h in at.get("html"))
    assert 'aria-label*="♥"' in style and 'aria-label*="♠"' in style and "#b91c1c" in style


def test_fewer_than_ten_cards_show_what_was_read(app, reader):
    at = ok(type_cards(app(), "hand", "AS 2S 3S 7H 7D 7C 9C TC"))
    assert any(e.startswith("8 cards, 2 missing:") and "add the missed cards" in e for e in errors(at))
    melds = next(m.value for m in at.markdown if "Melds so far" in m.value)
    assert "(of the 8 cards there are)" in melds and "deadwood = 19" in melds  # A♠2♠3♠ 7♥7♦7♣; 9♣+10♣


def test_the_advised_discard_first_in_the_table_is_explained(app, reader):
    """K♦ and Q♥ both leave 10: the table lists Q♥ first (deck order), the advice throws K♦."""
    at = ok(type_cards(app(), "hand", "AS 2S 3S 7H 7D 7C 9C TC JC KD QH"))
    rows = at.table[0].value
    assert list(rows["discard"])[:2] == ["Q♥", "K♦"] and list(rows["advice"])[:2] == ["", "advised"]
    assert ("Q♥ and K♦ both leave 10 deadwood. The tie goes to K♦: of tied discards the advice keeps the hand "
            "that more unseen cards would improve, then throws the higher card.") in text(at)


def test_the_best_discard_is_red_for_hearts_and_diamonds(app, reader):
    at = ok(type_cards(app(), "hand", "AS 2S 3S 7H 7D 7C 9C TC JC KD QH"))
    assert next(m.value for m in at.metric if m.label == "Best discard") == ":red[K♦]"
