import numpy as np
import pytest

from vision.evaluate import average_precision, load_truth, name_to_code


@pytest.mark.parametrize(("name", "code"), [("10C", "TC"), ("AS", "AS"), ("qh", "QH"), ("BACK", None),
                                           ("BLACK JOKER", None), ("9D", "9D")])
def test_name_to_code(name, code):
    assert name_to_code(name) == code


def test_average_precision():
    truths = {0: [(0, 0, 10, 10)], 1: [(0, 0, 10, 10), (20, 20, 30, 30)]}
    perfect = [(0.9, 0, (0, 0, 10, 10)), (0.8, 1, (0, 0, 10, 10)), (0.7, 1, (20, 20, 30, 30))]
    assert average_precision(perfect, truths) == pytest.approx(1.0)
    with_fp = [(0.95, 0, (50, 50, 60, 60)), *perfect]
    assert average_precision(with_fp, truths) < 1.0
    assert average_precision([], truths) == 0.0


def test_load_truth_polygons_and_other_names(tmp_path):
    import cv2

    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "grp__a.jpg"), np.zeros((100, 200, 3), np.uint8))
    (tmp_path / "labels" / "grp__a.txt").write_text("0 0.5 0.5 0.1 0.2\n2 0.1 0.1 0.3 0.1 0.3 0.4 0.1 0.4\n1 0.5 0.5 0.1 0.1\n")
    (tmp_path / "data.yaml").write_text("names: ['10C', 'BACK', 'QS']\n")
    (t,) = load_truth(tmp_path)
    assert t.group == "grp" and t.codes == {"TC", "QS"}
    qs = dict(t.boxes)["QS"]
    assert qs == pytest.approx((20, 10, 60, 40))


def test_evaluate_tells_missed_indices_from_misread_ones(tmp_path):
    """Two true indices of QS and one of TC; the reader finds one QS index right and reads
    the TC index as TS: card precision 1/2, recall 1/2; indices found 2/3, read right 1/2."""
    import cv2

    from vision.evaluate import evaluate
    from vision.types import CardRead, IndexRead, Reading

    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    cv2.imwrite(str(tmp_path / "images" / "table__a.jpg"), np.zeros((100, 100, 3), np.uint8))
    (tmp_path / "labels" / "table__a.txt").write_text(
        "2 0.15 0.15 0.1 0.1\n2 0.85 0.85 0.1 0.1\n0 0.5 0.5 0.1 0.1\n")
    (tmp_path / "data.yaml").write_text("names: ['10C', 'BACK', 'QS']\n")
    p = np.zeros(53)
    indices = (IndexRead((10, 10, 20, 20), "QS", 0.9, p), IndexRead((45, 45, 55, 55), "TS", 0.8, p))

    class FakeReader:
        flag_right = False  # flag the right QS, not the wrong TS

        def read(self, image):
            cards = (CardRead("QS", 0.9, ((10, 10, 20, 20),), self.flag_right),
                     CardRead("TS", 0.8, ((45, 45, 55, 55),), not self.flag_right))
            return Reading(cards, 5.0, 100, 100, indices)

    result = evaluate(FakeReader(), tmp_path)
    g = result["groups"]["table"]
    assert (g["precision"], g["recall"], g["exact_hand_rate"]) == (0.5, 0.5, 0.0)
    assert (g["cards_true"], g["cards_read"], g["cards_missed"], g["cards_wrong"]) == (2, 2, 1, 1)
    assert g["indices_found"] == pytest.approx(2 / 3) and g["found_read_right"] == 0.5
    # the wrong TS is flagged uncertain: the one card read without a flag is right
    assert (g["cards_flagged"], g["wrong_flagged"], g["unflagged_precision"]) == (1, 1, 1.0)
    assert (g["wrong_unflagged"], g["right_flagged"], g["right_flagged_share"]) == (0, 0, 0.0)
    reader = FakeReader()
    reader.flag_right = True
    g = evaluate(reader, tmp_path)["groups"]["table"]
    assert (g["cards_flagged"], g["wrong_flagged"], g["unflagged_precision"]) == (1, 0, 0.0)
    assert (g["wrong_unflagged"], g["right_flagged"], g["right_flagged_share"]) == (1, 1, 1.0)
    assert result["confused"] == [{"true": "TC", "read": "TS", "count": 1}]
    assert result["median_ms"] == 5.0


def test_synthetic_validation_takes_the_val_photos_only(tmp_path):
    import cv2

    from vision.evaluate import synthetic_validation

    for split in ("train", "val"):
        (tmp_path / "images" / split).mkdir(parents=True)
        (tmp_path / "labels" / split).mkdir(parents=True)
        for i in range(3):
            cv2.imwrite(str(tmp_path / "images" / split / f"{split}{i}.jpg"), np.zeros((64, 64, 3), np.uint8))
            (tmp_path / "labels" / split / f"{split}{i}.txt").write_text("1 0.5 0.5 0.5 0.25\n")
    (tmp_path / "data.yaml").write_text("names: ['AS', 'QS']\n")
    (tmp_path / "summary.json").write_text('{"size": 64}')
    photos = synthetic_validation(tmp_path, 2)
    assert [t.image.name for t in photos] == ["val0.jpg", "val1.jpg"]
    assert photos[0].boxes == [("QS", (16.0, 24.0, 48.0, 40.0))]


