"""The shipped networks, run with onnxruntime on the CPU: the index detector (YOLO, one
class); the index classifier (53 classes), whose class also serves the black suit reader
(``suit.onnx``); and the way-up reader (``way_up.onnx``)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from vision.crops import CROP, cos_sin_degrees, normalise, to_grey
from vision.types import WeightsError

# onnxruntime's worker threads do not spin waiting for work after each run: the reader runs the
# networks between Python steps (cropping, grouping) on a laptop's few cores, where a spinning
# thread takes the core the Python thread needs (about 0.9x the reading time without spinning).
ALLOW_SPINNING = False


def _session(path: Path, threads: int):
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.log_severity_level = 3
    opts.add_session_config_entry("session.intra_op.allow_spinning", "1" if ALLOW_SPINNING else "0")
    if not Path(path).is_file():
        raise FileNotFoundError(f"model file missing: {path}")
    try:
        return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])
    except MemoryError:
        raise
    except Exception as exc:  # onnxruntime's own errors (InvalidProtobuf, Fail, ...) share no base
        first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        raise WeightsError(f"{path}: not a network the reader can load ({first})") from None


def letterbox(img: np.ndarray, size: int, fit: int | None = None, stride: int | None = None
              ) -> tuple[np.ndarray, float, tuple[int, int]]:
    """Resize keeping the aspect so that the longer side is ``fit`` (default ``size``), then
    pad (grey 114, as YOLO trains) to ``size`` square, or with ``stride`` only up to the next
    multiple of ``stride`` on each side: a 16:9 frame at 640 is then 640x384, not 640x640.
    The image is centred. Returns the image, the scale and the padding (left, top)."""
    h, w = img.shape[:2]
    fit = size if fit is None else min(fit, size)
    k = fit / max(h, w)
    nh, nw = max(1, round(h * k)), max(1, round(w * k))
    resized = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    if stride:
        oh, ow = -(-nh // stride) * stride, -(-nw // stride) * stride
    else:
        oh = ow = size
    top, left = (oh - nh) // 2, (ow - nw) // 2
    out = np.full((oh, ow, 3), 114, np.uint8)
    out[top:top + nh, left:left + nw] = resized
    return out, k, (left, top)


def to_input(boxed: np.ndarray) -> np.ndarray:
    """A letterboxed BGR uint8 image -> the detector's input: RGB, 0-1 float32, NCHW (1, 3, H,
    W). The very numbers of ``boxed[:, :, ::-1].transpose(2, 0, 1)[None].astype(np.float32) /
    255``, with the channels laid out in uint8 first and the division in place: about 7x
    less time for a 640x640 photo than converting the strided view."""
    x = np.ascontiguousarray(boxed.transpose(2, 0, 1)[::-1]).astype(np.float32)
    x /= 255
    return x[None]


def fuse_boxes(boxes: np.ndarray, scores: np.ndarray, iou: float = 0.5) -> tuple[np.ndarray, np.ndarray]:
    """NMS that averages instead of dropping: the highest-scored box left and every box left
    that overlaps it at ``iou`` or more make one box, their mean weighted by score, with the
    highest score; then the next. The same boxes as NMS keeps, each moved to where all the
    candidates that found its index put it (anchors of one look, and the other scales), so
    that it is cut for the classifier more nearly as the training crops are."""
    boxes = np.asarray(boxes, np.float32).reshape(-1, 4)
    scores = np.asarray(scores, np.float32).reshape(-1)
    order = np.argsort(-scores, kind="stable")
    boxes, scores = boxes[order], scores[order]
    areas = (boxes[:, 2] - boxes[:, 0]).clip(0) * (boxes[:, 3] - boxes[:, 1]).clip(0)
    left = np.ones(len(boxes), bool)
    kept_boxes, kept_scores = [], []
    for i in range(len(boxes)):
        if not left[i]:
            continue
        lt = np.maximum(boxes[i, :2], boxes[:, :2])
        rb = np.minimum(boxes[i, 2:], boxes[:, 2:])
        inter = (rb - lt).clip(0).prod(1)
        overlap = inter / np.maximum(areas[i] + areas - inter, 1e-9)
        group = left & (overlap >= iou)
        group[i] = True
        w = scores[group]
        kept_boxes.append((boxes[group] * w[:, None]).sum(0) / w.sum())
        kept_scores.append(scores[i])
        left &= ~group
    return np.array(kept_boxes, np.float32).reshape(-1, 4), np.array(kept_scores, np.float32)


class IndexDetector:
    """YOLO exported to ONNX: image -> index boxes (x1, y1, x2, y2) and scores.

    ``scales``: the photo is looked at once per scale, then the boxes of one index made one
    (:func:`fuse_boxes`). At 0.5 the big indices of a close-up come out at the sizes most of
    the training indices have. A model exported with a dynamic input size is given a smaller
    input at a smaller scale; a fixed-size one, the shrunk photo padded.

    ``rect`` (a model with a dynamic input size): a photo that is not square is padded only up
    to the next multiple of 32 on each side, not to a square, as Ultralytics' own rectangular
    inference does: a 16:9 frame, or a square photo stretched back to 16:9, is read at 640x384
    instead of 640x640, for about 0.6 of the detector's time. A square photo reads the same.
    """

    STRIDE = 32  # the network's largest stride: a dynamic input's sides are multiples of it

    def __init__(self, path: Path, imgsz: int = 640, threads: int = 2, rect: bool = True) -> None:
        self.session = _session(path, threads)
        self.input = self.session.get_inputs()[0].name
        shape = self.session.get_inputs()[0].shape
        self.dynamic = not isinstance(shape[-1], int)
        self.imgsz = imgsz if self.dynamic else shape[-1]
        self.rect = rect and self.dynamic

    def tensor(self, img: np.ndarray, scale: float = 1.0) -> tuple[np.ndarray, float, tuple[int, int]]:
        """The network's input for ``img`` looked at ``scale`` of ``imgsz`` (letterboxed, RGB,
        0-1, NCHW), with the letterbox's scale and padding (left, top)."""
        fit = round(self.imgsz * scale)
        size = max(self.STRIDE, -(-fit // self.STRIDE) * self.STRIDE) if self.dynamic else self.imgsz
        boxed, k, pad = letterbox(img, size, fit, self.STRIDE if self.rect else None)
        return to_input(boxed), k, pad

    def _candidates(self, img: np.ndarray, conf: float, scale: float) -> tuple[np.ndarray, np.ndarray]:
        x, k, (left, top) = self.tensor(img, scale)
        out = self.session.run(None, {self.input: x})[0][0]  # (4 + classes, anchors)
        scores = out[4:].max(0)
        keep = scores >= conf
        cx, cy, w, h = out[:4, keep]
        boxes = np.stack([cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], 1)
        return (boxes - [left, top, left, top]) / k, scores[keep]

    def candidates(self, img: np.ndarray, conf: float, scales: tuple[float, ...] = (1.0,)
                   ) -> tuple[np.ndarray, np.ndarray]:
        """Every box scored at least ``conf`` at each scale, before they are made one, in the
        photo's coordinates (clipped to it)."""
        found = [self._candidates(img, conf, k) for k in scales]
        boxes = np.concatenate([b for b, _ in found]).reshape(-1, 4)
        scores = np.concatenate([s for _, s in found]).astype(np.float32)
        hh, ww = img.shape[:2]
        return boxes.clip(0, [ww, hh, ww, hh]).astype(np.float32), scores

    def __call__(self, img: np.ndarray, conf: float = 0.15, iou: float = 0.5,
                 scales: tuple[float, ...] = (1.0,)) -> tuple[np.ndarray, np.ndarray]:
        boxes, scores = self.candidates(img, conf, scales)
        if len(boxes) == 0:
            return np.zeros((0, 4), np.float32), np.zeros(0, np.float32)
        return fuse_boxes(boxes, scores, iou)


class IndexClassifier:
    """Square BGR crops (N, S, S, 3) -> probabilities over 52 cards + "no index" (or, for the
    suit reader's network, spade and club: ``vision.suits``). ``size`` is the S the network was
    trained on (its ONNX input side); crops are cut at that size.

    A model trained on grey crops (one input channel, before colour) is given grey ones.
    """

    upright = False  # read from the file's metadata in __init__: see there

    def __init__(self, path: Path, threads: int = 2) -> None:
        self.session = _session(path, threads)
        self.input = self.session.get_inputs()[0].name
        shape = self.session.get_inputs()[0].shape
        self.channels = shape[1]
        self.size = shape[-1] if isinstance(shape[-1], int) else CROP  # the crop side it was trained on
        out = self.session.get_outputs()[0].shape[-1]
        self.classes = out if isinstance(out, int) else 53
        # what the file says of how its crops are cut (models.classifier.export_onnx)
        self.metadata = dict(self.session.get_modelmeta().custom_metadata_map)
        # a network trained on crops turned upright first (as models/classifier.py and
        # models/suit.py train them): the reader turns its crops so
        self.upright = self.metadata.get("upright", "").lower() == "true"

    def __call__(self, crops: np.ndarray, turns: int = 1) -> np.ndarray:
        """``turns``: 1 reads each crop as it is; 2 or 4 (a network trained at any turn) also
        read it turned by half or quarter turns and average the probabilities."""
        if turns not in (1, 2, 4):
            raise ValueError(f"turns must be 1, 2 or 4, not {turns}")
        if self.upright and turns != 1:  # it learnt upright crops only: a crop turned is one it never saw
            raise ValueError("this network reads crops turned upright (by the way-up reader) once, not at "
                             f"{turns} turns: ask vision.classify.index_probs, which turns them so")
        if len(crops) == 0:
            return np.zeros((0, self.classes), np.float32)
        if self.channels == 1 and crops.ndim == 4:
            crops = to_grey(crops)
        if turns > 1:
            step = 4 // turns
            n = len(crops)
            turned = np.concatenate([np.rot90(crops, k * step, axes=(1, 2)) for k in range(turns)])
            return self._probs(turned).reshape(turns, n, -1).mean(0)
        return self._probs(crops)

    def _probs(self, crops: np.ndarray) -> np.ndarray:
        logits = self.session.run(None, {self.input: normalise(crops)})[0]
        e = np.exp(logits - logits.max(1, keepdims=True))
        return e / e.sum(1, keepdims=True)


class WayUpReader:
    """The way-up reader (``way_up.onnx``, ``models/way_up.py``): grey index crops (N, S, S)
    uint8 -> (N, 2) unit vectors, the way each index's top faces in image coordinates (x to
    the right, y down: an upright index (0, -1))."""

    def __init__(self, path: Path, threads: int = 2) -> None:
        self.session = _session(path, threads)
        self.input = self.session.get_inputs()[0].name
        side = self.session.get_inputs()[0].shape[-1]
        self.size = side if isinstance(side, int) else CROP

    def cos_sin(self, patches: np.ndarray) -> np.ndarray:
        """The network's (N, 2) output: (cos, sin) of the angle anticlockwise from the crop's up
        (:meth:`vectors` and :meth:`angles` turn it into what the reader uses)."""
        patches = np.asarray(patches)
        if len(patches) == 0:
            return np.zeros((0, 2), np.float32)
        if patches.ndim == 4:
            patches = to_grey(patches)
        if patches.shape[1] != self.size:
            patches = np.stack([cv2.resize(p, (self.size, self.size), interpolation=cv2.INTER_AREA) for p in patches])
        return self.session.run(None, {self.input: normalise(patches)})[0].reshape(-1, 2)

    @staticmethod
    def vectors(cos_sin: np.ndarray) -> np.ndarray:
        """:meth:`cos_sin`'s output -> the way each index's top faces in the image (unit (x, y))."""
        cos, sin = np.asarray(cos_sin, np.float32).reshape(-1, 2).T
        # the network's angle is anticlockwise from the crop's up: that way in the image
        v = np.stack([-sin, -cos], 1)
        return (v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-9)).astype(np.float32)

    @staticmethod
    def angles(cos_sin: np.ndarray) -> np.ndarray:
        """:meth:`cos_sin`'s output -> degrees anticlockwise from the crop's up, in [-180, 180]."""
        return cos_sin_degrees(cos_sin)

    def __call__(self, patches: np.ndarray) -> np.ndarray:
        """The way each index's top faces in the image, unit (x, y) vectors (N, 2)."""
        return self.vectors(self.cos_sin(patches))

    def degrees(self, patches: np.ndarray) -> np.ndarray:
        """The way each index's top faces, degrees anticlockwise from the crop's up, in
        [-180, 180] (as ``datasets.index_crops`` records it; ``vision.crops.turn_upright``
        turns a crop back by it)."""
        return self.angles(self.cos_sin(patches))
