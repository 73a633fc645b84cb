"""The networks' own code (vision.networks), run on stand-in onnxruntime sessions: the detector's
looks at several scales (boxes found in a shrunk photo map back to the photo's own pixels, and
the boxes of one index are made one), its input, the classifier's turns, the way-up reader's
answer."""

import cv2
import numpy as np
import pytest

from vision.networks import IndexClassifier, IndexDetector, WayUpReader, fuse_boxes, letterbox, to_input


class _FakeInput:
    def __init__(self, shape):
        self.name, self.shape = "images", shape


class _FakeSession:
    """Always finds one index at the centre of its input, 20x20 input pixels, score 0.9."""

    def __init__(self, shape):
        self.shape = shape
        self.seen = []

    def get_inputs(self):
        return [_FakeInput(self.shape)]

    def run(self, _names, feed):
        x = feed["images"]
        self.seen.append(x.shape)
        h, w = x.shape[-2:]
        out = np.zeros((1, 5, 1), np.float32)
        out[0, :, 0] = [w / 2, h / 2, 20, 20, 0.9]
        return [out]


def _detector(shape, rect: bool = False) -> IndexDetector:
    det = IndexDetector.__new__(IndexDetector)  # an IndexDetector without an ONNX file
    det.session = _FakeSession(shape)
    det.input = "images"
    det.dynamic = not isinstance(shape[-1], int)
    det.imgsz = 640 if det.dynamic else shape[-1]
    det.rect = rect and det.dynamic
    return det


def test_letterbox_fits_the_longer_side_and_centres():
    img = np.zeros((400, 640, 3), np.uint8)
    out, k, (left, top) = letterbox(img, 640, 320)
    assert out.shape == (640, 640, 3) and k == 0.5
    assert (left, top) == (160, 220)
    assert (out[:220] == 114).all() and (out[220:420, 160:480] == 0).all()


def test_boxes_of_the_halved_photo_map_back_to_the_photo_fixed_size_model():
    det = _detector([1, 3, 640, 640])
    img = np.zeros((640, 640, 3), np.uint8)
    boxes, scores = det(img, conf=0.15, scales=(1.0, 0.5))
    assert det.session.seen == [(1, 3, 640, 640), (1, 3, 640, 640)]  # a fixed size: padded
    got = sorted(tuple(round(float(v), 3) for v in b) for b in boxes)
    # Full scale: 20 px at the centre. Halved: 20 input px are 40 photo px, same centre.
    assert got == [(300, 300, 340, 340), (310, 310, 330, 330)]
    assert np.allclose(scores, 0.9)


def test_a_dynamic_model_is_given_a_smaller_input_at_a_smaller_scale():
    det = _detector([1, 3, "height", "width"])
    img = np.zeros((480, 640, 3), np.uint8)
    boxes, _ = det(img, conf=0.15, scales=(0.5,))
    assert det.session.seen == [(1, 3, 320, 320)]
    # The 640x480 photo is 320x240 inside 320x320 (top pad 40): the centre maps to (320, 240).
    (x1, y1, x2, y2), = boxes
    assert (x1 + x2) / 2 == 320 and (y1 + y2) / 2 == 240 and x2 - x1 == 40


def test_letterbox_to_a_stride_pads_only_to_its_multiples():
    img = np.zeros((720, 1280, 3), np.uint8)  # a 16:9 webcam frame
    out, k, (left, top) = letterbox(img, 640, 640, stride=32)
    assert out.shape == (384, 640, 3) and k == 0.5  # 360 rows, padded to 384
    assert (left, top) == (0, 12)
    assert (out[:12] == 114).all() and (out[12:372] == 0).all() and (out[372:] == 114).all()
    square, _, pad = letterbox(np.zeros((500, 500, 3), np.uint8), 640, 640, stride=32)
    assert square.shape == (640, 640, 3) and pad == (0, 0)  # a square photo: as before


def test_a_dynamic_model_reads_a_wide_frame_at_a_rectangle_and_maps_boxes_back():
    det = _detector([1, 3, "height", "width"], rect=True)
    img = np.zeros((720, 1280, 3), np.uint8)
    boxes, _ = det(img, conf=0.15, scales=(1.0, 0.5))
    assert det.session.seen == [(1, 3, 384, 640), (1, 3, 192, 320)]
    got = sorted(tuple(round(float(v), 3) for v in b) for b in boxes)
    # Both looks find their input's centre, which is the frame's centre (640, 360); 20 input
    # pixels are 40 frame pixels at full scale (k = 0.5) and 80 at half scale (k = 0.25).
    assert got == [(600, 320, 680, 400), (620, 340, 660, 380)]
    square = _detector([1, 3, "height", "width"])  # off: padded to a square
    square(img, conf=0.15, scales=(1.0,))
    assert square.session.seen == [(1, 3, 640, 640)]


