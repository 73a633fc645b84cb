"""Detectors' own validation figures (Ultralytics' val, one class) on one data set's validation
photos, side by side: whether a training run beat, on its own measure, the detector it went on
from. Not the reader's figures (those: ``settings_sweep.py`` / ``compare_weights.py``).

    python benchmarks/detector_val.py --weights models/weights/detector.pt \\
        --weights runs/det52/detector.pt --data data/det52/data.yaml [--imgsz 640] [--json OUT]

Offline, on CPU (``models.train.offline_ultralytics``): nothing is fetched.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.report import report


def validate(weights: list[str], data: str, imgsz: int = 640, batch: int = 16, threads: int = 2) -> dict:
    """Each detector (.pt) validated on ``data`` (a data.yaml), one class: its precision,
    recall, mAP50 and mAP50-95, rounded to 4 places, by the path given."""
    from models.train import offline_ultralytics

    offline_ultralytics(threads)
    from ultralytics import YOLO

    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        for w in weights:
            m = YOLO(w).val(data=data, imgsz=imgsz, batch=batch, single_cls=True, device="cpu", plots=False,
                            verbose=False, project=tmp, name="val", exist_ok=True, workers=0)
            out[w] = {k: round(float(v), 4) for k, v in m.results_dict.items()}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--weights", action="append", required=True, help="a detector .pt (repeatable)")
    ap.add_argument("--data", required=True, help="a data.yaml written by `ginsight dataset`")
    ap.add_argument("--imgsz", type=int, default=640)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    args = ap.parse_args(argv)
    missing = [w for w in [*args.weights, args.data] if not Path(w).is_file()]
    if missing:
        print(f"no such file: {', '.join(missing)}", file=sys.stderr)
        return 2
    out = validate(args.weights, args.data, args.imgsz, args.batch)
    report(out, args.json, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
