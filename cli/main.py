"""``ginsight``: the entry point and its subcommands.

Exit status: 0 on success, 2 on bad input with a one-line message on stderr.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from functools import cache
from importlib import import_module

from engine.errors import GinsightError

# name -> (module, help). The module has ``add_arguments(parser)`` and ``run(args) -> int``.
COMMANDS = {
    "hand": ("cli.hand", "melds, deadwood, discards and knock for 10 or 11 cards"),
    "showdown": ("cli.showdown", "settle a showdown: layoffs, outcome and points"),
    "advise": ("cli.advise", "take or draw, discard, knock or play on, with reasons"),
    "score": ("cli.score", "the scoresheet of a real game: new, add, edit, undo, show, list, export"),
    "simulate": ("cli.simulate", "bots play whole three-player games: statistics and a log"),
    "read": ("cli.read", "read the cards in photos"),
    "eval": ("cli.eval", "measure the card reader on YOLO-labelled photos"),
    "dataset": ("cli.dataset", "write synthetic, labelled photos of cards"),
    "train": ("cli.train", "train the card reader (detector and classifier)"),
}


class UsageError(Exception):
    """Bad command-line usage; reported in one line, exit 2."""


@cache
def _parser_class():
    import argparse  # not on the `hand --jsonl` path: see main()

    class _Parser(argparse.ArgumentParser):
        def error(self, message: str) -> None:  # one line, not argparse's usage block
            raise UsageError(f"{self.prog}: {message}")

    return _Parser


def build_parser():
    _Parser = _parser_class()
    parser = _Parser(prog="ginsight", description="Three-handed gin rummy assistant.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    for name, (module, help_text) in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        import_module(module).add_arguments(p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    # Build only the parser of the command asked for: importing all would be slow.
    name = argv[0] if argv and argv[0] in COMMANDS else None
    try:
        if argv == ["hand", "--jsonl"]:
            # A stream of hands, the default rules: no argument parser, no dataclasses, so
            # that a pipeline's start-up costs as little as can be (the same output as the
            # parsed path; tests/cli/test_cli.py holds them equal).
            from cli.hand_stream import KNOCK_LIMIT, run_jsonl

            return run_jsonl(sys.stdin, sys.stdout, KNOCK_LIMIT)
        if name is None:
            parser = build_parser()
            args = parser.parse_args(argv)
            parser.print_help()
            return 0 if not argv else 2
        module = import_module(COMMANDS[name][0])
        parser = _parser_class()(prog=f"ginsight {name}", description=COMMANDS[name][1])
        module.add_arguments(parser)
        args = parser.parse_args(argv[1:])
        return module.run(args)
    except (UsageError, GinsightError) as exc:
        print(f"ginsight: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # e.g. `ginsight hand --jsonl < big | head`
        sys.stderr.close()
        return 0
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
