"""The suit reader: a second, small CNN that tells a club from a spade on a black index, read at
48 pixels in grey where the card classifier reads 32.

Why: the card classifier's worst error is a club read as a spade (real-dev's webcam table
photos: 0.79 of their club indices in session 13; unseen synthetic decks with the camera look
0.13-0.23). At 32 pixels a soft index's suit is 8-10 pixels and a club's three lobes blur into a
spade's blob; the table photos' indices are about 48 pixels long, so a 32-pixel crop throws away
a third of what the photo has. Reading every card at 48 pixels would cost the whole classifier
again (session 5: trained on from the 32-pixel weights it read worse); this network answers only
the one question the classifier gets wrong, so it is small and quick to train from scratch.

The reader (``vision.reader``) asks it only about indices the classifier reads as a black card,
and then takes the black suit from it and the rank from the classifier (``vision.suits``).

Trained on index crops of black cards only (``python -m datasets.index_crops ... --suits SC
--side 48``, and the black crops of a ``ginsight dataset --crop 48`` set), labels 0 spade, 1
club; shipped as ONNX (``suit.onnx`` beside ``classifier.onnx``).

    python -m models.suit --data data/suit-camera --data data/suit-webcam \\
        --data data/synth4-48/crops --out runs/suit --minutes 40
"""

from __future__ import annotations

import argparse
import json
import math
import time
from pathlib import Path

import numpy as np

from vision.suits import CLUBS, SPADES

SUITS = ("S", "C")  # the outputs, in this order
SIDE = 48
CHANNELS = 1  # grey: a black index's suit is told by its shape alone


def build_model():
    """The card classifier's base network (``models.classifier.build_model``) on one grey
    channel with two outputs: about 20 million multiply-adds a 48-pixel crop (48 -> 24 -> 12 ->
    6, pooled)."""
    from models.classifier import build_model as classifier_network

    return classifier_network(channels=CHANNELS, classes=len(SUITS))


def black_only(x: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The crops of spades and clubs (card classes as ``ginsight dataset`` writes them), with
    suit labels 0 spade, 1 club; other suits and "no index" dropped."""
    spade, club = np.isin(y, SPADES), np.isin(y, CLUBS)
    keep = spade | club
    return x[keep], club[keep].astype(np.int64)


def load(folders: list[Path], split: str) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Black crops of ``split`` from every folder; also how many came from each."""
    from models.classifier import load_crops

    xs, ys, counts = [], [], []
    for folder in folders:
        x, y = black_only(*load_crops(folder, split))
        if x.shape[1] != SIDE:
            raise ValueError(f"{folder}: crops are {x.shape[1]} px; the suit reader reads {SIDE}-px crops")
        xs.append(x)
        ys.append(y)
        counts.append(len(y))
    return np.concatenate(xs), np.concatenate(ys), counts


def _batch(rng: np.random.Generator, x: np.ndarray) -> np.ndarray:
    """Augmented (as the card classifier's crops: turns, lost resolution, light, noise), grey,
    normalised."""
    from models.classifier import augment
    from vision.crops import normalise, to_grey

    return normalise(to_grey(augment(rng, x)))


def train(folders: list[Path], out: Path, *, minutes: float, epochs: int = 100, batch: int = 256,
          lr: float = 3e-3, threads: int = 2, seed: int = 0, resume: Path | None = None, log=print) -> dict:
    """From scratch (or from ``resume``, a ``suit.pt``, its history carried on) on the black
    crops of ``folders`` for at most ``minutes`` (the learning rate follows the time spent:
    ``models.classifier.lr_at``); writes ``suit.pt``, ``suit.onnx`` and ``suit_metrics.json``
    (validation accuracy per folder) into ``out``."""
    import torch
    import torch.nn.functional as F

    from models.classifier import evaluate, lr_at
    from vision.crops import to_grey

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    x, y, train_counts = load(folders, "train")
    x_val, y_val, val_counts = load(folders, "val")
    x_val = to_grey(x_val)  # once: read as the reader reads it, grey
    log(f"{len(y)} training crops ({', '.join(f'{f}: {n}' for f, n in zip(folders, train_counts, strict=True))}), "
        f"{y.mean():.2f} clubs; {len(y_val)} validation")
    model = build_model()
    history = []
    if resume is not None:
        state = torch.load(resume, map_location="cpu")
        model.load_state_dict(state["model"])
        history = list(state.get("history") or [])
        log(f"going on from {resume} ({len(history)} epochs)")
    done = len(history)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    out.mkdir(parents=True, exist_ok=True)
    start, budget = time.time(), minutes * 60
    for epoch in range(done, done + epochs):
        if time.time() - start >= budget:
            break
        model.train()
        order = rng.permutation(len(y))
        t0, seen, loss_sum = time.time(), 0, 0.0
        for i in range(math.ceil(len(order) / batch)):
            progress = (time.time() - start) / budget
            if progress >= 1:
                break
            for group in opt.param_groups:
                group["lr"] = lr_at(progress, lr)
            idx = order[i * batch:(i + 1) * batch]
            xb = torch.from_numpy(_batch(rng, x[idx]))
            loss = F.cross_entropy(model(xb), torch.from_numpy(y[idx]), label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            seen += len(idx)
            loss_sum += loss.item() * len(idx)
        accs, at = [], 0
        for n in val_counts:
            accs.append(evaluate(model, x_val[at:at + n], y_val[at:at + n]))
            at += n
        val_all = sum(a * n for a, n in zip(accs, val_counts, strict=True)) / max(sum(val_counts), 1)
        row = {"epoch": epoch + 1, "loss": round(loss_sum / max(seen, 1), 4),
               "val": {str(f): round(a, 4) for f, a in zip(folders, accs, strict=True)},
               "val_all": round(val_all, 4), "crops_per_s": round(seen / (time.time() - t0), 1),
               "minutes": round((time.time() - start) / 60, 1), **({"resumed": str(resume)} if resume else {})}
        history.append(row)
        log(json.dumps(row))
        torch.save({"model": model.state_dict(), "history": history}, out / "suit.pt")
    export_onnx(model, out / "suit.onnx")
    metrics = {"side": SIDE, "suits": SUITS, "train_crops": dict(zip(map(str, folders), train_counts, strict=True)),
               "val_crops": dict(zip(map(str, folders), val_counts, strict=True)), "history": history,
               "minutes": round((time.time() - start) / 60, 1)}
    (out / "suit_metrics.json").write_text(json.dumps(metrics, indent=2))
    return metrics


def export_onnx(model, path: Path) -> None:
    from models.classifier import export_onnx as export

    export(model, path, SIDE, CHANNELS)


def export_weights(weights: Path) -> Path:
    """``suit.pt`` -> ``suit.onnx`` beside it (as ``ginsight train --export`` does)."""
    import torch

    model = build_model()
    model.load_state_dict(torch.load(weights, map_location="cpu")["model"])
    out = Path(weights).with_suffix(".onnx")
    export_onnx(model, out)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, action="append", required=True,
                        help="a folder of crop shards (train-*.npz, val-*.npz) at 48 px; repeatable")
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
