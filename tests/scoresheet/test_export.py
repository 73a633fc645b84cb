"""A game's scoresheet as JSON, CSV and a printable page."""

import csv
import io

from engine.rules import Rules
from engine.table import HandResult, Roles
from scoresheet import Scoresheet
from scoresheet.export import csv_text, printable_html, table_json


def game(tmp_path):
    with Scoresheet(tmp_path / "s.db") as sheet:
        g = sheet.new_game(("Ann", "Bob", "Cy <3"), Roles(0, 1, 2), "draw: Ann KS, Bob 7H, Cy <3 2C", Rules())
        sheet.add_hand(g, HandResult.from_counts("box", 4, 30))
        sheet.add_hand(g, HandResult("draw"))
        return sheet.game(g)


def test_json(tmp_path):
    data = table_json(game(tmp_path))
    assert data["scores"] == {"Ann": 26, "Bob": 0, "Cy <3": 0}
    assert data["next"] == {"box": "Ann", "captain": "Cy <3", "sitter": "Bob"}
    assert [h["result"] for h in data["hands"]] == ["knock", "draw"]
    assert data["hands"][0]["knocker"] == "Ann" and data["hands"][1]["knocker"] is None


def test_csv_has_a_row_per_hand_with_the_totals(tmp_path):
    rows = list(csv.reader(io.StringIO(csv_text(game(tmp_path)))))
    assert rows[0] == ["hand", "box", "captain", "sitter", "result", "knocker", "winner", "points",
                       "knocker_deadwood", "defender_deadwood", "Ann total", "Bob total", "Cy <3 total"]
    assert rows[1] == ["1", "Ann", "Bob", "Cy <3", "knock", "Ann", "Ann", "26", "4", "30", "26", "0", "0"]
    assert rows[2] == ["2", "Ann", "Cy <3", "Bob", "draw", "", "", "0", "", "", "26", "0", "0"]


def test_printable_page(tmp_path):
    page = printable_html(game(tmp_path))
    assert page.startswith("<!doctype html>") and "@media print" in page
    assert "Cy &lt;3" in page and "Cy <3" not in page  # names escaped
    assert "<td>knock</td>" in page and "Totals</b>: Ann 26, Bob 0, Cy &lt;3 0." in page
    assert "Next hand: box Ann, captain Cy &lt;3, sits out Bob." in page
