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
