"""CLI: the scoresheet, advice and simulation commands."""

import json

import pytest

from cli.main import main


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "sheet.sqlite3")


def test_score_flow(capsys, db):
    code, out, _ = run(capsys, "score", "--db", db, "new", "--players", "Ann,Bob,Cy", "--draw", "Ann:7H Bob:KS Cy:2C")
    assert code == 0 and "box Bob, captain Ann, sits out Cy" in out
    code, out, _ = run(capsys, "score", "--db", db, "add", "--knocker", "Bob", "--knocker-count", "4",
                       "--defender-count", "30")
    assert code == 0 and "knock, Bob scores 26" in out and "box Bob, captain Cy, sits out Ann" in out
    code, out, err = run(capsys, "score", "--db", db, "add", "--knocker", "Ann", "--knocker-count", "4",
                         "--defender-count", "30")
    assert code == 2 and "Ann sits out this hand" in err
    code, out, _ = run(capsys, "score", "--db", db, "add", "--knocker", "captain",
                       "--knocker-cards", "5S 6S 7S 9C TC JC KS KC KD JD",
                       "--defender-cards", "2S 8S 9S AC 2C 7C 8C 2D 8D 2H")
    assert code == 0 and "undercut, Bob scores 11" in out
    code, out, _ = run(capsys, "score", "--db", db, "add", "--draw")
    assert code == 0 and "draw" in out
    code, out, _ = run(capsys, "score", "--db", db, "show", "--json")
    table = json.loads(out)
    assert table["scores"] == {"Ann": 0, "Bob": 37, "Cy": 0}
    assert [h["result"] for h in table["hands"]] == ["knock", "undercut", "draw"]
    assert table["next"] == {"box": "Bob", "captain": "Ann", "sitter": "Cy"}
    assert table["hands"][1]["knocker"] == "Cy" and table["hands"][1]["winner"] == "Bob"
    code, out, _ = run(capsys, "score", "--db", db, "undo")
    assert code == 0 and "Removed hand 3" in out
    code, out, _ = run(capsys, "score", "--db", db, "show")
    assert "Next hand: box Bob, captain Ann, sits out Cy" in out and "undercut" in out
    code, out, _ = run(capsys, "score", "--db", db, "list")
    assert "Ann v Bob v Cy" in out and "2 hands" in out


def test_score_new_roles_and_program_draw(capsys, db):
    code, out, _ = run(capsys, "score", "--db", db, "new", "--players", "A,B,C", "--roles", "C,A,B")
    assert code == 0 and "box C, captain A, sits out B" in out
    code, out, _ = run(capsys, "score", "--db", db, "new", "--players", "A,B,C", "--seed", "4")
    assert code == 0 and "draw: A" in out


def test_score_undo_takes_the_hand_entered_last_even_in_a_game_just_won(capsys, db):
    run(capsys, "score", "--db", db, "new", "--players", "Ann,Bob,Cy", "--roles", "Ann,Bob,Cy", "--name", "old")
    run(capsys, "score", "--db", db, "add", "--knocker", "box", "--knocker-count", "2", "--defender-count", "12")
    run(capsys, "score", "--db", db, "new", "--players", "Ann,Bob,Cy", "--roles", "Ann,Bob,Cy", "--target", "20")
    code, out, _ = run(capsys, "score", "--db", db, "add", "--game", "2", "--knocker", "box",
                       "--knocker-count", "0", "--defender-count", "20")
    assert code == 0 and "Winner: Ann" in out
    code, out, _ = run(capsys, "score", "--db", db, "undo")
    assert code == 0 and "Removed hand 1 of game 2." in out
    code, out, _ = run(capsys, "score", "--db", db, "show", "--game", "1", "--json")
    assert json.loads(out)["scores"] == {"Ann": 10, "Bob": 0, "Cy": 0}
    code, out, _ = run(capsys, "score", "--db", db, "undo")  # then game 1's, the hand entered before it
    assert code == 0 and "Removed hand 1 of game 1." in out
    code, _, err = run(capsys, "score", "--db", db, "undo")
    assert code == 2 and "no hand to undo" in err


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["new", "--players", "A,B"], "three names"),
        (["new", "--players", "A,B,C", "--draw", "A:KS B:KH C:2C"], "tie in the role draw"),
        (["new", "--players", "A,B,C", "--draw", "A:KS B:QH"], "no card drawn for C"),
        (["new", "--players", "A,B,C", "--draw", "A:2C B:7H C:3C a:KS"], "A appears twice in --draw"),
        (["new", "--players", "A,B,C", "--roles", "A,B,D"], "'D' is not one of the players"),
        (["add", "--knocker", "box", "--knocker-count", "12", "--defender-count", "3"], "above the knock limit"),
        (["add", "--knocker", "box"], "--knocker-count and --defender-count"),
        (["add", "--knocker", "box", "--knocker-count", "0", "--defender-count", "3", "--result", "knock"],
         "make the hand 'gin'"),
        (["add", "--draw", "--knocker", "box"], "a draw takes no knocker"),
        (["add", "--knocker", "box", "--knocker-cards", "AS 2S 3S"], "needs both"),
        (["show", "--game", "7"], "no game 7"),
    ],
)
def test_score_bad_input(capsys, db, argv, needle):
    run(capsys, "score", "--db", db, "new", "--players", "Ann,Bob,Cy", "--roles", "Ann,Bob,Cy")
    code, _, err = run(capsys, "score", "--db", db, *argv)
    assert code == 2 and needle in err and err.count("\n") == 1


