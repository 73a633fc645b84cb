"""``ginsight train``: train the index detector and/or the index classifier."""

from __future__ import annotations

import argparse
from pathlib import Path

from cli.extras import require_train_extra
from engine.errors import GinsightError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", metavar="DIR", help="a folder written by `ginsight dataset`")
    parser.add_argument("--what", choices=("both", "detector", "classifier"), default="both")
    parser.add_argument("--epochs", type=int, default=10, help="detector epochs (default 10)")
    parser.add_argument("--cls-epochs", type=int, default=6,
                        help="classifier epochs (default 6; the most, with --cls-minutes)")
    parser.add_argument("--cls-minutes", type=float, help="classifier time budget in minutes")
    parser.add_argument("--cls-lr", type=float, default=3e-3, help="classifier peak learning rate (default 3e-3)")
    parser.add_argument("--cls-seed", type=int, default=0,
                        help="the classifier's seed: its first weights (from scratch) and the order and turns of its "
                             "crops (default 0; another seed trains one apart, e.g. a group's second member)")
    parser.add_argument("--cls-swa", action="store_true",
                        help="stochastic weight averaging: the learning rate held at --cls-lr (after a short warm-up), "
                             "the weights of every epoch averaged (the last epoch's kept in classifier-last.pt)")
    parser.add_argument("--cls-grow", action="store_true",
                        help="add the classifier's residual blocks (models.classifier.GROWN) to the resumed "
                             "weights; they start as no change, so it first reads as before")
    parser.add_argument("--imgsz", type=int, default=512, help="detector training size (default 512)")
    parser.add_argument("--batch", type=int, default=16)
    parser.add_argument("--device", default="cpu", help="cpu (default), or a CUDA device such as 0")
    parser.add_argument("--threads", type=int, default=2, help="torch threads on the CPU (default 2)")
    parser.add_argument("--workers", type=int, default=0,
                        help="data-loading processes (default 0: none on a CPU; 8 for the detector on a GPU)")
    parser.add_argument("--resume", action="store_true",
                        help="go on from the weights in --weights instead of from scratch")
    parser.add_argument("--weights", metavar="DIR",
                        help="the weights folder to go on from (--resume), write into and export in (default: "
                             "the shipped models/weights; a copy of it makes a candidate to compare first)")
    parser.add_argument("--fraction", type=float, default=1.0, help="share of the training photos to use")
    parser.add_argument("--warmup-epochs", type=float, default=3.0,
                        help="detector learning-rate warm-up in epochs (default 3, Ultralytics'; 0.3 suits a short "
                             "run going on from trained weights)")
    parser.add_argument("--hours", type=float, help="detector time budget (Ultralytics fits the epochs to it)")
    parser.add_argument("--export", action="store_true",
                        help="only export the weights folder's .pt files (every network) to ONNX (no training)")
    parser.add_argument("--no-export", action="store_true",
                        help="leave the ONNX files alone (export later with --export)")
    parser.add_argument("--project", default="runs", help="where Ultralytics writes its run (default runs/)")


def run(args: argparse.Namespace) -> int:
    require_train_extra("train")
    from models.train import WEIGHTS, export_classifier, export_detector, train_classifier_run, train_detector

    weights = Path(args.weights) if args.weights else WEIGHTS
    if args.weights and not weights.is_dir():
        raise GinsightError(f"--weights: {weights} is not a folder")
    if args.export:
        missing = [name for name in ("detector.pt", "classifier.pt") if not (weights / name).exists()]
        if missing:
            raise GinsightError(f"--export: no {' or '.join(str(weights / m) for m in missing)} to export")
        print(export_detector(weights / "detector.pt", weights=weights))
        print(export_classifier(weights / "classifier.pt", weights=weights))
        from models.suit import export_weights

        for name in ("suit.pt",):  # the black suit reader, where shipped (models/suit.py)
            if (weights / name).exists():
                print(export_weights(weights / name))
        if (weights / "way_up.pt").exists():  # the way-up reader, where shipped (models/way_up.py)
            from models import way_up

            print(way_up.export_weights(weights / "way_up.pt"))
        return 0
    check_numbers(args)
    if not args.data:
        raise GinsightError("--data DIR is required (a folder written by `ginsight dataset`)")
    if args.resume:  # every network it goes on from, before any training (a run is minutes to hours)
        for what, name in (("classifier", "classifier.pt"), ("detector", "detector.pt")):
            if args.what in ("both", what) and not (weights / name).exists():
                raise GinsightError(f"--resume: no {weights / name} to go on from")
    data = Path(args.data)
    # the classifier learns from crops/ alone (a folder of linked crops, `python -m datasets.mix`,
    # has no photos); the detector from the photos data.yaml lists
    if args.what in ("both", "detector") and not (data / "data.yaml").exists():
        raise GinsightError(f"{data} has no data.yaml: write one with `ginsight dataset --out {data} ...`")
    if args.what in ("both", "classifier"):
        if not any((data / "crops").glob("train-*.npz")):
            raise GinsightError(f"{data}/crops has no training crops (was it written with --no-crops?)")
        train_classifier_run(data / "crops", epochs=args.cls_epochs, threads=args.threads, resume=args.resume,
                             device=args.device, workers=args.workers, minutes=args.cls_minutes,
                             lr=args.cls_lr, export=not args.no_export, grow=args.cls_grow, weights=weights,
                             seed=args.cls_seed, swa=args.cls_swa)
    if args.what in ("both", "detector"):
        resume_from = weights / "detector.pt" if args.resume else None
        train_detector(data / "data.yaml", epochs=args.epochs, imgsz=args.imgsz, batch=args.batch,
                       device=args.device, threads=args.threads, resume_from=resume_from,
                       project=Path(args.project), fraction=args.fraction, hours=args.hours,
                       workers=args.workers or None, export=not args.no_export, weights=weights,
                       warmup_epochs=args.warmup_epochs)
    return 0


def check_numbers(args: argparse.Namespace) -> None:
    """Each number of a training run in its range, named before any data is read: otherwise a
    bad one fails deep in Ultralytics or torch, maybe after minutes of loading or training."""
    rules = [
        (args.epochs >= 1, "--epochs must be 1 or more"),
        (args.cls_epochs >= 1, "--cls-epochs must be 1 or more"),
        (args.cls_minutes is None or args.cls_minutes > 0, "--cls-minutes must be more than 0"),
        (args.cls_lr > 0, "--cls-lr must be more than 0"),
        (args.batch >= 1 or args.batch == -1,
         "--batch must be 1 or more (or -1: Ultralytics' automatic batch on a GPU)"),
        (args.imgsz >= 32 and args.imgsz % 32 == 0, "--imgsz must be 32 pixels or more, a multiple of 32 "
                                                    "(the detector's largest stride)"),
        (0 < args.fraction <= 1, "--fraction must be a share in (0, 1]"),
        (args.hours is None or args.hours > 0, "--hours must be more than 0"),
        (args.threads >= 1, "--threads must be 1 or more"),
        (args.workers >= 0, "--workers must be 0 or more"),
        (args.warmup_epochs >= 0, "--warmup-epochs must be 0 or more"),
    ]
    for ok, message in rules:
        if not ok:
            raise GinsightError(message)
