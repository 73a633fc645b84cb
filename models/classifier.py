"""The card classifier: a small CNN that reads one corner index from a square colour crop
(32 or 48 pixels: the side is the training crops'; the network pools globally, so weights
trained at one side can go on training at another).

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


# Residual blocks added to a trained base network to give it more room: after the
# base module at each index, a block on that many channels with a wider middle. Its last batch
# norm starts at zero, so a grown network first reads exactly as the one it grew from.
GROWN = {14: (64, 128), 20: (128, 256)}  # 64 channels at 8x8, 128 at 4x4
ARCHS = ("base", "grown")

# The classifier's and the suit reader's training crops, turned upright by the way their index
# faces, are turned at most this much more (no quarter turns), so that they learn to bear the
# way-up reader's error: a median of about a degree on held-out decks, every index within 45
# (models/way_up.py).
UPRIGHT_TURN = 10.0


def build_model(channels: int = CHANNELS, arch: str = "base", classes: int = NUM_CLASSES):
    """``arch`` "base": the plain network, as trained from scratch; "grown": the same
    with the residual blocks of :data:`GROWN` (its base's weights under ``base.``). ``channels``
    and ``classes``: its input and outputs (the suit reader, ``models/suit.py``: grey, two)."""
    import torch
    import torch.nn as nn

    if arch not in ARCHS:
        raise ValueError(f"unknown classifier arch {arch!r} (one of {', '.join(ARCHS)})")

    def block(cin: int, cout: int, stride: int) -> list:
        return [nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]

    # About 9 million multiply-adds a 32-px crop (20 million at 48): thousands of crops a second
    # to train on a CPU.
    base = nn.Sequential(
        *block(channels, 16, 1), *block(16, 32, 2),  # 16x16
        *block(32, 32, 1), *block(32, 64, 2),  # 8x8
        *block(64, 64, 1), *block(64, 128, 2),  # 4x4
        *block(128, 128, 1),
        nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Dropout(0.2), nn.Linear(128, classes),
    )
    if arch == "base":
        return base

    class Residual(nn.Module):
        def __init__(self, c: int, hidden: int) -> None:
            super().__init__()
            self.f = nn.Sequential(nn.Conv2d(c, hidden, 3, 1, 1, bias=False), nn.BatchNorm2d(hidden),
                                   nn.ReLU(inplace=True), nn.Conv2d(hidden, c, 3, 1, 1, bias=False),
                                   nn.BatchNorm2d(c))
            nn.init.zeros_(self.f[4].weight)

        def forward(self, x):
            return torch.relu(x + self.f(x))

    class Grown(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.base = base
            self.extra = nn.ModuleDict({str(i): Residual(c, h) for i, (c, h) in GROWN.items()})

        def forward(self, x):
            for i, module in enumerate(self.base):
                x = module(x)
                if str(i) in self.extra:
                    x = self.extra[str(i)](x)
            return x

    return Grown()


def arch_of(state: dict) -> str:
    """The arch a checkpoint (``classifier.pt``'s dict) was saved from."""
    return state.get("arch") or ("grown" if any(k.startswith("base.") for k in state["model"]) else "base")


def load_model(state: dict, grow: bool = False):
    """The network of a checkpoint with its weights; ``grow``: a base one is grown (the added
    blocks start as "no change", so it reads as before)."""
    arch = arch_of(state)
    model = build_model(arch=arch)
    model.load_state_dict(state["model"])
    if grow and arch == "base":
        grown = build_model(arch="grown")
        grown.base.load_state_dict(model.state_dict())
        return grown
    return model


def load_crops(folder: Path, split: str, way_up: bool = False, unknown_up: np.random.Generator | None = None):
    """The crops (N, S, S, 3) and classes of ``split`` in ``folder``; with ``way_up`` also the
    way each index faces (degrees, as ``datasets.index_crops`` records it: ``up``).
    ``unknown_up``: crops of no index (false alarms) in a file that records no way up are given
    ways drawn from it, uniform (the way-up reader's answer about a false alarm is as good as
    any); other crops with no way up are an error."""
    xs, ys, ups = [], [], []
    for f in sorted(Path(folder).glob(f"{split}-*.npz")):
        d = np.load(f)
        if way_up and "up" not in d and not (unknown_up is not None and np.all(d["y"] == NUM_CLASSES - 1)):
            raise ValueError(f"{f} does not say which way its indices face: write it with "
                             "`python -m datasets.index_crops`, which records it")
        xs.append(d["x"])
        ys.append(d["y"])
        if way_up:
            ups.append(d["up"] if "up" in d else unknown_up.uniform(-180, 180, len(d["y"])).astype(np.float32))
    if not xs:
        raise FileNotFoundError(f"no {split} crops in {folder}")
    shapes = sorted({a.shape[1:] for a in xs})
    if len(shapes) > 1:
        raise ValueError(f"the crops in {folder} are not all one size: {shapes}")
    x = np.concatenate(xs)
    if x.ndim != 4 or x.shape[-1] != CHANNELS:
        raise ValueError(f"the crops in {folder} are {x.shape[1:]}, not colour (S, S, {CHANNELS}): they were "
                         "written by an older `ginsight dataset`; write the data set again")
    y = np.concatenate(ys).astype(np.int64)
    return (x, y, np.concatenate(ups).astype(np.float32)) if way_up else (x, y)


def augment(rng: np.random.Generator, batch: np.ndarray) -> np.ndarray:
    """Further turns, lost resolution, light, white balance, washed or no colour, blur and noise
    on uint8 BGR crops (N, S, S, 3). Never inverted: that would turn red indices cyan, which no
    deck prints (the dark-faced decks with light indices are in the data set itself)."""
    return augment_turned(rng, batch)[0]


def augment_turned(rng: np.random.Generator, batch: np.ndarray, quarter_turns: bool = True,
                   most_turn: float = 45.0) -> tuple[np.ndarray, np.ndarray]:
    """:func:`augment`, and how far each crop was turned: degrees anticlockwise, (N,) float32
    (the way-up reader, ``models/way_up.py``, learns which way an index faces from it).
    ``quarter_turns`` False and a smaller ``most_turn``: crops that stand upright stay nearly
    so (the classifier's and the suit reader's training); the defaults draw as :func:`augment` does."""
    import cv2

    from vision.crops import LUMA

    out = np.empty_like(batch)
    turned = np.zeros(len(batch), np.float32)
    n, s = batch.shape[:2]
    for i in range(n):
        img = batch[i]
        k = int(rng.integers(4)) if quarter_turns else 0
        if k:
            img = np.rot90(img, k)  # anticlockwise
        turned[i] = 90 * k
        if rng.random() < 0.5:
            a = rng.uniform(-most_turn, most_turn)
            m = cv2.getRotationMatrix2D((s / 2 - 0.5, s / 2 - 0.5), a, rng.uniform(0.9, 1.1))
            m[:, 2] += rng.normal(0, 1.5, 2)
            img = cv2.warpAffine(img, m, (s, s), borderMode=cv2.BORDER_REPLICATE)
            turned[i] += a  # positive: anticlockwise
        if rng.random() < 0.3:  # few pixels: a small index from a far or cheap camera, scaled up
            small = max(6, round(s * rng.uniform(0.3, 0.75)))
            img = cv2.resize(cv2.resize(img, (small, small), interpolation=cv2.INTER_AREA), (s, s),
                             interpolation=cv2.INTER_LINEAR)
        if rng.random() < 0.3:
            img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.2))
        f = img.astype(np.float32) * rng.uniform(0.6, 1.3) * rng.normal(1, 0.08, 3).astype(np.float32)
        f += rng.uniform(-40, 40)
        u = rng.random()
        if u < 0.15:  # a black-and-white photo (a phone filter, a night webcam): suits by shape alone
            f = np.repeat((f @ LUMA)[..., None], 3, axis=2)
        elif u < 0.45:  # washed-out colour, as from a cheap webcam
            grey = f.mean(2, keepdims=True)
            f = grey + (f - grey) * rng.uniform(0.2, 0.9)
        if rng.random() < 0.5:
            f += rng.normal(0, rng.uniform(1, 12), f.shape)
        out[i] = np.clip(f, 0, 255).astype(np.uint8)
    return out, turned


