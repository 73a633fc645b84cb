"""The black suit reader: a small CNN that tells a club from a spade on a black index from a
48-pixel grey crop, where the card classifier reads the whole card from 32 pixels in colour.

Why: the card classifier's worst error is a club read as a spade (most of the club indices of
real-dev's webcam table photos, and many of unseen synthetic decks read with the camera look).
At 32 pixels a soft index's suit is 8-10 pixels and a club's three lobes blur into a spade's
blob; the table photos' indices are about 48 pixels long, so a 32-pixel crop throws away a third
of what the photo has. Reading every card at 48 pixels would cost the whole classifier again
(and the 32-pixel weights trained on at 48 read worse); this network answers only the one
question the classifier gets wrong, so it is small and quick to train from scratch.
The reader (``vision.reader``) asks it only about indices the classifier reads as a black card,
and then takes the black suit from it and the rank from the classifier (``vision.suits``).

It reads crops turned upright, as the reader gives them (turned by the way-up reader's angle,
``vision.reader``). Trained on index crops that record the way they face
(``python -m datasets.index_crops ... --suits SC --side 48``, and the crops of a
``ginsight dataset --crop 48`` set), each turned upright by it and then only a little, no
quarter turns; labelled 0 spade, 1 club; shipped as ``suit.onnx`` beside ``classifier.onnx``,
its metadata marked ``upright`` (the reader refuses a suit network without it).

    python -m models.suit --data data/suit-camera --data data/suit-webcam \\
        --data data/synth4-48/crops --out runs/suit --minutes 40
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

from engine.cards import CODES

SUITS = "SC"  # its outputs, in this order: spade, club (vision.suits relies on it)
SIDE = 48
CHANNELS = 1  # grey: a black index's suit is told by its shape alone


def build_model():
    """The card classifier's base network (``models.classifier.build_model``) on one grey
    channel with two outputs, spade and club: about 20 million multiply-adds a 48-pixel crop
    (48 -> 24 -> 12 -> 6, pooled)."""
    from models.classifier import build_model as classifier_network

    return classifier_network(channels=CHANNELS, classes=len(SUITS))


def black_only(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The crops of spades and clubs (card classes as ``ginsight dataset`` writes them), with
    suit labels 0 spade, 1 club; other suits and "no index" dropped."""
    of = np.array([SUITS.find(c[-1]) for c in CODES] + [-1])  # class -> label, -1 dropped
    label = of[np.asarray(y)]
    keep = label >= 0
    return x[keep], label[keep].astype(np.int64)


def load(folders: list[Path], split: str) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """The spades' and clubs' crops of ``split`` from every folder, each turned upright by the
    way its index faces (``vision.crops.turn_upright``; crops that record it,
    ``datasets.index_crops``); also how many came from each."""
    from models.classifier import load_crops
    from vision.crops import turn_upright

    xs, ys, counts = [], [], []
    for folder in folders:
        x, y, up = load_crops(folder, split, way_up=True)
        kept, y = black_only(np.arange(len(y)), y)
        x = turn_upright(x[kept], up[kept])  # only the crops kept are turned
        if x.shape[1] != SIDE:
            raise ValueError(f"{folder}: crops are {x.shape[1]} px; the suit reader reads {SIDE}-px crops")
        xs.append(x)
        ys.append(y)
        counts.append(len(y))
    return np.concatenate(xs), np.concatenate(ys), counts


def _batch(rng: np.random.Generator, x: np.ndarray) -> np.ndarray:
    """Augmented as the card classifier's crops (turned only a little,
    ``models.classifier.UPRIGHT_TURN``; lost resolution, light, noise), grey, normalised."""
    from models.classifier import UPRIGHT_TURN, augment_turned
    from vision.crops import normalise, to_grey

    crops, _ = augment_turned(rng, x, quarter_turns=False, most_turn=UPRIGHT_TURN)
    return normalise(to_grey(crops))