def test_a_fixed_size_model_is_never_given_a_rectangle():
    det = _detector([1, 3, 640, 640], rect=True)
    det(np.zeros((720, 1280, 3), np.uint8), conf=0.15, scales=(1.0,))
    assert det.session.seen == [(1, 3, 640, 640)]


def test_one_nms_over_all_scales():
    det = _detector([1, 3, 640, 640])
    img = np.zeros((640, 640, 3), np.uint8)
    boxes, _ = det(img, conf=0.15, scales=(1.0, 0.98))  # nearly the same box twice: one kept
    assert len(boxes) == 1


def test_nothing_above_the_threshold_gives_no_boxes():
    det = _detector([1, 3, 640, 640])
    boxes, scores = det(np.zeros((64, 64, 3), np.uint8), conf=0.95, scales=(1.0, 0.5))
    assert boxes.shape == (0, 4) and scores.shape == (0,)


def test_fused_boxes_are_the_score_weighted_mean_of_the_boxes_nms_would_drop():
    boxes = np.array([[10, 10, 30, 40], [12, 10, 32, 40], [100, 100, 120, 130]], np.float32)
    scores = np.array([0.6, 0.9, 0.3], np.float32)  # the second is the best of the first index
    fused, kept = fuse_boxes(boxes, scores, iou=0.5)
    assert kept.tolist() == pytest.approx([0.9, 0.3])
    assert fused[0].tolist() == pytest.approx([(0.6 * 10 + 0.9 * 12) / 1.5, 10, (0.6 * 30 + 0.9 * 32) / 1.5, 40])
    assert fused[1].tolist() == pytest.approx([100, 100, 120, 130])  # alone: as it was


def test_fusing_keeps_as_many_boxes_as_nms_with_the_same_scores():
    rng = np.random.default_rng(7)
    xy = rng.uniform(0, 200, (300, 2))
    wh = rng.uniform(10, 40, (300, 2))
    boxes = np.column_stack([xy, xy + wh]).astype(np.float32)
    scores = rng.uniform(0.2, 1.0, 300).astype(np.float32)
    xywh = np.column_stack([boxes[:, :2], wh]).tolist()
    nms = np.array(cv2.dnn.NMSBoxes(xywh, scores.tolist(), 0.15, 0.5)).reshape(-1)
    _, kept = fuse_boxes(boxes, scores, iou=0.5)
    assert sorted(kept.tolist()) == pytest.approx(sorted(scores[nms].tolist()))
    assert fuse_boxes(np.zeros((0, 4)), np.zeros(0))[0].shape == (0, 4)


@pytest.mark.parametrize("shape", [(640, 640, 3), (384, 640, 3), (33, 7, 3)])
def test_the_detector_input_is_rgb_nchw_in_0_1_to_the_last_bit(shape):
    rng = np.random.default_rng(len(shape) + shape[0])
    boxed = rng.integers(0, 256, shape, dtype=np.uint8)
    boxed[0, 0] = (10, 20, 30)  # B, G, R
    x = to_input(boxed)
    want = boxed[:, :, ::-1].transpose(2, 0, 1)[None].astype(np.float32) / 255  # the plain way
    assert x.shape == (1, 3, shape[0], shape[1]) and x.dtype == np.float32 and x.flags.c_contiguous
    assert np.array_equal(x, want)
    assert np.array_equal(x[0, :, 0, 0], np.float32([30, 20, 10]) / 255)  # R first


def test_the_detectors_input_is_the_photo_letterboxed_rgb_and_scaled_to_one():
    from vision.reader import DEFAULT_WEIGHTS

    det = IndexDetector(DEFAULT_WEIGHTS / "detector.onnx", rect=False)
    assert det.dynamic and not det.rect and IndexDetector(DEFAULT_WEIGHTS / "detector.onnx").rect  # rect by default
    img = np.random.default_rng(0).integers(0, 255, (300, 400, 3), dtype=np.uint8)
    x, k, pad = det.tensor(img, 0.5)  # a dynamic network: 320 fits, a multiple of 32
    boxed, k0, pad0 = letterbox(img, 320, 320)
    assert x.shape == (1, 3, 320, 320) and x.dtype == np.float32 and (k, pad) == (k0, pad0)
    assert np.array_equal(x[0], boxed[:, :, ::-1].transpose(2, 0, 1) / np.float32(255))