def trained_crop(history: list[dict]) -> int:
    """The crop side weights were last trained at, from their history (runs before the side
    was recorded were all at ``vision.crops.CROP``, 32)."""
    from vision.crops import CROP

    return (history[-1].get("crop") if history else None) or CROP


def lr_at(progress: float, max_lr: float, warmup: float = 0.15) -> float:
    """One cycle over ``progress`` in [0, 1] (steps done, or time spent, over the whole run):
    a linear warm-up from max/25, then a cosine down to max/1e4."""
    p = min(max(progress, 0.0), 1.0)
    if p < warmup:
        return max_lr * (1 / 25 + (1 - 1 / 25) * p / warmup)
    q = (p - warmup) / (1 - warmup)
    return max_lr * (1e-4 + (1 - 1e-4) * 0.5 * (1 + math.cos(math.pi * q)))


def train_timed(model, n: int, loss_of, *, minutes: float, lr: float, rng: np.random.Generator, batch: int = 256,
                epochs: int | None = None, after_epoch=None, weight_decay: float = 1e-4) -> float:
    """The small readers' training loop (the suit reader, ``models/suit.py``; the way-up reader,
    ``models/way_up.py``): AdamW for at most ``minutes`` and ``epochs`` (None: no limit), each
    epoch over the ``n`` training crops in a new order drawn from ``rng``, ``batch`` at a time:
    ``loss_of(idx)`` makes the batch of those crops and gives its loss (a tensor). The learning
    rate follows the time spent (:func:`lr_at`, at most ``lr``). After each epoch,
    ``after_epoch(epoch, stats)``: the epoch's number in this run (from 0) and its mean loss,
    crops a second and the minutes so far (to validate and save). Returns the minutes spent."""
    import torch

    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=weight_decay)
    start, budget, epoch = time.time(), minutes * 60, 0
    while (epochs is None or epoch < epochs) and time.time() - start < budget:
        model.train()
        order = rng.permutation(n)
        t0, seen, loss_sum = time.time(), 0, 0.0
        for i in range(math.ceil(n / batch)):
            progress = (time.time() - start) / budget
            if progress >= 1:
                break
            for group in opt.param_groups:
                group["lr"] = lr_at(progress, lr)
            idx = order[i * batch:(i + 1) * batch]
            loss = loss_of(idx)
            opt.zero_grad()
            loss.backward()
            opt.step()
            seen += len(idx)
            loss_sum += loss.item() * len(idx)
        if after_epoch is not None:
            after_epoch(epoch, {"loss": round(loss_sum / max(seen, 1), 4),
                                "crops_per_s": round(seen / max(time.time() - t0, 1e-9), 1),
                                "minutes": round((time.time() - start) / 60, 1)})
        epoch += 1
    return (time.time() - start) / 60


