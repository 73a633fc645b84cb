"""The card classifier: a small CNN that reads one corner index from a 32x32 colour crop.

53 outputs: the 52 cards (engine order, class = suit * 13 + rank) and "no index", so that
the detector's false alarms (a pip, a letter on the table) can be thrown out. The crops
come at any rotation; the network learns all of them (training turns them further).

Trained here with PyTorch (``train_classifier``) and shipped as ONNX, so that reading
needs only onnxruntime.
"""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import numpy as np

NUM_CLASSES = 53
CHANNELS = 3  # BGR: grey crops lost the suit's colour (clubs read as spades, hearts as diamonds)


def build_model(channels: int = CHANNELS):
    import torch.nn as nn

    def block(cin: int, cout: int, stride: int) -> list:
        return [nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    # About 9 million multiply-adds a crop: thousands of crops a second to train on a CPU.
    return nn.Sequential(
        *block(channels, 16, 1), *block(16, 32, 2),  # 16x16
        *block(32, 32, 1), *block(32, 64, 2),  # 8x8
        *block(64, 64, 1), *block(64, 128, 2),  # 4x4
        *block(128, 128, 1),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(128, NUM_CLASSES),
    )


def load_crops(folder: Path, split: str) -> tuple[np.ndarray, np.ndarray]:
    xs, ys = [], []
    for f in sorted(Path(folder).glob(f"{split}-*.npz")):
        d = np.load(f)
        xs.append(d["x"])
        ys.append(d["y"])
    if not xs:
        raise FileNotFoundError(f"no {split} crops in {folder}")
    x = np.concatenate(xs)
    if x.ndim != 4 or x.shape[-1] != CHANNELS:
        raise ValueError(f"the crops in {folder} are {x.shape[1:]}, not colour (S, S, {CHANNELS}): they were "
                         "written by an older `ginsight dataset`; write the data set again")
    return x, np.concatenate(ys).astype(np.int64)


def augment(rng: np.random.Generator, batch: np.ndarray) -> np.ndarray:
    """Further turns, light, white balance, washed colour, blur and noise on uint8 BGR crops
    (N, S, S, 3). Never inverted: that would turn red indices cyan, which no deck prints (the
    dark-faced decks with light indices are in the data set itself)."""
    import cv2

    out = np.empty_like(batch)
    n, s = batch.shape[:2]
    for i in range(n):
        img = batch[i]
        k = int(rng.integers(4))
        if k:
            img = np.rot90(img, k)
        if rng.random() < 0.5:
            m = cv2.getRotationMatrix2D((s / 2 - 0.5, s / 2 - 0.5), rng.uniform(-45, 45), rng.uniform(0.9, 1.1))
            m[:, 2] += rng.normal(0, 1.5, 2)
            img = cv2.warpAffine(img, m, (s, s), borderMode=cv2.BORDER_REPLICATE)
        if rng.random() < 0.3:
            img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.2))
        f = img.astype(np.float32) * rng.uniform(0.6, 1.3) * rng.normal(1, 0.08, 3).astype(np.float32)
        f += rng.uniform(-40, 40)
        if rng.random() < 0.3:  # washed-out colour, as from a cheap webcam
            grey = f.mean(2, keepdims=True)
            f = grey + (f - grey) * rng.uniform(0.2, 0.9)
        if rng.random() < 0.5:
            f += rng.normal(0, rng.uniform(1, 12), f.shape)
        out[i] = np.clip(f, 0, 255).astype(np.uint8)
    return out


def train_classifier(crops_dir: Path, out_dir: Path, *, epochs: int = 6, batch: int = 256, lr: float = 3e-3,
                     threads: int = 2, seed: int = 0, resume: Path | None = None, log=print) -> dict:
    """Train on ``crops_dir`` (written by ``ginsight dataset``); write weights, ONNX and metrics."""
    import torch
    import torch.nn.functional as F

    from vision.crops import normalise

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    rng = np.random.default_rng(seed)
    x_train, y_train = load_crops(crops_dir, "train")
    x_val, y_val = load_crops(crops_dir, "val")
    model = build_model()
    history = []
    if resume is not None and Path(resume).exists():
        state = torch.load(resume, map_location="cpu")
        first = next(v for k, v in state["model"].items() if k.endswith("weight"))
        if first.shape[1] != CHANNELS:
            log(f"{resume} reads {first.shape[1]}-channel crops, this model {CHANNELS}: training afresh")
        else:
            model.load_state_dict(state["model"])
            history = state.get("history", [])
            log(f"resumed from {resume} ({len(history)} epochs before)")
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    steps = epochs * math.ceil(len(x_train) / batch)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=max(steps, 1), pct_start=0.15)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    for _ in range(epochs):
        model.train()
        order = rng.permutation(len(x_train))
        t0, seen, loss_sum = time.time(), 0, 0.0
        for start in range(0, len(order), batch):
            idx = order[start:start + batch]
            xb = torch.from_numpy(normalise(augment(rng, x_train[idx])))
            yb = torch.from_numpy(y_train[idx])
            loss = F.cross_entropy(model(xb), yb, label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            seen += len(idx)
            loss_sum += loss.item() * len(idx)
        acc = evaluate(model, x_val, y_val)
        row = {"epoch": len(history) + 1, "loss": round(loss_sum / seen, 4), "val_top1": round(acc, 4),
               "images_per_s": round(seen / (time.time() - t0), 1), "train_crops": len(x_train)}
        history.append(row)
        log(json.dumps(row))
        torch.save({"model": model.state_dict(), "history": history}, out_dir / "classifier.pt")
    export_onnx(model, out_dir / "classifier.onnx")
    metrics = {"history": history, "val_top1": history[-1]["val_top1"] if history else None,
               "val_crops": len(x_val)}
    (out_dir / "classifier_metrics.json").write_text(json.dumps(metrics, indent=2))
    return metrics


def evaluate(model, x: np.ndarray, y: np.ndarray, batch: int = 1024) -> float:
    import torch

    from vision.crops import normalise

    model.eval()
    correct = 0
    with torch.no_grad():
        for s in range(0, len(x), batch):
            logits = model(torch.from_numpy(normalise(x[s:s + batch])))
            correct += int((logits.argmax(1).numpy() == y[s:s + batch]).sum())
    return correct / max(len(x), 1)


def export_onnx(model, path: Path) -> None:
    import torch

    from vision.crops import CROP

    model.eval()
    dummy = torch.zeros(1, CHANNELS, CROP, CROP)
    torch.onnx.export(model, dummy, str(path), input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=17, dynamo=False)
