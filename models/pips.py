"""The pip reader: a small CNN that tells a spade's pip from a club's (or from anything else a
dark blob beside an index can be) in a 24-pixel colour crop (``datasets/pips.py``'s crops).
The reader (``vision.pips``) asks it about the blobs in the body of a card read as a black
number card, and where the card's pips agree on the other black suit, reads it so
(``Settings.pip_suit``).

    python -m datasets.pips --out data/pips32 --n 150000 --seed 3
    python -m models.pips --data data/pips32 --out runs/pips32 --minutes 15

writes ``pips.pt`` and ``pips.onnx`` (input (N, 3, 24, 24), the classifier's normalisation;
outputs spade, club, other) and ``pips.json`` (its validation accuracy); a weights folder
with ``pips.onnx`` and the reader setting ``pip_suit`` above 0 checks cards by their pips.
Session 32's (15 minutes on a 2-core CPU, 0.974 on its own validation crops) is not shipped:
the check moved the cards of 3,200 synthetic photos by about nothing (``Settings.pip_suit``).
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from vision.pips import LABELS, SIDE


def build_model():
    """The card classifier's base network (``models.classifier.build_model``) on colour crops
    with an output per label: about 2 million multiply-adds a 24-pixel crop."""
    from models.classifier import build_model as classifier_network

    return classifier_network(channels=3, classes=len(LABELS))


def train(data: Path, out: Path, *, minutes: float, batch: int = 256, lr: float = 0.002, seed: int = 0) -> dict:
    import torch

    from models.classifier import export_onnx
    from vision.crops import normalise

    torch.manual_seed(seed)
    torch.set_num_threads(2)
    d = np.load(data / "pips.npz")
    x, y = d["x"], d["y"]
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(y))
    n_val = max(1, len(y) // 20)
    val, tr = order[:n_val], order[n_val:]
    xv = torch.from_numpy(normalise(x[val]))
    yv = torch.from_numpy(y[val])
    model = build_model()
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    steps_per_epoch = len(tr) // batch
    t0, step, epoch = time.time(), 0, 0
    budget = minutes * 60
    loss_fn = torch.nn.CrossEntropyLoss()

    def predict():
        model.eval()
        with torch.no_grad():
            pred = torch.cat([model(xv[i:i + 2048]).argmax(1) for i in range(0, len(yv), 2048)])
        model.train()
        return pred

    def accuracy() -> float:
        return float((predict() == yv).float().mean())

    while time.time() - t0 < budget:
        perm = rng.permutation(tr)
        for k in range(steps_per_epoch):
            done = (time.time() - t0) / budget
            if done >= 1:
                break
            for g in opt.param_groups:  # cosine to zero over the time budget
                g["lr"] = lr * 0.5 * (1 + np.cos(np.pi * done))
            rows = perm[k * batch:(k + 1) * batch]
            xb = x[rows]
            flip = rng.random(len(rows)) < 0.5  # a pip is its own mirror image: clubs and spades are symmetric
            xb[flip] = xb[flip][:, :, ::-1]
            xb = torch.from_numpy(normalise(np.ascontiguousarray(xb)))
            loss = loss_fn(model(xb), torch.from_numpy(y[rows]))
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
        epoch += 1
        print(f"epoch {epoch}: step {step}, loss {loss.item():.3f}, val {accuracy():.4f}, "
              f"{(time.time() - t0) / 60:.1f} min", flush=True)
    out.mkdir(parents=True, exist_ok=True)
    pred = predict()
    acc = float((pred == yv).float().mean())
    pred = pred.numpy()
    model.eval()
    confusion = np.zeros((3, 3), int)
    np.add.at(confusion, (yv.numpy(), pred), 1)
    torch.save({"model": model.state_dict()}, out / "pips.pt")
    export_onnx(model, out / "pips.onnx", crop=SIDE, channels=3, metadata={"labels": ",".join(LABELS)})
    report = {"data": str(data), "crops": len(y), "validation": int(n_val), "epochs": epoch, "steps": step,
              "minutes": minutes, "val_accuracy": round(acc, 4), "confusion (rows true, cols read)": confusion.tolist(),
              "labels": list(LABELS)}
    (out / "pips.json").write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report))
    return report


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m models.pips", description=__doc__.split("\n\n")[0])
    p.add_argument("--data", type=Path, required=True, help="a folder with pips.npz (python -m datasets.pips)")
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--minutes", type=float, default=15)
    p.add_argument("--lr", type=float, default=0.002)
    p.add_argument("--batch", type=int, default=256)
    args = p.parse_args(argv)
    train(args.data, args.out, minutes=args.minutes, batch=args.batch, lr=args.lr)


if __name__ == "__main__":
    main()
