"""The two shipped networks, run with onnxruntime on the CPU: the index detector (YOLO,
one class) and the index classifier (53 classes)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.crops import normalise, to_grey


def _session(path: Path, threads: int):
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


def letterbox(img: np.ndarray, size: int) -> tuple[np.ndarray, float, tuple[int, int]]:
    """Resize keeping the aspect, pad to ``size`` square (grey 114, as YOLO trains)."""
    h, w = img.shape[:2]
    k = size / max(h, w)
    nh, nw = round(h * k), round(w * k)
    resized = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    top, left = (size - nh) // 2, (size - nw) // 2
    out = np.full((size, size, 3), 114, np.uint8)
    out[top:top + nh, left:left + nw] = resized
    return out, k, (left, top)


class IndexDetector:
    """YOLO exported to ONNX: image -> index boxes (x1, y1, x2, y2) and scores."""

    def __init__(self, path: Path, imgsz: int = 640, threads: int = 2) -> None:
        self.session = _session(path, threads)
        self.input = self.session.get_inputs()[0].name
        shape = self.session.get_inputs()[0].shape
        self.imgsz = shape[-1] if isinstance(shape[-1], int) else imgsz

    def __call__(self, img: np.ndarray, conf: float = 0.15, iou: float = 0.5) -> tuple[np.ndarray, np.ndarray]:
        boxed, k, (left, top) = letterbox(img, self.imgsz)
        x = boxed[:, :, ::-1].transpose(2, 0, 1)[None].astype(np.float32) / 255
        out = self.session.run(None, {self.input: x})[0][0]  # (4 + classes, anchors)
        scores = out[4:].max(0)
        keep = scores >= conf
        if not keep.any():
            return np.zeros((0, 4), np.float32), np.zeros(0, np.float32)
        cx, cy, w, h = out[:4, keep]
        scores = scores[keep]
        boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1)
        boxes = (boxes - [left, top, left, top]) / k
        hh, ww = img.shape[:2]
        boxes = boxes.clip(0, [ww, hh, ww, hh]).astype(np.float32)
        xywh = np.column_stack([boxes[:, :2], boxes[:, 2:] - boxes[:, :2]])
        idx = cv2.dnn.NMSBoxes(xywh.tolist(), scores.tolist(), conf, iou)
        idx = np.array(idx).reshape(-1)
        return boxes[idx], scores[idx].astype(np.float32)


class IndexClassifier:
    """Square BGR crops (N, S, S, 3) -> probabilities over 52 cards + "no index".

    A model trained on grey crops (one input channel, before colour) is given grey ones.
    """

    def __init__(self, path: Path, threads: int = 2) -> None:
        self.session = _session(path, threads)
        self.input = self.session.get_inputs()[0].name
        self.channels = self.session.get_inputs()[0].shape[1]

    def __call__(self, crops: np.ndarray) -> np.ndarray:
        if len(crops) == 0:
            return np.zeros((0, 53), np.float32)
        if self.channels == 1 and crops.ndim == 4:
            crops = to_grey(crops)
        logits = self.session.run(None, {self.input: normalise(crops)})[0]
        e = np.exp(logits - logits.max(1, keepdims=True))
        return e / e.sum(1, keepdims=True)
