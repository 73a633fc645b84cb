"""What a faster or a wider detector would cost or save in reading time, side by side in one run:
the shipped detector (``models/weights/detector.onnx``) against

- the same network quantised to 8 bits (onnxruntime's static quantisation of its convolutions,
  calibrated on ``--calib`` photos: QDQ with unsigned activations and signed weights, and
  QOperator with both unsigned), with how far each moves the detector's scores from the shipped
  one's on the timed photos (a score that crosses ``det_conf`` is a box found or lost);
- untrained detectors of ``models/detector.yaml``'s layout at other widths (``--widths``; the
  shipped layout's own width among them, exported the same way, is what their ratios are to),
  so that a session lent a GPU knows what a wider detector would add to each photo before
  training one.

Each photo is letterboxed as the reader does it (``Settings.det_scales``: the whole photo at 640
and at half that) and given to every network in turn, ``--repeats`` times; medians per photo
and their ratios are reported. Timing only: nothing here changes what the reader reads.

    python benchmarks/detector_cost.py --photos ../shared/real-dev/images --calib data/synth4/images/val \\
        [--n 40] [--widths 0.125,0.1875,0.25] [--json OUT]

Offline, on CPU (``models.train.offline_ultralytics``): nothing is fetched.
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.report import report  # noqa: E402
from vision.image import image_files, load_image  # noqa: E402
from vision.onnx import IndexDetector, _session  # noqa: E402
from vision.reader import Settings  # noqa: E402

SHIPPED = ROOT / "models" / "weights" / "detector.onnx"
SCALE_LINE = "p: [0.50, 0.125, 256]"  # models/detector.yaml's own scale, which --widths replaces


def inputs(detector: IndexDetector, img: np.ndarray, scales=None) -> list[np.ndarray]:
    """The detector's input tensors for one photo, one per look (``Settings.det_scales``), made
    as the reader makes them (``IndexDetector.tensor``)."""
    return [detector.tensor(img, k)[0] for k in scales or Settings().det_scales]


def quantised(src: Path, calib: list[Path], folder: Path) -> dict[str, Path]:
    """The shipped detector quantised two ways, calibrated on ``calib`` photos."""
    from onnxruntime.quantization import CalibrationDataReader, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    det = IndexDetector(src, threads=1)

    class Photos(CalibrationDataReader):
        def __init__(self) -> None:
            self.it = iter([{det.input: inputs(det, load_image(p), scales=(1.0,))[0]} for p in calib])

        def get_next(self):
            return next(self.it, None)

    pre = folder / "pre.onnx"
    quant_pre_process(str(src), str(pre), skip_symbolic_shape=True)  # its dynamic sides defeat symbolic shapes
    out = {}
    for label, fmt, act, wt in [("int8 QDQ u8s8", QuantFormat.QDQ, QuantType.QUInt8, QuantType.QInt8),
                                ("int8 QOperator u8u8", QuantFormat.QOperator, QuantType.QUInt8, QuantType.QUInt8)]:
        path = folder / f"{label.replace(' ', '-')}.onnx"
        quantize_static(str(pre), str(path), Photos(), quant_format=fmt, activation_type=act, weight_type=wt,
                        op_types_to_quantize=["Conv"], per_channel=True)
        out[label] = path
    return out


def widened(widths: list[float], folder: Path, threads: int = 2) -> dict[str, tuple[Path, int]]:
    """Untrained detectors of the shipped layout at each width, exported as ``ginsight train``
    exports (dynamic sides, opset 17): {label: (onnx, parameters)}."""
    from models.train import MODEL_YAML, offline_ultralytics

    offline_ultralytics(threads)
    from ultralytics import YOLO

    text = MODEL_YAML.read_text()
    if SCALE_LINE not in text:
        raise SystemExit(f"{MODEL_YAML} no longer holds {SCALE_LINE!r}: update SCALE_LINE")
    out = {}
    for w in widths:
        yaml = folder / f"detector-w{w}.yaml"
        yaml.write_text(text.replace(SCALE_LINE, f"p: [0.50, {w}, 256]"))
        model = YOLO(str(yaml))
        params = sum(p.numel() for p in model.model.parameters())
        with contextlib.chdir(folder):  # a network built from a yaml is exported into the working folder
            onnx = model.export(format="onnx", imgsz=640, simplify=False, dynamic=True, opset=17, verbose=False)
        out[f"untrained width {w}"] = (folder / onnx, params)
    return out


def timed(nets: dict[str, Path], photos: list[Path], repeats: int, threads: int = 2) -> tuple[dict, dict]:
    """Each network on each photo's looks in turn: ms per photo (all looks), and the outputs of
    the first repeat."""
    looks = IndexDetector(SHIPPED, threads=threads)  # the reader's inputs, for every network alike
    sessions = {k: _session(p, threads) for k, p in nets.items()}
    names = {k: s.get_inputs()[0].name for k, s in sessions.items()}
    ms = {k: [] for k in nets}
    outs = {k: [] for k in nets}
    for r in range(repeats):
        for p in photos:
            xs = inputs(looks, load_image(p))
            for k, s in sessions.items():
                t = time.perf_counter()
                ys = [s.run(None, {names[k]: x})[0][0] for x in xs]
                ms[k].append(1000 * (time.perf_counter() - t))
                if r == 0:
                    outs[k].append(ys)
    return ms, outs


def score_change(a: list, b: list, conf: float) -> dict:
    """How far network b's index scores lie from a's on the same looks: the largest difference,
    and how many anchors lie on the other side of ``conf`` (boxes found or lost)."""
    worst, crossed, anchors = 0.0, 0, 0
    for ya, yb in zip(a, b, strict=True):
        for oa, ob in zip(ya, yb, strict=True):
            sa, sb = oa[4:].max(0), ob[4:].max(0)
            worst = max(worst, float(np.abs(sa - sb).max()))
            crossed += int(((sa >= conf) != (sb >= conf)).sum())
            anchors += int(((sa >= conf) | (sb >= conf)).sum())
    return {"largest_score_difference": round(worst, 4), "anchors_over_det_conf_in_either": anchors,
            "anchors_crossing_det_conf": crossed}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", required=True, help="a folder of photos to time on")
    ap.add_argument("--calib", help="a folder of synthetic photos to calibrate the quantisation on "
                                    "(without it, no quantised detector is measured)")
    ap.add_argument("--n", type=int, default=40, help="photos timed (the first n by name)")
    ap.add_argument("--calib-n", type=int, default=48)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--widths", default="0.125,0.1875,0.25",
                    help="comma-separated widths of the untrained layouts ('' for none); 0.125 is the shipped one's")
    ap.add_argument("--json", default=None, help="also write the figures to this file")
    args = ap.parse_args(argv)
    photos = image_files(Path(args.photos))[: args.n] if Path(args.photos).is_dir() else []
    calib = image_files(Path(args.calib))[: args.calib_n] if args.calib and Path(args.calib).is_dir() else []
    if not photos or (args.calib and not calib):
        print(f"no photos in {args.photos if not photos else args.calib}", file=sys.stderr)
        return 2
    widths = [float(w) for w in args.widths.split(",") if w.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        nets = {"shipped": SHIPPED}
        quant = quantised(SHIPPED, calib, Path(tmp)) if calib else {}
        nets.update(quant)
        wide = widened(widths, Path(tmp))
        nets.update({k: p for k, (p, _) in wide.items()})
        ms, outs = timed(nets, photos, args.repeats)
    med = {k: statistics.median(v) for k, v in ms.items()}
    base_wide = f"untrained width {0.125}"
    out = {
        "photos": len(photos), "repeats": args.repeats, "looks": list(Settings().det_scales),
        "median_ms_per_photo": {k: round(v, 2) for k, v in med.items()},
        "ratio_to_shipped": {k: round(v / med["shipped"], 4) for k, v in med.items()},
        "quantised_scores_against_shipped": {k: score_change(outs["shipped"], outs[k], Settings().det_conf)
                                             for k in quant},
        "parameters": {k: n for k, (_, n) in wide.items()},
    }
    if base_wide in med:
        out["ratio_to_the_shipped_layout_untrained"] = {k: round(med[k] / med[base_wide], 4) for k in wide}
    report(out, args.json, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
