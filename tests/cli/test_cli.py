"""The CLI's JSON contract and its answers to bad input."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from cli.main import main

HAND_KEYS = {"cards", "melds", "deadwood_cards", "deadwood", "gin", "can_knock"}
OPTION_KEYS = {"discard", "deadwood", "melds", "deadwood_cards"}


def run(capsys, *argv, stdin=None, monkeypatch=None):
    if stdin is not None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(stdin))
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_hand_json_ten(capsys):
    code, out, err = run(capsys, "hand", "7S", "7C", "7D", "8S", "9S", "2H", "3H", "4H", "KD", "KC", "--json")
    assert code == 0 and err == ""
    obj = json.loads(out)
    assert set(obj) == HAND_KEYS
    assert obj["deadwood"] == 34
    assert obj["melds"] == [["2H", "3H", "4H"], ["7S", "8S", "9S"]]
    assert obj["deadwood_cards"] == ["7D", "KD", "7C", "KC"]
    assert (obj["gin"], obj["can_knock"]) == (False, False)
    assert obj["cards"] == ["7S", "8S", "9S", "2H", "3H", "4H", "7D", "KD", "7C", "KC"]


def test_hand_json_eleven_in_one_argument_any_form(capsys):
    code, out, _ = run(capsys, "hand", "4s 4♣ 4D 4h 5S 5C 5D 6S 2C 3S 3C", "--json")
    obj = json.loads(out)
    assert code == 0
    assert set(obj) == HAND_KEYS | {"discard", "options"}
    assert (obj["discard"], obj["deadwood"], obj["can_knock"], obj["gin"]) == ("6S", 3, True, False)
    assert len(obj["options"]) == 11 and all(set(o) == OPTION_KEYS for o in obj["options"])
    assert obj["options"][0]["discard"] == "6S"
    assert obj["melds"] == obj["options"][0]["melds"]
    assert sorted(o["discard"] for o in obj["options"]) == sorted(obj["cards"])


def test_hand_text_uses_suit_symbols(capsys):
    code, out, _ = run(capsys, "hand", "AS 2S 3S 7H 7D 7C 9C TC JC KD")
    assert code == 0
    assert "A♠ 2♠ 3♠" in out and "= 10" in out and "can knock" in out


@pytest.mark.parametrize(
    ("argv", "needle"),
    [
        (["hand", "AS", "2S"], "hand has 2 cards; expected 10 or 11"),
        (["hand", "AS AS 2S 3S 4S 5S 6S 7S 8S 9S"], "duplicate card 'AS'"),
        (["hand", "AS 2S 3S 4S 5S 6S 7S 8S 9S 1S"], "unknown rank '1' in card '1S'"),
        (["hand", "AS 2S 3S 4S 5S 6S 7S 8S 9S TX"], "unknown suit 'X'"),
        (["hand"], "no cards given"),
        (["hand", "--nope"], "unrecognized arguments: --nope"),
        (["showdown", "--knocker", "AS 2S 3S 7H 7D 7C 9C TC JC KD"], "both --knocker and --defender"),
        (["showdown", "--knocker", "AS 2S 3S 7H 7D 7C 9C TC JC KD", "--defender", "KD 2H 3H 4H 5H 6H 8H 9H TH JH"],
         "card in both hands: KD"),
        (["showdown", "--knocker", "AS 2S 3S 7H 7D 7C 9C TC QC KD", "--defender", "2H 3H 4H 5H 6H 8H 9H TH JH QD"],
         "knocker's count is 39"),
        (["showdown", "--knocker", "AS 2S 3S 7H 7D 7C 9C TC JC KD", "--defender", "2H 3H 4H 5H 6H 8H 9H TH JH QD",
          "--knocker-melds", "AS 2S"], "not a meld: AS 2S"),
        (["showdown", "--knocker", "AS", "--defender", "2H", "--gin-bonus", "-1"], "gin_bonus must be"),
        (["bogus"], "invalid choice: 'bogus'"),
    ],
)
def test_bad_input_exit_2_one_line(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2
    assert out == ""
    assert needle in err
    assert err.count("\n") == 1 and err.startswith("ginsight: error: ")


def test_hand_jsonl_bad_lines_do_not_stop_the_rest(capsys, monkeypatch):
    lines = "\n".join([
        "AS 2S 3S 4S 5S 6S 7S 8S 9S TS",
        "XX",
        "",
        '["4S", "4C", "4D", "4H", "5S", "5C", "5D", "6S", "2C", "3S", "3C"]',
        "AS 2S",
        "[1, 2]",
        "7S 7C 7D 8S 9S 2H 3H 4H KD KC",
    ])
    code, out, _ = run(capsys, "hand", "--jsonl", stdin=lines, monkeypatch=monkeypatch)
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 0
    assert len(rows) == 6
    assert rows[0]["gin"] is True
    assert set(rows[1]) == {"error"} and "unknown rank" in rows[1]["error"]
    assert rows[2]["discard"] == "6S" and len(rows[2]["options"]) == 11
    assert "has 2 cards" in rows[3]["error"]
    assert "list of card strings" in rows[4]["error"]
    assert rows[5]["deadwood"] == 34


STREAM = "\n".join([
    "AS 2S 3S 4S 5S 6S 7S 8S 9S TS", "XX", "", "10h 10s 10d 2c 3c 4c 5h 6h 7h kd",
    '["4S", "4C", "4D", "4H", "5S", "5C", "5D", "6S", "2C", "3S", "3C"]', "AS 2S", "[1, 2]", "[oops",
    "AS AS 3S 4S 5S 6S 7S 8S 9S TS", "7S 7C 7D 8S 9S 2H 3H 4H KD KC", "QS KS AS 2H 3H 4H 5D 6D 7D 9C JH",
])


def test_hand_jsonl_fast_path_answers_as_the_parsed_path(capsys, monkeypatch):
    # `hand --jsonl` alone skips the argument parser; with an option it goes through it.
    fast = run(capsys, "hand", "--jsonl", stdin=STREAM, monkeypatch=monkeypatch)
    parsed = run(capsys, "hand", "--jsonl", "--knock-limit", "10", stdin=STREAM, monkeypatch=monkeypatch)
    assert fast == parsed and fast[0] == 0
    rows = [json.loads(x) for x in fast[1].splitlines()]
    assert len(rows) == 10 and sum("error" in r for r in rows) == 5
    assert rows[2]["deadwood"] == 10 and rows[2]["melds"] == [["2C", "3C", "4C"], ["5H", "6H", "7H"], ["TS", "TH", "TD"]]


def test_hand_jsonl_knock_limit_is_the_rules_default():
    from cli.hand_stream import KNOCK_LIMIT
    from engine.rules import Rules

    assert Rules().knock_limit == KNOCK_LIMIT


def test_hand_jsonl_starts_without_argparse_or_dataclasses():
    code = ("import sys; from cli.main import main; rc = main(['hand', '--jsonl']); "
            "print(sorted(m for m in ('argparse', 'dataclasses', 'json') if m in sys.modules), rc)")
    out = subprocess.run([sys.executable, "-c", code], input="AS 2S 3S 4H 5H 6H 7D 8D 9D KC\n",
                         capture_output=True, text=True, check=True, cwd=Path(__file__).resolve().parents[2]).stdout
    first, last = out.splitlines()
    assert json.loads(first)["deadwood"] == 10
    assert last == "[] 0"


SHOWDOWN = ["--knocker", "5S 6S 7S 9C TC JC KS KC KD JD", "--defender", "2S 8S 9S AC 2C 7C 8C 2D 8D 2H"]


def test_showdown_json_contract(capsys):
    code, out, _ = run(capsys, "showdown", *SHOWDOWN, "--knocker-melds", "5S 6S 7S | 9C TC JC | KS KC KD", "--json")
    obj = json.loads(out)
    assert code == 0
    assert set(obj) == {"knocker", "defender", "outcome", "winner", "points"}
    assert set(obj["knocker"]) == {"melds", "deadwood_cards", "deadwood"}
    assert set(obj["defender"]) == {"melds", "layoffs", "deadwood_cards", "deadwood"}
    assert obj["knocker"]["deadwood_cards"] == ["JD"]
    assert obj["defender"]["layoffs"] == [
        {"card": "8S", "meld": ["5S", "6S", "7S"]},
        {"card": "9S", "meld": ["5S", "6S", "7S"]},
        {"card": "8C", "meld": ["9C", "TC", "JC"]},
        {"card": "7C", "meld": ["9C", "TC", "JC"]},
    ]
    assert obj["defender"]["melds"] == [["2S", "2H", "2D", "2C"]]
    assert (obj["defender"]["deadwood"], obj["outcome"], obj["winner"], obj["points"]) == (9, "undercut", "defender", 11)


def test_showdown_bonus_settings(capsys):
    gin = ["--knocker", "AS 2S 3S 7H 7D 7C 9C TC JC QC", "--defender", "4D 5D 6D 8H 8C 8S KH KD KC 2H"]
    _, out, _ = run(capsys, "showdown", *gin, "--json", "--gin-bonus", "20")
    assert json.loads(out)["points"] == 22
    _, out, _ = run(capsys, "showdown", "--knocker", "AS 2S 3S 7H 7D 7C 9C TC JC 5D",
                    "--defender", "4H 4C 4D KH KC KD 8S 8H 8C 5H", "--json", "--undercut-bonus", "15")
    assert json.loads(out)["points"] == 15


def test_showdown_text(capsys):
    code, out, _ = run(capsys, "showdown", *SHOWDOWN)
    assert code == 0
    assert "lays off  8♠ onto 5♠ 6♠ 7♠" in out
    assert "undercut: defender scores 11" in out


def test_showdown_jsonl(capsys, monkeypatch):
    lines = "\n".join([
        json.dumps({"knocker": "5S 6S 7S 9C TC JC KS KC KD JD", "defender": "2S 8S 9S AC 2C 7C 8C 2D 8D 2H",
                    "knocker_melds": [["5S", "6S", "7S"], ["9C", "TC", "JC"], ["KS", "KC", "KD"]]}),
        "not json",
        json.dumps({"knocker": ["5S", "6S", "7S", "9C", "TC", "JC", "KS", "KC", "KD", "JD"], "defender": "2S 8S 9S AC 2C 7C 8C 2D 8D 2H",
                    "knocker_melds": "5S 6S 7S | 9C TC JC | KS KC KD"}),
        json.dumps({"knocker": "AS"}),
        json.dumps([1]),
        json.dumps({"knocker": "5S 6S 7S 9C TC JC KS KC KD JD", "defender": "2S 8S 9S AC 2C 7C 8C 2D 8D 2H", "x": 1}),
    ])
    code, out, _ = run(capsys, "showdown", "--jsonl", stdin=lines, monkeypatch=monkeypatch)
    rows = [json.loads(x) for x in out.splitlines()]
    assert code == 0 and len(rows) == 6
    assert rows[0]["points"] == 11 and rows[2]["points"] == 11
    assert "not a JSON object" in rows[1]["error"]
    assert "'defender' must be" in rows[3]["error"]
    assert "must be a JSON object" in rows[4]["error"]
    assert "unknown key(s): x" in rows[5]["error"]


def test_console_script_end_to_end():
    """The installed `ginsight` entry point, as a user runs it."""
    script = Path(sys.executable).with_name("ginsight")
    assert script.exists(), "the console script is installed by `make setup`"
    proc = subprocess.run(
        [script, "hand", "--json", "AS 2S 3S 7H 7D 7C 9C TC JC KD"], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["deadwood"] == 10
    proc = subprocess.run([script, "hand", "AS"], capture_output=True, text=True, check=False)
    assert proc.returncode == 2 and proc.stderr.strip().startswith("ginsight: error:")


def test_engine_imports_nothing_heavy():
    code = "import sys, cli.main, engine; sys.exit(any(m in sys.modules for m in ('numpy','torch','cv2','ultralytics','streamlit')))"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
