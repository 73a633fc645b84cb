"""Reading each index crop at several turns and averaging."""

import numpy as np
import pytest

from vision.onnx import IndexClassifier


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


def _classifier():
    clf = IndexClassifier.__new__(IndexClassifier)
    clf.session, clf.input, clf.channels = _Session(), "crops", 3
    return clf


def _crop():
    crop = np.zeros((32, 32, 3), np.uint8)
    crop[:16, :16] = 255  # bright top-left: class 0 upright, class 1 at every other turn
    return crop


def test_one_turn_reads_the_crop_as_it_is():
    p = _classifier()(np.stack([_crop()]))
    assert p.shape == (1, 53) and p[0].argmax() == 0 and p[0, 0] > 0.99


def test_four_turns_average_the_four_readings():
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


class _Fixed:
    """A stand-in classifier that gives every crop the same probabilities."""

    def __init__(self, probs, size=32, channels=3, upright=False):
        self.probs, self.size, self.channels, self.classes = np.asarray(probs, np.float32), size, channels, len(probs)
        self.upright, self.turns = upright, []

    def __call__(self, crops, turns=1):
        self.turns.append(turns)
        return np.tile(self.probs, (len(crops), 1))


def test_a_classifier_group_averages_its_members_probabilities():
    from vision.onnx import ClassifierGroup

    first, second = _Fixed([0.8, 0.2, 0.0]), _Fixed([0.2, 0.4, 0.4])
    group = ClassifierGroup([first, second])
    crops = np.zeros((2, 32, 32, 3), np.uint8)
    assert group(crops, turns=4).tolist() == [pytest.approx([0.5, 0.3, 0.2])] * 2
    assert first.turns == [4] and second.turns == [4]  # each reads at the turns asked
    assert group(crops, members=1).tolist() == [pytest.approx([0.8, 0.2, 0.0])] * 2  # the first alone
    assert group.size == 32 and group.classes == 3


def test_a_classifier_group_weighs_its_first_member_by_its_share():
    from vision.onnx import ClassifierGroup
    from vision.reader import Settings

    group = ClassifierGroup([_Fixed([0.8, 0.2, 0.0]), _Fixed([0.2, 0.4, 0.4]), _Fixed([0.0, 0.4, 0.6])])
    crops = np.zeros((1, 32, 32, 3), np.uint8)
    assert group(crops, first=1.0).tolist() == [pytest.approx([0.8, 0.2, 0.0])]
    assert [len(m.turns) for m in group.members] == [1, 0, 0]  # at share 1 the others are not asked
    # the first 0.75, the other two the rest evenly: 0.75 * first + 0.25 * (their mean [0.1, 0.4, 0.5])
    assert group(crops, first=0.75).tolist() == [pytest.approx([0.625, 0.25, 0.125])]
    assert group(crops, first=1.0).tolist() == [pytest.approx([0.8, 0.2, 0.0])]  # the first alone
    assert group(crops, first=0.0).tolist() == [pytest.approx([1 / 3, 1 / 3, 1 / 3])]  # an even mean
    assert group(crops, members=2, first=0.5).tolist() == [pytest.approx([0.5, 0.3, 0.2])]
    with pytest.raises(ValueError, match="from 0 to 1"):
        group(crops, first=1.5)
    with pytest.raises(ValueError, match="cls_first must be from 0"):
        Settings(cls_first=-0.1)


class _PerCrop(_Fixed):
    """A stand-in classifier whose probabilities follow each crop's first pixel: 0 sure of class
    0, anything else unsure between the first two classes; it records how many crops it read."""

    def __init__(self, sure, unsure):
        super().__init__(sure)
        self.sure, self.unsure, self.read = np.float32(sure), np.float32(unsure), []

    def __call__(self, crops, turns=1):
        self.read.append(len(crops))
        if len(crops) == 0:  # as IndexClassifier answers none
            return np.zeros((0, self.classes), np.float32)
        return np.stack([self.sure if c[0, 0, 0] == 0 else self.unsure for c in crops])


def test_a_classifier_group_asks_its_others_only_where_its_first_is_unsure():
    from vision.onnx import ClassifierGroup
    from vision.reader import Settings

    first = _PerCrop([0.95, 0.05, 0.0], [0.5, 0.4, 0.1])
    second = _PerCrop([0.7, 0.3, 0.0], [0.1, 0.8, 0.1])
    group = ClassifierGroup([first, second])
    crops = np.zeros((3, 32, 32, 3), np.uint8)
    crops[1] = 9  # the middle crop: the first member is unsure of it (top 0.5)
    got = group(crops, unsure=0.9)
    assert first.read == [3] and second.read == [1]  # the second reads the unsure crop alone
    assert got.tolist() == [pytest.approx([0.95, 0.05, 0.0]), pytest.approx([0.3, 0.6, 0.1]),
                            pytest.approx([0.95, 0.05, 0.0])]
    # a share for the first holds for the crops asked; a bound above every top asks all of them
    assert group(crops, unsure=0.9, first=0.75)[1].tolist() == pytest.approx([0.4, 0.5, 0.1])
    assert np.allclose(group(crops, unsure=1.0), group(crops))
    assert second.read[-2:] == [3, 3]
    # sure of every crop: the others are not asked at all
    second.read.clear()
    group(np.zeros((2, 32, 32, 3), np.uint8), unsure=0.9)
    assert second.read == []
    assert group(np.zeros((0, 32, 32, 3), np.uint8), unsure=0.9).shape == (0, 3) and second.read == []  # none asked
    # the reader asks its group so by its setting
    from vision.reader import Reader

    reader = object.__new__(Reader)
    reader.settings, reader.classifiers, reader.classifier = Settings(cls_unsure=0.9), 2, group
    second.read.clear()
    assert reader._classify_as_is(crops, 1)[1].tolist() == pytest.approx([0.3, 0.6, 0.1])
    assert second.read == [1]
    with pytest.raises(ValueError, match="from 0 to 1"):
        group(crops, unsure=1.2)
    with pytest.raises(ValueError, match="cls_unsure must be from 0"):
        Settings(cls_unsure=-0.5)


def test_first_member_is_a_groups_first_or_the_network_itself():
    from vision.onnx import ClassifierGroup, first_member

    one, two = _Fixed([0.5, 0.5]), _Fixed([0.2, 0.8])
    assert first_member(ClassifierGroup([one, two])) is one
    assert first_member(two) is two


def test_a_classifier_group_refuses_members_that_read_other_crops():
    from vision.onnx import ClassifierGroup

    with pytest.raises(ValueError, match="same crops"):
        ClassifierGroup([_Fixed([0.5, 0.5]), _Fixed([0.5, 0.5], size=48)])
    with pytest.raises(ValueError, match="upright"):  # one reads crops turned upright, the other at any turn
        ClassifierGroup([_Fixed([0.5, 0.5]), _Fixed([0.5, 0.5], upright=True)])
    with pytest.raises(ValueError, match="at least one"):
        ClassifierGroup([])