class _Batches:
    """Augmented, normalised training batches, so that a torch DataLoader can make them in
    worker processes (the augmentation, not the network, is the cost on a GPU)."""

    def __init__(self, x: np.ndarray, y: np.ndarray, order: np.ndarray, batch: int, seed: int):
        self.x, self.y, self.order, self.batch, self.seed = x, y, order, batch, seed

    def __len__(self) -> int:
        return math.ceil(len(self.order) / self.batch)

    def __getitem__(self, i: int):
        from vision.crops import normalise

        idx = self.order[i * self.batch:(i + 1) * self.batch]
        rng = np.random.default_rng([self.seed, i])
        # upright crops stay nearly so: no quarter turns, a few degrees
        crops, _ = augment_turned(rng, self.x[idx], quarter_turns=False, most_turn=UPRIGHT_TURN)
        return normalise(crops), self.y[idx]


def train_classifier(crops_dir: Path, out_dir: Path, *, epochs: int = 6, batch: int = 256, lr: float = 3e-3,
                     threads: int = 2, seed: int = 0, resume: Path | None = None, device: str = "cpu",
                     workers: int = 0, minutes: float | None = None, export: bool = True, grow: bool = False,
                     swa: bool = False, log=print) -> dict:
    """Train on ``crops_dir`` (written by ``ginsight dataset``); write weights, ONNX and metrics.

    ``device``: "cpu" or a CUDA device ("0", "cuda:0"). ``workers``: processes that augment
    batches (0: in this process). ``minutes``: a time budget; the learning rate then follows
    the time spent, and training stops when it is used up (``epochs`` is then the most).
    ``export``: write ``classifier.onnx`` too (off where ONNX export is not wanted, e.g. on a
    GPU machine that only trains; ``ginsight train --export`` does it later). ``grow``: the
    residual blocks of :data:`GROWN` are added (to the resumed weights, or from scratch). ``swa``:
    stochastic weight averaging: the learning rate held at ``lr`` (after a warm-up of the first
    5% of the run) instead of the one cycle, the weights at the end of every epoch averaged, the
    batch norms' statistics then taken again over training batches; ``classifier.pt`` (and the
    ONNX) hold the average, ``classifier-last.pt`` the last epoch's weights.

    The crops are turned upright first, by the way their index faces (crops that record it,
    ``datasets.index_crops``), then only a little (:data:`UPRIGHT_TURN`), no quarter turns; the
    files say so (``"upright": true`` in the .pt, ``upright`` in the ONNX metadata), so that the
    reader turns its crops upright by the way-up reader's angle and reads each once.
    """
    import torch
    import torch.nn.functional as F

    torch.set_num_threads(threads)
    torch.manual_seed(seed)
    dev = torch.device("cpu" if device == "cpu" else (device if str(device).startswith("cuda") else f"cuda:{device}"))
    rng = np.random.default_rng(seed)
    x_train, y_train, x_val, y_val = _training_crops(crops_dir)
    model = build_model(arch="grown" if grow else "base")
    history = []
    if resume is not None and Path(resume).exists():
        state = torch.load(resume, map_location="cpu")
        first = next(v for k, v in state["model"].items() if k.endswith("weight"))
        if first.shape[1] != CHANNELS:
            log(f"{resume} reads {first.shape[1]}-channel crops, this model {CHANNELS}: training afresh")
        else:
            model = load_model(state, grow=grow)
            history = state.get("history", [])
            if not state.get("upright"):
                log(f"{resume} was trained on crops at any turn; it goes on with crops turned upright")
            grown = " (grown: residual blocks added)" if grow and arch_of(state) == "base" else ""
            log(f"resumed from {resume} ({len(history)} epochs before){grown}")
    arch = arch_of({"model": model.state_dict()})
    crop = int(x_train.shape[1])
    if x_val.shape[1] != crop:
        raise ValueError(f"{crops_dir}: training crops are {crop} px, validation crops {x_val.shape[1]} px")
    before = trained_crop(history) if history else crop
    if before != crop:
        log(f"the weights were last trained on {before}-px crops, these are {crop} px: the classifier "
            f"goes on at {crop} px and the reader will cut {crop}-px crops")
    epochs_before = len(history)
    model.to(dev)
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    steps_per_epoch = math.ceil(len(x_train) / batch)
    total_steps = max(epochs * steps_per_epoch, 1)
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    run_start, step = time.time(), 0
    budget = minutes * 60 if minutes else None
    averaged = torch.optim.swa_utils.AveragedModel(model) if swa else None

    def progress() -> float:
        return (time.time() - run_start) / budget if budget else step / total_steps

    def save(net, name: str) -> None:
        torch.save({"model": net.state_dict(), "arch": arch, "history": history, "upright": True}, out_dir / name)

    for _ in range(epochs):
        if budget and progress() >= 1:
            break
        model.train()
        batches = _Batches(x_train, y_train, rng.permutation(len(x_train)), batch, int(rng.integers(2**31)))
        loader = torch.utils.data.DataLoader(batches, batch_size=None, shuffle=False, num_workers=workers,
                                             persistent_workers=False, pin_memory=dev.type == "cuda")
        t0, seen, loss_sum = time.time(), 0, 0.0
        for xb, yb in loader:
            if budget and progress() >= 1:
                break
            for group in opt.param_groups:
                group["lr"] = swa_lr(progress(), lr) if swa else lr_at(progress(), lr)
            xb, yb = xb.to(dev, non_blocking=True), yb.to(dev, non_blocking=True)
            loss = F.cross_entropy(model(xb), yb, label_smoothing=0.05)
            opt.zero_grad()
            loss.backward()
            opt.step()
            step += 1
            seen += len(yb)
            loss_sum += loss.item() * len(yb)
        if not seen:  # the budget ran out before this epoch's first batch: it trained nothing
            break
        acc = evaluate(model, x_val, y_val)
        row = {"epoch": len(history) + 1, "crop": crop, "arch": arch, "loss": round(loss_sum / max(seen, 1), 4),
               "val_top1": round(acc, 4),
               "images_per_s": round(seen / (time.time() - t0), 1), "train_crops": len(x_train), "crops_seen": seen,
               "device": str(dev)}
        if averaged is not None and seen:
            averaged.update_parameters(model)
        history.append(row)
        log(json.dumps(row))
        save(model.to("cpu"), "classifier.pt")
        model.to(dev)
    model.to("cpu")
    if averaged is not None and history[epochs_before:]:
        save(model, "classifier-last.pt")
        model = average_of(averaged.to("cpu"), x_train, y_train, batch, int(rng.integers(2**31)))
        acc = evaluate(model, x_val, y_val)
        history[-1] = {**history[-1], "swa_epochs": int(averaged.n_averaged), "swa_val_top1": round(acc, 4)}
        log(json.dumps({"swa_epochs": int(averaged.n_averaged), "swa_val_top1": round(acc, 4)}))
        save(model, "classifier.pt")
    if export:
        export_onnx(model, out_dir / "classifier.onnx", crop, metadata={"upright": "true"})
    last = history[-1] if history else {}
    metrics = {"crop": crop, "arch": arch, "history": history,
               "val_top1": last.get("swa_val_top1", last.get("val_top1")),
               "val_crops": len(x_val), "epochs_run": len(history) - epochs_before}
    (out_dir / "classifier_metrics.json").write_text(json.dumps(metrics, indent=2))
    return metrics