def test_score_refuses_a_foreign_file(capsys, tmp_path):
    bad = tmp_path / "notes.txt"
    bad.write_text("my notes")
    code, _, err = run(capsys, "score", "--db", str(bad), "list")
    assert code == 2 and "not a ginsight scoresheet" in err
    assert bad.read_text() == "my notes"


def test_advise_eleven_json(capsys):
    code, out, _ = run(capsys, "advise", "--hand", "AS 2S 3S 7H 7D 7C 9C TC JC 4D KD", "--json")
    obj = json.loads(out)["advice"]
    assert code == 0
    assert (obj["discard"], obj["deadwood"], obj["action"]) == ("KD", 4, "knock")
    assert 0 <= obj["undercut_risk"] <= 1 and obj["samples"] == 300
    # drawn, then 4D thrown: 4S extends A-3S, 7S makes four 7s, 8C and QC extend 9-JC
    assert sorted(obj["gin_outs"]) == ["4S", "7S", "8C", "QC"]
    assert obj["reasons"].startswith("Knock: 4 deadwood")


def test_advise_ten_with_upcard(capsys):
    code, out, _ = run(capsys, "advise", "--hand", "AS 2S 3S 7H 7D 7C 9C TC 5H 4D", "--upcard", "JC")
    assert code == 0 and out.startswith("Take J♣: deadwood 4 after discarding 5♥")


# every card but the hand of 11 below and 9 more (KS-KC, QS-QH, JS): 32 cards, which leave 9
# unseen for the opponent's 10 (31 would leave 10: possible, with the stock spent)
_HAND_11 = "AS 2S 3S 7H 7D 7C 9C TC JC 2D 4H"
_KEPT = set(f"{_HAND_11} KS KH KD KC QS QH QD QC JS".split())
ALL_BUT_20 = " ".join(c for c in (r + s for r in "A23456789TJQK" for s in "SHDC") if c not in _KEPT)


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["--hand", "AS 2S 3S 7H 7D 7C 9C TC 5H 4D"], "give the --upcard"),
        (["--hand", "AS 2S 3S 7H 7D 7C 9C TC 5H 4D", "--upcard", "AS"], "AS in upcard is also named"),
        (["--hand", "AS 2S 3S 7H 7D 7C 9C TC 5H 4D KD", "--upcard", "QS"], "drop --upcard"),
        (["--hand", "AS 2S"], "hand has 2 cards"),
        (["--hand", "AS 2S 3S 7H 7D 7C 9C TC 5H 4D KD", "--discards", "KD"], "KD in discards"),
        # what no deal can be (the sampler had failed on it with a bare ValueError)
        (["--hand", "AS 2S 3S 7H 7D 7C 9C TC JC 2D 4H", "--opponent-took", "KS KH KD KC QS QH QD QC JS JH JD"],
         "the opponent holds 10 cards, but 11 are named"),
        (["--hand", "AS 2S 3S 7H 7D 7C 9C TC JC 2D 4H", "--discards", ALL_BUT_20],
         "32 cards of the discard pile and the 0 the opponent took, 9 cards are left unseen: too few"),
        (["--hand", "AS 2S 3S 7H 7D 7C 9C TC JC 2D", "--upcard", "4H", "--discards", ALL_BUT_20],
         "too few for the opponent's 10 others"),
    ],
)
def test_advise_bad_input(capsys, argv, needle):
    code, _, err = run(capsys, "advise", *argv)
    assert code == 2 and needle in err


