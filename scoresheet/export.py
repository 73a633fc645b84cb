"""A game's scoresheet as data: JSON (``ginsight score show --json``), CSV and a printable
HTML page (``ginsight score export``, the app's Game page). One row per hand, as played.
"""

from __future__ import annotations

import csv
import io
from html import escape

from engine.table import Table
from scoresheet.store import GameInfo

CSV_COLUMNS = ("hand", "box", "captain", "sitter", "result", "knocker", "winner", "points", "knocker_deadwood",
               "defender_deadwood")


def table_json(info: GameInfo, table: Table | None = None) -> dict:
    """The game as JSON: players, totals, the next hand's roles, the winner, every hand.
    ``table``: the game's table after a change, when it is newer than ``info``'s."""
    table = info.table if table is None else table
    players = table.players
    return {
        "game": info.id,
        "name": info.name,
        "players": list(players),
        "target": table.rules.target,
        "role_draw": info.role_draw,
        "scores": {players[i]: table.scores[i] for i in range(3)},
        "next": None if table.over else {
            "box": players[table.roles.box], "captain": players[table.roles.captain],
            "sitter": players[table.roles.sitter],
        },
        "winner": None if table.winner is None else players[table.winner],
        "hands": [
            {
                "hand": r.number, "box": players[r.roles.box], "captain": players[r.roles.captain],
                "sitter": players[r.roles.sitter], "result": r.result.result,
                "knocker": None if r.result.knocker is None else players[getattr(r.roles, r.result.knocker)],
                "winner": None if r.winner_player is None else players[r.winner_player],
                "points": r.result.points, "knocker_deadwood": r.result.knocker_deadwood,
                "defender_deadwood": r.result.defender_deadwood,
                "scores": {players[i]: r.scores[i] for i in range(3)},
            }
            for r in table.history
        ],
    }


def csv_text(info: GameInfo) -> str:
    """One row per hand: who sat where, the result, the counts, and each player's total after it."""
    data = table_json(info)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([*CSV_COLUMNS, *(f"{p} total" for p in data["players"])])
    for hand in data["hands"]:
        writer.writerow([*("" if hand[c] is None else hand[c] for c in CSV_COLUMNS),
                         *(hand["scores"][p] for p in data["players"])])
    return out.getvalue()


def _cell(value: object) -> str:
    return "—" if value is None else escape(str(value))


def printable_html(info: GameInfo) -> str:
    """A page to print (or keep): the game, its rules, every hand and the totals."""
    data = table_json(info)
    players = data["players"]
    rules = info.table.rules
    head = "".join(f"<th>{escape(h)}</th>" for h in
                   ("Hand", "Box", "Captain", "Sits out", "Result", "Knocker", "Winner", "Points",
                    *(f"{p}" for p in players)))
    rows = "".join(
        "<tr>" + "".join(f"<td>{_cell(h[c])}</td>" for c in ("hand", "box", "captain", "sitter", "result",
                                                             "knocker", "winner", "points"))
        + "".join(f"<td class=n>{h['scores'][p]}</td>" for p in players) + "</tr>"
        for h in data["hands"]
    ) or f'<tr><td colspan="{8 + len(players)}">No hands yet.</td></tr>'
    totals = ", ".join(f"{escape(p)} {data['scores'][p]}" for p in players)
    if data["winner"] is not None:
        end = f"Winner: {escape(data['winner'])} with {data['scores'][data['winner']]}."
    else:
        nxt = data["next"]
        end = (f"Next hand: box {escape(nxt['box'])}, captain {escape(nxt['captain'])}, "
               f"sits out {escape(nxt['sitter'])}.")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Game {data['game']}: {escape(data['name'])}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2em; color: #111; }}
table {{ border-collapse: collapse; width: 100%; }}
th, td {{ border: 1px solid #999; padding: 4px 8px; text-align: left; }}
td.n {{ text-align: right; }}
th {{ background: #eee; }}
@media print {{ body {{ margin: 0; }} }}
</style></head><body>
<h1>Game {data['game']}: {escape(data['name'])}</h1>
<p>To {rules.target}. Gin bonus {rules.gin_bonus}, undercut bonus {rules.undercut_bonus}, knock with
{rules.knock_limit} or less. First roles: {escape(data['role_draw'])}.</p>
<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>
<p><b>Totals</b>: {totals}. {end}</p>
</body></html>
"""