def _training_crops(crops_dir: Path):
    """The training and validation crops and classes of ``crops_dir``, each crop turned upright
    by the way its index faces (validated so too: as the reader reads them)."""
    from vision.crops import turn_upright

    rng = np.random.default_rng(0)  # the ways of false alarms that record none (load_crops)
    x_train, y_train, up_train = load_crops(crops_dir, "train", way_up=True, unknown_up=rng)
    x_val, y_val, up_val = load_crops(crops_dir, "val", way_up=True, unknown_up=rng)
    return turn_upright(x_train, up_train), y_train, turn_upright(x_val, up_val), y_val


def swa_lr(progress: float, lr: float, warmup: float = 0.05) -> float:
    """Stochastic weight averaging's learning rate: a linear warm-up from lr/25 over the first
    ``warmup`` of the run, then ``lr`` held (the weights wander about a wide minimum, and their
    average lies nearer its middle)."""
    p = min(max(progress, 0.0), 1.0)
    return lr * (1 / 25 + (1 - 1 / 25) * p / warmup) if p < warmup else lr


def average_of(averaged, x: np.ndarray, y: np.ndarray, batch: int, seed: int, most: int = 200):
    """The network of an ``AveragedModel`` with its batch norms' running statistics taken again
    (averaged weights make features with other statistics than any one epoch's): over at most
    ``most`` augmented training batches, as training makes them."""
    import torch

    model = averaged.module
    order = np.random.default_rng(seed).permutation(len(x))[:most * batch]
    batches = _Batches(x, y, order, batch, seed)
    torch.optim.swa_utils.update_bn((torch.as_tensor(batches[i][0]) for i in range(len(batches))), model)
    return model