def train(folders: list[Path], out: Path, *, minutes: float, epochs: int = 100, batch: int = 256,
          lr: float = 3e-3, threads: int = 2, seed: int = 0, resume: Path | None = None,
          log=print) -> dict:
    """From scratch (or from ``resume``, its history carried on) on the spades' and clubs' crops
    in ``folders`` for at most ``minutes`` (the learning rate follows the time spent:
    ``models.classifier.lr_at``); writes ``suit.pt``, ``suit.onnx`` and ``suit_metrics.json``
    (validation accuracy per folder) into ``out``; the .pt and the ONNX metadata say its crops
    are turned upright."""
    import torch
    import torch.nn.functional as F

    from models.classifier import evaluate, train_timed
    from vision.crops import to_grey

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    x, y, train_counts = load(folders, "train")
    x_val, y_val, val_counts = load(folders, "val")
    x_val = to_grey(x_val)  # once: read as the reader reads it, grey
    log(f"{len(y)} training crops ({', '.join(f'{f}: {n}' for f, n in zip(folders, train_counts, strict=True))}), "
        f"{' '.join(f'{s} {(y == i).mean():.2f}' for i, s in enumerate(SUITS))}; {len(y_val)} validation")
    model = build_model()
    history = []
    if resume is not None:
        state = torch.load(resume, map_location="cpu")
        model.load_state_dict(state["model"])
        history = list(state.get("history") or [])
        log(f"going on from {resume} ({len(history)} epochs)")
        if not state.get("upright"):
            log(f"{resume} was trained on crops at any turn; it goes on with crops turned upright")
    done = len(history)
    out.mkdir(parents=True, exist_ok=True)

    def loss_of(idx):
        xb = torch.from_numpy(_batch(rng, x[idx]))
        return F.cross_entropy(model(xb), torch.from_numpy(y[idx]), label_smoothing=0.05)

    def after_epoch(epoch: int, stats: dict) -> None:
        accs, at = [], 0
        for n in val_counts:
            accs.append(evaluate(model, x_val[at:at + n], y_val[at:at + n]))
            at += n
        val_all = sum(a * n for a, n in zip(accs, val_counts, strict=True)) / max(sum(val_counts), 1)
        row = {"epoch": done + epoch + 1, "loss": stats["loss"],
               "val": {str(f): round(a, 4) for f, a in zip(folders, accs, strict=True)},
               "val_all": round(val_all, 4), "crops_per_s": stats["crops_per_s"], "minutes": stats["minutes"],
               **({"resumed": str(resume)} if resume else {})}
        history.append(row)
        log(json.dumps(row))
        torch.save({"model": model.state_dict(), "history": history, "upright": True}, out / "suit.pt")

    spent = train_timed(model, len(y), loss_of, minutes=minutes, lr=lr, rng=rng, batch=batch, epochs=epochs,
                        after_epoch=after_epoch)
    export_onnx(model, out / "suit.onnx")
    metrics = {"side": SIDE,
               "train_crops": dict(zip(map(str, folders), train_counts, strict=True)),
               "val_crops": dict(zip(map(str, folders), val_counts, strict=True)), "history": history,
               "minutes": round(spent, 1)}
    (out / "suit_metrics.json").write_text(json.dumps(metrics, indent=2))
    return metrics


def export_onnx(model, path: Path, upright: bool = True) -> None:
    """``upright``: the file's metadata says its crops are to be turned upright first (False
    only for weights trained on crops at any turn, which the reader refuses)."""
    from models.classifier import export_onnx as export

    export(model, path, SIDE, CHANNELS, {"upright": "true"} if upright else None)


def export_weights(weights: Path) -> Path:
    """``suit.pt`` -> ``suit.onnx`` beside it (as ``ginsight train --export`` does)."""
    import torch

    state = torch.load(weights, map_location="cpu")
    model = build_model()
    model.load_state_dict(state["model"])
    out = Path(weights).with_suffix(".onnx")
    export_onnx(model, out, bool(state.get("upright")))
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, action="append", required=True,
                        help="a folder of crop shards (train-*.npz, val-*.npz) at 48 px that record which way "
                             "their indices face; repeatable")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--minutes", type=float, required=True)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--resume", type=Path, metavar="PT", help="go on from this suit.pt (e.g. the shipped one)")
    args = parser.parse_args(argv)
    if args.resume is not None and not args.resume.is_file():
        parser.error(f"--resume: no {args.resume}")
    train(args.data, args.out, minutes=args.minutes, lr=args.lr, seed=args.seed, resume=args.resume)


if __name__ == "__main__":
    main()
