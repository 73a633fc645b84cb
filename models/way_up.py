"""The way-up reader: a small CNN that tells which way a corner index's top faces, from the
32-pixel grey crop the reader already cuts (``IndexRead.patch``).

Why: a card's two indices are point-symmetric, each the other turned half a turn, so two
indices of one code that face the same way are two cards, one of them misread (one deck holds
each card once). Matching one crop against the other, as it is and turned half a turn, cannot
tell that on small, noisy indices (at 8-pixel pips, a club read as the spade below it on a
webcam photo matches it either way). Which way an index faces is read instead from its rank's
shape and the rank's place above the suit, learnt over many decks.

Output: a vector (cos, sin) of the angle the index's top faces, anticlockwise from the crop's
up; trained on index crops that record it (``python -m datasets.index_crops``, their ``up``),
turned again at random as they are read (``models.classifier.augment_turned``). Shipped as
``way_up.onnx`` beside ``classifier.onnx``; the reader (``vision.reader``) asks it only about
indices with another of their code ``Settings.way_up_apart`` to ``far_apart`` index sizes away.

    python -m models.way_up --data data/up-camera --data data/up-webcam --out runs/way_up --minutes 40
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import numpy as np

NAME = "way_up"
SIDE = 32  # the reader's crops (vision.crops.CROP), grey
CHANNELS = 1


def build_model():
    """The card classifier's base network on one grey channel with two outputs (cos, sin)."""
    from models.classifier import build_model as classifier_network

    return classifier_network(channels=CHANNELS, classes=2)


def load(folders: list[Path], split: str) -> tuple[np.ndarray, np.ndarray, list[int]]:
    """Crops of ``split`` with the way their index faces (degrees), from every folder; the
    crops of "no index" (a joker's corner) dropped; also how many came from each folder."""
    from datasets.index_crops import NO_INDEX
    from models.classifier import load_crops

    xs, ups, counts = [], [], []
    for folder in folders:
        # a shard of false alarms records no way up: given any (they are dropped just below)
        x, y, up = load_crops(folder, split, way_up=True, unknown_up=np.random.default_rng(0))
        keep = y != NO_INDEX
        xs.append(x[keep])
        ups.append(up[keep])
        counts.append(int(keep.sum()))
    x = np.concatenate(xs)
    if x.shape[1] != SIDE:
        raise ValueError(f"crops are {x.shape[1]} px; the way-up reader reads {SIDE}-px crops")
    return x, np.concatenate(ups).astype(np.float32), counts


def unit(degrees: np.ndarray) -> np.ndarray:
    """Angles -> (N, 2) unit vectors (cos, sin)."""
    r = np.radians(np.asarray(degrees, np.float64))
    return np.stack([np.cos(r), np.sin(r)], 1).astype(np.float32)


def angle_error(pred: np.ndarray, degrees: np.ndarray) -> np.ndarray:
    """Degrees between predicted vectors (N, 2) and true angles, in [0, 180]."""
    from vision.crops import cos_sin_degrees, degrees_apart

    return degrees_apart(cos_sin_degrees(pred), degrees)


def predict(model, x: np.ndarray, batch: int = 1024) -> np.ndarray:
    """Grey uint8 crops (N, S, S) -> the model's (N, 2) vectors."""
    import torch

    from vision.crops import normalise

    model.eval()
    out = []
    with torch.no_grad():
        for s in range(0, len(x), batch):
            out.append(model(torch.from_numpy(normalise(x[s:s + batch]))).numpy())
    return np.concatenate(out) if out else np.zeros((0, 2), np.float32)


def train(folders: list[Path], out: Path, *, minutes: float, epochs: int = 100, batch: int = 256,
          lr: float = 3e-3, threads: int = 2, seed: int = 0, resume: Path | None = None, log=print) -> dict:
    """From scratch (or from ``resume``, its history carried on) for at most ``minutes`` (the
    learning rate follows the time spent: ``models.classifier.lr_at``); the loss is the squared
    distance of the output to the true (cos, sin). Writes ``way_up.pt``, ``way_up.onnx`` and
    ``way_up_metrics.json`` (per folder: the share of validation crops read within 45 degrees,
    so on the right side of a quarter turn, and the median error) into ``out``."""
    import torch

    from models.classifier import augment_turned, export_onnx, train_timed
    from vision.crops import normalise, to_grey

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    x, up, train_counts = load(folders, "train")
    x_val, up_val, val_counts = load(folders, "val")
    x_val = to_grey(x_val)
    log(f"{len(up)} training crops ({', '.join(f'{f}: {n}' for f, n in zip(folders, train_counts, strict=True))}); "
        f"{len(up_val)} validation")
    model = build_model()
    history = []
    if resume is not None:
        state = torch.load(resume, map_location="cpu")
        model.load_state_dict(state["model"])
        history = list(state.get("history") or [])
        log(f"going on from {resume} ({len(history)} epochs)")
    done = len(history)
    out.mkdir(parents=True, exist_ok=True)

    def loss_of(idx):
        crops, turned = augment_turned(rng, x[idx])
        xb = torch.from_numpy(normalise(to_grey(crops)))
        target = torch.from_numpy(unit(up[idx] + turned))
        return ((model(xb) - target) ** 2).sum(1).mean()

    def after_epoch(epoch: int, stats: dict) -> None:
        err = angle_error(predict(model, x_val), up_val)
        val, at = {}, 0
        for f, n in zip(folders, val_counts, strict=True):
            e = err[at:at + n]
            val[str(f)] = {"within_45": round(float((e < 45).mean()), 4), "median_deg": round(float(np.median(e)), 1)}
            at += n
        row = {"epoch": done + epoch + 1, "loss": stats["loss"], "val": val,
               "within_45_all": round(float((err < 45).mean()), 4), "crops_per_s": stats["crops_per_s"],
               "minutes": stats["minutes"], **({"resumed": str(resume)} if resume else {})}
        history.append(row)
        log(json.dumps(row))
        torch.save({"model": model.state_dict(), "history": history}, out / f"{NAME}.pt")

    spent = train_timed(model, len(up), loss_of, minutes=minutes, lr=lr, rng=rng, batch=batch, epochs=epochs,
                        after_epoch=after_epoch)
    export_onnx(model, out / f"{NAME}.onnx", SIDE, CHANNELS)
    metrics = {"side": SIDE, "train_crops": dict(zip(map(str, folders), train_counts, strict=True)),
               "val_crops": dict(zip(map(str, folders), val_counts, strict=True)), "history": history,
               "minutes": round(spent, 1)}
    (out / f"{NAME}_metrics.json").write_text(json.dumps(metrics, indent=2))
    return metrics


def export_weights(weights: Path) -> Path:
    """``way_up.pt`` -> ``way_up.onnx`` beside it (as ``ginsight train --export`` does)."""
    import torch

    from models.classifier import export_onnx

    model = build_model()
    model.load_state_dict(torch.load(weights, map_location="cpu")["model"])
    out = Path(weights).with_suffix(".onnx")
    export_onnx(model, out, SIDE, CHANNELS)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, action="append", required=True,
                        help="a folder of index crops with their way up (datasets.index_crops), 32 px; repeatable")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--minutes", type=float, required=True)
    parser.add_argument("--lr", type=float, default=3e-3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--resume", type=Path, metavar="PT", help="go on from this way_up.pt")
    args = parser.parse_args(argv)
    if args.resume is not None and not args.resume.is_file():
        parser.error(f"--resume: no {args.resume}")
    train(args.data, args.out, minutes=args.minutes, lr=args.lr, seed=args.seed, resume=args.resume)


if __name__ == "__main__":
    main()