def test_evaluate_truths_shows_the_reader_what_load_makes():
    from pathlib import Path

    from vision.evaluate import Truth, evaluate_truths
    from vision.types import Reading

    shown = []

    class Reader:
        def read(self, image):
            shown.append(image)
            return Reading((), 1.0, 8, 8, ())

    truths = [Truth(Path("a.jpg"), "val", [("QS", (0, 0, 4, 4))])]
    plain = evaluate_truths(Reader(), truths)
    assert shown == [Path("a.jpg")] and plain["overall"]["recall"] == 0.0 and "data" not in plain
    evaluate_truths(Reader(), truths, load=lambda p: np.full((8, 8, 3), 7, np.uint8))
    assert isinstance(shown[1], np.ndarray) and shown[1][0, 0, 0] == 7


def labelled_folder(tmp_path, yaml_text="names: ['10C', 'BACK', 'QS']\n", label="0 0.5 0.5 0.1 0.2\n"):
    import cv2

    (tmp_path / "images").mkdir(exist_ok=True)
    (tmp_path / "labels").mkdir(exist_ok=True)
    cv2.imwrite(str(tmp_path / "images" / "grp__a.jpg"), np.zeros((100, 200, 3), np.uint8))
    (tmp_path / "labels" / "grp__a.txt").write_text(label)
    (tmp_path / "data.yaml").write_text(yaml_text)
    return tmp_path


@pytest.mark.parametrize("yaml_text", [
    "names: ['10C', 'BACK', 'QS']\n",
    "path: .\ntrain: images\nnames:\n  0: 10C\n  1: BACK\n  2: QS\n",
    "names:\n  - 10C\n  - BACK\n  - QS\nnc: 3\n",  # a YAML block list
    'nc: 3\nnames: ["10C", "BACK", "QS"]  # the classes\n',
])
def test_the_class_names_are_read_in_each_of_yaml_s_ways_of_writing_them(tmp_path, yaml_text):
    (t,) = load_truth(labelled_folder(tmp_path, yaml_text))
    assert t.codes == {"TC"}


def test_a_mapping_of_more_than_ten_class_ids_is_read_in_number_order(tmp_path):
    """Ids sorted as text (0, 1, 10, 11, 2, ...) had refused every mapping of 11 classes or more."""
    from vision.evaluate import load_names

    names = ["AS", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS"]
    text = "names:\n" + "".join(f"  {i}: {n}\n" for i, n in enumerate(names))
    (tmp_path / "data.yaml").write_text(text)
    assert load_names(tmp_path) == names
    (tmp_path / "data.yaml").write_text("names:\n  0: AS\n  2: 2S\n")
    from vision.evaluate import DataSetError

    with pytest.raises(DataSetError, match=r"class ids must be 0 to 1, not \[0, 2\]"):
        load_names(tmp_path)


@pytest.mark.parametrize(("yaml_text", "label", "needle"), [
    ("names: [", "0 0.5 0.5 0.1 0.2\n", r"data\.yaml: not YAML"),
    ("train: images\n", "0 0.5 0.5 0.1 0.2\n", r"data\.yaml: no class names \(names:\)"),
    ("names: 3\n", "0 0.5 0.5 0.1 0.2\n", r"data\.yaml: names must be a list or a mapping of class ids"),
    ("names: ['10C']\n", "0 0.5 0.5 0.1 0.2\n7 0.5 0.5 0.1 0.1\n", r"grp__a\.txt line 2: class 7, but data\.yaml "
                                                                    r"names 1 class"),
    ("names: ['10C']\n", "x 0.5 0.5 0.1 0.2\n", r"grp__a\.txt line 1: class 'x' is not a class id"),
    ("names: ['10C']\n", "0 0.5 0.5 wide 0.2\n", r"grp__a\.txt line 1: 'wide' is not a number"),
    ("names: ['10C']\n", "0 0.5 0.5 0.1 0.2 0.3\n", r"grp__a\.txt line 1: 5 numbers after the class"),
])
def test_a_data_set_the_evaluation_cannot_read_is_named_file_and_line(tmp_path, yaml_text, label, needle):
    from vision.evaluate import DataSetError

    with pytest.raises(DataSetError, match=needle):
        load_truth(labelled_folder(tmp_path, yaml_text, label))


def test_a_damaged_photo_in_a_data_set_is_named(tmp_path):
    from vision.evaluate import DataSetError

    folder = labelled_folder(tmp_path)
    (folder / "images" / "grp__b.jpg").write_bytes(b"not a photo")
    with pytest.raises(DataSetError, match=r"grp__b\.jpg is not an image"):
        load_truth(folder)