def test_simulate_log_has_exactly_the_contract_keys(capsys, tmp_path):
    log = tmp_path / "sim.jsonl"
    code, out, _ = run(capsys, "simulate", "--games", "2", "--seed", "3", "--log", str(log), "--samples", "10")
    assert code == 0 and "2 games" in out and "Advice v baseline" in out
    rows = [json.loads(x) for x in log.read_text().splitlines()]
    keys = {"game", "hand", "box", "captain", "sitter", "dealer", "result", "knocker", "winner", "points",
            "knocker_deadwood", "defender_deadwood", "stock_left", "scores"}
    assert rows and all(set(r) == keys for r in rows)
    assert {r["game"] for r in rows} == {1, 2}
    assert max(rows[-1]["scores"].values()) >= 100
    again = tmp_path / "again.jsonl"
    run(capsys, "simulate", "--games", "2", "--seed", "3", "--log", str(again), "--samples", "10")
    assert again.read_text() == log.read_text()  # seeded


def test_simulate_json_stats(capsys):
    code, out, _ = run(capsys, "simulate", "--games", "1", "--seed", "1", "--json", "--samples", "10")
    s = json.loads(out)
    assert code == 0 and s["games"] == 1 and abs(sum(s["results"].values()) - 1) < 1e-9


def test_simulate_names_a_log_it_cannot_write(capsys, tmp_path):
    afile = tmp_path / "notes.txt"
    afile.write_text("keep me")
    assert main(["simulate", "--games", "1", "--log", str(afile / "hands.jsonl")]) == 2
    out, err = capsys.readouterr()
    assert out == "" and f"--log {afile / 'hands.jsonl'}: cannot write there" in err
    assert afile.read_text() == "keep me"


def _two_hands(capsys, db):
    run(capsys, "score", "--db", db, "new", "--players", "Ann,Bob,Cy", "--roles", "Ann,Bob,Cy")
    run(capsys, "score", "--db", db, "add", "--knocker", "box", "--knocker-count", "4", "--defender-count", "30")
    run(capsys, "score", "--db", db, "add", "--knocker", "Cy", "--knocker-count", "2", "--defender-count", "9")


def test_score_export_csv_json_and_html(capsys, db, tmp_path):
    _two_hands(capsys, db)
    code, out, _ = run(capsys, "score", "--db", db, "export")
    assert code == 0
    assert out.splitlines()[0].startswith("hand,box,captain,sitter,result,knocker,winner,points,")
    assert out.splitlines()[1:] == ["1,Ann,Bob,Cy,knock,Ann,Ann,26,4,30,26,0,0", "2,Ann,Cy,Bob,knock,Cy,Cy,7,2,9,26,0,7"]
    code, out, _ = run(capsys, "score", "--db", db, "export", "--format", "json")
    assert json.loads(out)["scores"] == {"Ann": 26, "Bob": 0, "Cy": 7}
    page = tmp_path / "game.html"
    code, out, _ = run(capsys, "score", "--db", db, "export", "--format", "html", "-o", str(page))
    assert code == 0 and out == f"Game 1 written to {page} (html, 2 hands).\n"
    assert "<h1>Game 1: Ann v Bob v Cy</h1>" in page.read_text()
    code, _, err = run(capsys, "score", "--db", db, "export", "-o", str(tmp_path))
    assert code == 2 and f"cannot write {tmp_path}" in err


def test_score_edit_a_past_hand(capsys, db):
    _two_hands(capsys, db)
    # Hand 1 was an undercut: Bob (captain then) wins 10, and the roles after it move.
    code, out, _ = run(capsys, "score", "--db", db, "edit", "--hand", "1", "--knocker", "Ann",
                       "--knocker-count", "5", "--defender-count", "5")
    assert code == 0 and "Hand 1 is now: undercut, Bob scores 10." in out
    code, out, _ = run(capsys, "score", "--db", db, "show", "--json")
    table = json.loads(out)
    assert table["scores"] == {"Ann": 0, "Bob": 10, "Cy": 7}
    assert table["next"] == {"box": "Cy", "captain": "Ann", "sitter": "Bob"}
    code, _, err = run(capsys, "score", "--db", db, "edit", "--hand", "1", "--knocker", "Cy", "--draw")
    assert code == 2 and "a draw takes no knocker" in err
    code, _, err = run(capsys, "score", "--db", db, "edit", "--hand", "1", "--knocker", "Cy",
                       "--knocker-count", "1", "--defender-count", "9")
    assert code == 2 and "Cy sits out this hand" in err  # Cy sat out hand 1
    code, _, err = run(capsys, "score", "--db", db, "edit", "--hand", "3", "--draw")
    assert code == 2 and "no hand 3 in game 1: it has 2 hands" in err