def evaluate(model, x: np.ndarray, y: np.ndarray, batch: int = 1024) -> float:
    import torch

    from vision.crops import normalise

    model.eval()
    dev = next(model.parameters()).device
    correct = 0
    with torch.no_grad():
        for s in range(0, len(x), batch):
            logits = model(torch.from_numpy(normalise(x[s:s + batch])).to(dev))
            correct += int((logits.argmax(1).cpu().numpy() == y[s:s + batch]).sum())
    return correct / max(len(x), 1)


def export_onnx(model, path: Path, crop: int | None = None, channels: int = CHANNELS,
                metadata: dict[str, str] | None = None) -> None:
    """The ONNX input side is ``crop`` (default ``vision.crops.CROP``): the reader cuts its crops
    at the side it finds there; ``channels``: 3 (BGR) or 1 (grey). ``metadata``: written into
    the file's metadata (``vision.networks.IndexClassifier.metadata``: how its crops are to be cut,
    e.g. the suit reader's "upright")."""
    import torch

    from vision.crops import CROP

    model.eval()
    side = crop or CROP
    dummy = torch.zeros(1, channels, side, side)
    torch.onnx.export(model, dummy, str(path), input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=17, dynamo=False)
    if metadata:
        import onnx

        proto = onnx.load(str(path))
        for key, value in metadata.items():
            entry = proto.metadata_props.add()
            entry.key, entry.value = key, str(value)
        onnx.save(proto, str(path))
