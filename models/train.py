"""Training the card reader: the index detector (Ultralytics YOLO from a model yaml, from
scratch, offline, CPU by default, resumable) and the index classifier
(:mod:`models.classifier`). Both are exported to ONNX into ``models/weights/``; the
history of every run is appended to ``models/weights/history.json`` for the model card.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

MODELS = Path(__file__).resolve().parent
WEIGHTS = MODELS / "weights"
MODEL_YAML = MODELS / "detector.yaml"


def offline_ultralytics(threads: int | None = None):
    """Import Ultralytics with every network feature off (no settings sync, no downloads)."""
    os.environ["YOLO_OFFLINE"] = "1"
    os.environ.setdefault("YOLO_VERBOSE", "False")
    import ultralytics
    import ultralytics.utils.torch_utils as torch_utils
    from ultralytics import settings

    off = {k: False for k in ("sync", "tensorboard", "wandb", "mlflow", "comet", "clearml", "dvc", "hub", "neptune",
                              "raytune", "platform") if k in settings}
    settings.update(off)
    if threads:
        # Ultralytics trains on (cores - 1) threads on a CPU; on 2 cores, 2 is twice as fast.
        torch_utils.NUM_THREADS = threads
    return ultralytics


def _folder(weights: Path | None) -> Path:
    """A weights folder to write into (default the shipped ``models/weights``), made if missing."""
    folder = Path(weights or WEIGHTS)
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _append_history(entry: dict, weights: Path | None = None) -> None:
    path = _folder(weights) / "history.json"
    history = json.loads(path.read_text()) if path.exists() else []
    history.append(entry)
    path.write_text(json.dumps(history, indent=2) + "\n")


def train_detector(data: Path, *, epochs: int, imgsz: int = 512, batch: int = 16, device: str = "cpu",
                   threads: int = 2, resume_from: Path | None = None, project: Path = Path("runs"),
                   name: str = "detector", fraction: float = 1.0, export_imgsz: int = 640,
                   hours: float | None = None, workers: int | None = None, export: bool = True,
                   weights: Path | None = None, warmup_epochs: float = 3.0, log=print) -> dict:
    """Train (or go on training from ``resume_from``, e.g. the shipped ``detector.pt``).

    The result is written into ``weights`` (default the shipped ``models/weights``; a copy of it
    makes a candidate folder to compare before shipping), its run appended to its history.json.

    ``hours``: a time budget; Ultralytics then fits the epochs (and the learning-rate
    schedule) to it, ``epochs`` being only the first guess. ``workers``: data-loading
    processes on a GPU (Ultralytics uses none on a CPU). ``warmup_epochs``: Ultralytics'
    learning-rate warm-up (its default 3); going on from trained weights for an epoch or two on
    a CPU, a shorter one (0.3) leaves most of the run at the working rate.
    """
    offline_ultralytics(threads)
    from ultralytics import YOLO

    start = time.time()
    model = YOLO(str(resume_from)) if resume_from else YOLO(str(MODEL_YAML))
    results = model.train(
        data=str(data), epochs=epochs, imgsz=imgsz, batch=batch, device=device,
        workers=0 if device == "cpu" else (workers or 8),
        single_cls=True, plots=False, project=str(Path(project).resolve()), name=name, exist_ok=True,
        # No AMP: Ultralytics' AMP check downloads yolo11n.pt; this model is tiny and the
        # GPU waits on the data loader anyway.
        amp=False, fliplr=0.0, flipud=0.0,  # a mirrored card shows glyphs no real card has
        mosaic=0.5, scale=0.4, degrees=0.0, close_mosaic=1 if hours else max(1, epochs // 4), fraction=fraction,
        warmup_epochs=warmup_epochs,
        patience=0, verbose=False, seed=0, deterministic=False, **({"time": hours} if hours else {}),
    )
    run_dir = Path(results.save_dir) if results is not None else Path(project) / name
    best = run_dir / "weights" / "best.pt"
    if not best.exists():
        best = run_dir / "weights" / "last.pt"
    metrics = {}
    if results is not None and hasattr(results, "results_dict"):
        metrics = {k: round(float(v), 4) for k, v in results.results_dict.items()}
    weights = _folder(weights)
    shutil.copy(best, weights / "detector.pt")
    if export:
        export_detector(weights / "detector.pt", export_imgsz, weights=weights)
    entry = {
        "model": "detector", "date": datetime.now(UTC).isoformat(timespec="seconds"), "data": str(data),
        "epochs": _epochs_run(run_dir) or epochs, "hours_budget": hours, "imgsz": imgsz, "batch": batch,
        "warmup_epochs": warmup_epochs, "device": device, "from": str(resume_from or MODEL_YAML),
        "minutes": round((time.time() - start) / 60, 1), "synthetic_val": metrics,
    }
    _append_history(entry, weights)
    log(json.dumps(entry))
    return entry


def export_detector(pt: Path, imgsz: int = 640, weights: Path | None = None) -> Path:
    """``detector.pt`` -> ``detector.onnx`` in ``weights`` (default ``models/weights``), with a
    dynamic input size so that the reader's half-scale look costs a quarter of the full one
    (``imgsz`` is the default)."""
    offline_ultralytics()
    from ultralytics import YOLO

    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "detector.pt"  # Ultralytics writes the ONNX beside its input
        shutil.copy(pt, copy)
        onnx = YOLO(str(copy)).export(format="onnx", imgsz=imgsz, simplify=False, dynamic=True, opset=17)
        weights = _folder(weights)
        shutil.move(onnx, weights / "detector.onnx")
    return weights / "detector.onnx"


def _epochs_run(run_dir: Path) -> int | None:
    results = run_dir / "results.csv"
    if not results.exists():
        return None
    return max(0, len(results.read_text().strip().splitlines()) - 1)


def train_classifier_run(crops: Path, *, epochs: int, threads: int = 2, resume: bool = False, device: str = "cpu",
                         workers: int = 0, minutes: float | None = None, lr: float = 3e-3, export: bool = True,
                         grow: bool = False, weights: Path | None = None, seed: int = 0, swa: bool = False,
                         log=print) -> dict:
    """Train the classifier (or go on from ``weights``' classifier.pt with ``resume``) into
    ``weights`` (default ``models/weights``); ``swa``: stochastic weight averaging."""
    from models.classifier import train_classifier

    start = time.time()
    weights = _folder(weights)
    previous = weights / "classifier.pt"
    metrics = train_classifier(crops, weights, epochs=epochs, threads=threads, device=device, workers=workers,
                               minutes=minutes, lr=lr, export=export, grow=grow, seed=seed, swa=swa,
                               resume=previous if resume and previous.exists() else None, log=log)
    from models.classifier import CHANNELS

    side = metrics["crop"]
    entry = {"model": "classifier", "date": datetime.now(UTC).isoformat(timespec="seconds"), "data": str(crops),
             "input": f"{side}x{side}x{CHANNELS}", "arch": metrics["arch"], "epochs": metrics["epochs_run"],
             "minutes_budget": minutes, "lr": lr, "seed": seed, "swa": swa, "device": device,
             "resumed": bool(resume and previous.exists()),
             "minutes": round((time.time() - start) / 60, 1), "synthetic_val_top1": metrics["val_top1"]}
    _append_history(entry, weights)
    return entry


def export_classifier(pt: Path, weights: Path | None = None) -> Path:
    """``classifier.pt`` -> ``classifier.onnx`` in ``weights`` (default ``models/weights``; e.g.
    after training elsewhere)."""
    import torch

    from models.classifier import export_onnx, load_model, trained_crop

    state = torch.load(pt, map_location="cpu")
    model = load_model(state)
    weights = _folder(weights)
    export_onnx(model, weights / "classifier.onnx", trained_crop(state.get("history") or []),
                metadata={"upright": "true"} if state.get("upright") else None)
    return weights / "classifier.onnx"