def test_the_detector_gives_boxes_clipped_to_the_photo():
    class Edge(_FakeSession):  # one box reaching past the input's top-left corner
        def run(self, _names, feed):
            out = np.zeros((1, 5, 1), np.float32)
            out[0, :, 0] = [0, 0, 40, 40, 0.9]
            return [out]

    det = _detector([1, 3, 640, 640])
    det.session = Edge(det.session.shape)
    boxes, _ = det.candidates(np.zeros((640, 640, 3), np.uint8), 0.15)
    assert boxes.tolist() == [[0, 0, 20, 20]]


# --- the index classifier ----------------------------------------------------------------------


class _Input:
    name, shape = "crops", [None, 3, 32, 32]


class _Session:
    """Class 0 when the crop's top-left quarter is the bright part, else class 1."""

    def __init__(self):
        self.batches = []

    def get_inputs(self):
        return [_Input()]

    def run(self, _names, feed):
        x = feed["crops"]
        self.batches.append(len(x))
        top_left = x[:, :, :16, :16].mean((1, 2, 3)) > 0
        logits = np.where(top_left[:, None], [[20.0, 0.0]], [[0.0, 20.0]])
        return [np.pad(logits, ((0, 0), (0, 51)), constant_values=-20.0)]


def _classifier(upright=False):
    clf = IndexClassifier.__new__(IndexClassifier)  # an IndexClassifier without an ONNX file
    clf.session, clf.input, clf.channels, clf.classes, clf.upright = _Session(), "crops", 3, 53, upright
    return clf


def _crop():
    crop = np.zeros((32, 32, 3), np.uint8)
    crop[:16, :16] = 255  # bright top-left: class 0 upright, class 1 at every other turn
    return crop


def test_one_turn_reads_the_crop_as_it_is():
    p = _classifier()(np.stack([_crop()]))
    assert p.shape == (1, 53) and p[0].argmax() == 0 and p[0, 0] > 0.99
    assert p.sum() == pytest.approx(1.0)


def test_four_turns_average_the_four_readings_in_one_run():
    clf = _classifier()
    p = clf(np.stack([_crop(), _crop()]), turns=4)
    assert clf.session.batches == [8]  # one run for all turns of all crops
    assert p.shape == (2, 53)
    assert np.allclose(p[:, 0], 0.25, atol=1e-3) and np.allclose(p[:, 1], 0.75, atol=1e-3)


def test_two_turns_are_half_turns():
    p = _classifier()(np.stack([_crop()]), turns=2)
    assert np.allclose(p[0, :2], [0.5, 0.5], atol=1e-3)


def test_other_turns_are_refused():
    with pytest.raises(ValueError, match="turns must be 1, 2 or 4"):
        _classifier()(np.stack([_crop()]), turns=3)


def test_no_crops_read_as_no_rows():
    clf = _classifier()
    assert clf(np.zeros((0, 32, 32, 3), np.uint8)).shape == (0, 53) and clf.session.batches == []


def test_a_classifier_of_upright_crops_refuses_to_read_them_at_several_turns():
    # it learnt upright crops only: read at four turns, three of every four reads are of crops
    # turned a way it never saw
    clf = _classifier(upright=True)
    assert clf(np.stack([_crop()])).shape == (1, 53)
    for turns in (2, 4):
        with pytest.raises(ValueError, match=r"turned upright.*index_probs"):
            clf(np.stack([_crop()]), turns=turns)


def test_the_shipped_classifier_reads_upright_crops():
    from vision.reader import DEFAULT_WEIGHTS

    net = IndexClassifier(DEFAULT_WEIGHTS / "classifier.onnx", threads=1)
    assert net.upright and (net.size, net.classes, net.channels) == (32, 53, 3)
    p = net(np.full((2, 32, 32, 3), 200, np.uint8))
    assert p.shape == (2, 53) and np.allclose(p.sum(1), 1, atol=1e-5)


# --- the way-up reader's answer ------------------------------------------------------------------


def test_the_way_up_readers_angle_is_anticlockwise_from_the_crops_up():
    cos_sin = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.0], [0.0, -1.0]], np.float32)
    assert WayUpReader.angles(cos_sin).tolist() == pytest.approx([0, 90, 180, -90])
    # upright faces up the photo (y grows downwards); a quarter turn anticlockwise faces left
    assert np.allclose(WayUpReader.vectors(cos_sin), [[0, -1], [-1, 0], [0, 1], [1, 0]], atol=1e-6)
    assert np.linalg.norm(WayUpReader.vectors([[3.0, 4.0]]), axis=1) == pytest.approx(1.0)  # made unit
