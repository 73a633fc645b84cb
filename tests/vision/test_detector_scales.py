"""The detector's look at several scales: boxes found in a shrunk photo map back to the
photo's own pixels, and one NMS runs over all scales."""

import cv2
import numpy as np
import pytest

from vision.onnx import IndexDetector, fuse_boxes, letterbox, to_input, unturn_boxes


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
    det = IndexDetector.__new__(IndexDetector)
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


def test_boxes_found_in_a_turned_photo_are_turned_back():
    h, w = 30, 50
    img = np.zeros((h, w), np.uint8)
    img[5:9, 10:20] = 1  # an "index" at x 10-20, y 5-9
    for turn in range(4):
        turned = np.rot90(img, turn)
        ys, xs = np.nonzero(turned)
        found = [[xs.min(), ys.min(), xs.max() + 1, ys.max() + 1]]
        assert unturn_boxes(found, turn, w, h).tolist() == [[10, 5, 20, 9]]


class _OffCentreSession(_FakeSession):
    """Finds one index at a fixed spot of its input, left of and above the centre."""

    def run(self, _names, feed):
        self.seen.append(feed["images"].shape)
        out = np.zeros((1, 5, 1), np.float32)
        out[0, :, 0] = [100, 200, 20, 40, 0.9]
        return [out]


def test_each_turn_is_a_look_of_its_own_and_one_nms_runs_over_all():
    det = _detector([1, 3, 640, 640])
    det.session = _OffCentreSession(det.session.shape)
    img = np.zeros((640, 640, 3), np.uint8)
    boxes, scores = det(img, conf=0.15, scales=(1.0,), turns=(0, 1, 2, 3))
    assert len(det.session.seen) == 4
    # The same input spot, (90-110, 180-220), is four places of the photo once turned back.
    got = sorted(tuple(round(float(v)) for v in b) for b in boxes)
    assert got == sorted([(90, 180, 110, 220), (180, 530, 220, 550), (530, 420, 550, 460), (420, 90, 460, 110)])
    assert np.allclose(scores, 0.9)


def test_the_reader_setting_takes_only_distinct_quarter_turns():
    from vision.reader import Settings

    assert Settings(det_turns=(0, 1)).det_turns == (0, 1)
    for name in ("det_turns", "zoom_turns"):
        for bad in ((), (0, 4), (0, 0), (0.5,)):
            with pytest.raises(ValueError, match=name):
                Settings(**{name: bad})


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


def test_fused_boxes_of_several_detectors_score_their_mean():
    boxes = np.array([[10, 10, 30, 40], [12, 10, 32, 40], [11, 10, 31, 40], [100, 100, 120, 130]], np.float32)
    scores = np.array([0.6, 0.9, 0.5, 0.8], np.float32)
    members = np.array([0, 0, 1, 1])  # the first index found by both detectors, the second by one
    fused, kept = fuse_boxes(boxes, scores, iou=0.5, members=members, count=2)
    assert kept.tolist() == pytest.approx([(0.9 + 0.5) / 2, 0.8 / 2])  # each detector's best, averaged
    assert fused[0].tolist() == pytest.approx([(0.6 * 10 + 0.9 * 12 + 0.5 * 11) / 2.0, 10,
                                               (0.6 * 30 + 0.9 * 32 + 0.5 * 31) / 2.0, 40])
    # One detector: its scores as plain fusing keeps them.
    one = fuse_boxes(boxes, scores, iou=0.5, members=np.zeros(4, int), count=1)[1]
    assert one.tolist() == pytest.approx(fuse_boxes(boxes, scores, iou=0.5)[1].tolist())


def test_a_detector_group_fuses_its_members_boxes_and_can_ask_the_first_alone():
    from vision.onnx import DetectorGroup

    first, second = _detector([1, 3, "h", "w"]), _detector([1, 3, "h", "w"])
    second.session.run = lambda _names, feed: [np.array([[[0.0]] * 4 + [[0.5]]], np.float32)]  # one box at 0, 0
    group = DetectorGroup([first, second])
    img = np.zeros((640, 640, 3), np.uint8)
    boxes, scores = group(img, conf=0.15)
    got = sorted((tuple(round(float(v)) for v in b), round(float(s), 3)) for b, s in zip(boxes, scores, strict=True))
    assert got == [((0, 0, 0, 0), 0.25), ((310, 310, 330, 330), 0.45)]  # each found by one of two: half its score
    boxes, scores = group(img, conf=0.15, members=1)
    assert [tuple(round(float(v)) for v in b) for b in boxes] == [(310, 310, 330, 330)] and scores.tolist() == [
        pytest.approx(0.9)]
    assert group.dynamic and group.imgsz == 640  # the first member's
    with pytest.raises(ValueError, match="fus"):
        group(img, fuse=False)


def test_a_group_s_vote_found_averages_only_the_detectors_that_found_the_index_and_max_takes_the_best():
    boxes = np.array([[10, 10, 30, 40], [11, 10, 31, 40], [100, 100, 120, 130]], np.float32)
    scores = np.array([0.9, 0.5, 0.8], np.float32)
    members = np.array([0, 1, 1])
    assert fuse_boxes(boxes, scores, members=members, count=2, vote="found")[1].tolist() == pytest.approx([0.7, 0.8])
    assert fuse_boxes(boxes, scores, members=members, count=2, vote="max")[1].tolist() == pytest.approx([0.9, 0.8])
    with pytest.raises(ValueError, match="vote"):
        fuse_boxes(boxes, scores, members=members, count=2, vote="median")


def test_the_reader_settings_name_a_bad_vote_or_member_count():
    from vision.reader import Settings

    with pytest.raises(ValueError, match="det_vote"):
        Settings(det_vote="most")
    with pytest.raises(ValueError, match="det_members"):
        Settings(det_members=-1)


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
