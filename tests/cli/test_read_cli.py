"""`ginsight read`: its JSON contract, and bad photos answered one by one."""

import json
from pathlib import Path

from cli.main import main

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "real-dev" / "images"


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_read_json_contract_and_bad_photos(capsys, tmp_path):
    good = sorted(FIXTURES.glob("*.jpg"))[:2]
    text = tmp_path / "notes.jpg"
    text.write_text("not a photo")
    empty = tmp_path / "empty.png"
    empty.write_bytes(b"")
    truncated = tmp_path / "cut.jpg"
    truncated.write_bytes(good[0].read_bytes()[:5000])
    paths = [str(good[0]), str(text), str(empty), str(truncated), str(tmp_path / "missing.jpg"), str(good[1])]
    code, out, _ = run(capsys, "read", "--json", *paths)
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and [r["image"] for r in rows] == paths  # some failed: 2, every photo still listed
    for r in (rows[0], rows[5]):
        assert {"image", "cards", "ms"} <= set(r) <= {"image", "cards", "ms", "unread"} and r["ms"] > 0
        assert all(len(b) == 4 and b[0] < b[2] and b[1] < b[3] for b in r.get("unread", [[0, 0, 1, 1]]))
        for card in r["cards"]:
            keys = {"card", "confidence", "boxes", "uncertain"}
            assert set(card) == (keys | {"alternative"} if "alternative" in card else keys)
            assert card["uncertain"] or "alternative" not in card  # asked only of a card read unsure
            assert len(card["card"]) == 2 and 0 <= card["confidence"] <= 1
            assert all(len(b) == 4 and b[0] < b[2] and b[1] < b[3] for b in card["boxes"])
    assert "is not an image" in rows[1]["error"]
    assert "is empty" in rows[2]["error"]
    assert "truncated" in rows[3]["error"]
    assert "no such file" in rows[4]["error"]


def test_read_text_and_annotate(capsys, tmp_path):
    photo = sorted(FIXTURES.glob("*.jpg"))[0]
    code, out, _ = run(capsys, "read", str(photo), "--annotate", str(tmp_path))
    assert code == 0 and out.startswith(str(photo)) and "ms]" in out
    assert (tmp_path / (photo.stem + ".jpg")).exists()


def test_read_says_when_a_photo_was_read_flipped_back(capsys, tmp_path):
    import cv2

    photo = FIXTURES / "phone_IMG_date__IMG_20220921_193944_jpg.jpg"  # the two of hearts, close up
    selfie = tmp_path / "selfie.png"
    cv2.imwrite(str(selfie), cv2.imread(str(photo))[:, ::-1])
    code, out, _ = run(capsys, "read", "--json", str(photo), str(selfie))
    plain, flipped = (json.loads(line) for line in out.splitlines())
    assert code == 0 and "mirrored" not in plain and flipped["mirrored"] is True
    assert [c["card"] for c in plain["cards"]] == [c["card"] for c in flipped["cards"]] == ["2H"]
    code, out, _ = run(capsys, "read", str(selfie))
    assert code == 0 and "2H" in out and "a mirrored photo, read flipped back" in out


def test_read_all_bad_exits_2(capsys, tmp_path):
    bad = tmp_path / "x.jpg"
    bad.write_text("nope")
    code, _, err = run(capsys, "read", str(bad))
    assert code == 2 and "is not an image" in err


def test_read_missing_weights_is_a_clear_error(capsys, tmp_path):
    photo = sorted(FIXTURES.glob("*.jpg"))[0]
    code, _, err = run(capsys, "read", str(photo), "--weights", str(tmp_path))
    assert code == 2 and "model file missing" in err


def test_a_weights_folder_the_reader_cannot_use_is_a_clear_error(capsys, tmp_path):
    import shutil

    from vision.reader import DEFAULT_WEIGHTS

    photo = sorted(FIXTURES.glob("*.jpg"))[0]
    for f in DEFAULT_WEIGHTS.glob("*.onnx"):
        shutil.copy(f, tmp_path / f.name)
    (tmp_path / "reader.json").write_text('{"grouping": {"min_crad": 0.5}}')
    code, out, err = run(capsys, "read", str(photo), "--weights", str(tmp_path))
    assert (code, out) == (2, "") and "unknown setting grouping.min_crad (min_card?)" in err and "Traceback" not in err
    code, _, err = run(capsys, "eval", "--data", str(FIXTURES.parent), "--weights", str(tmp_path))
    assert code == 2 and "unknown setting grouping.min_crad" in err
    (tmp_path / "reader.json").unlink()
    (tmp_path / "detector.onnx").write_bytes(b"\0" * 64)
    code, _, err = run(capsys, "read", str(photo), "--weights", str(tmp_path))
    assert code == 2 and "detector.onnx: not a network the reader can load" in err


def test_eval_of_a_data_set_with_a_bad_label_line_is_a_clear_error(capsys, tmp_path):
    import shutil

    data = tmp_path / "data"
    shutil.copytree(FIXTURES.parent, data)
    label = sorted((data / "labels").glob("*.txt"))[0]
    label.write_text(label.read_text() + "\nQS 0.5 0.5 0.1 0.1\n")
    code, out, err = run(capsys, "eval", "--data", str(data))
    assert code == 2 and out == "" and f"{label.name} line" in err and "'QS' is not a class id" in err
    assert "Traceback" not in err


def test_eval_of_a_data_set_without_photos_is_a_clear_error(capsys, tmp_path):
    (tmp_path / "images").mkdir()
    (tmp_path / "data.yaml").write_text("names: ['QS']\n")
    code, out, err = run(capsys, "eval", "--data", str(tmp_path))
    assert code == 2 and out == "" and "holds no photos" in err


def test_eval_refuses_a_limit_under_one(capsys):
    for limit in ("0", "-1"):  # -1 had dropped the last photo, 0 had read them all
        code, out, err = run(capsys, "eval", "--data", str(FIXTURES.parent), "--limit", limit)
        assert code == 2 and out == "" and "--limit must be at least 1" in err


def test_read_names_an_annotate_folder_it_cannot_use(capsys, tmp_path):
    photo = sorted(FIXTURES.glob("*.jpg"))[0]
    afile = tmp_path / "notes.txt"
    afile.write_text("keep me")
    code, out, err = run(capsys, "read", str(photo), "--annotate", str(afile))
    assert (code, out) == (2, "") and "is a file, not a folder" in err and afile.read_text() == "keep me"
    code, out, err = run(capsys, "read", str(photo), "--annotate", str(afile / "drawn"))
    assert (code, out) == (2, "") and "cannot make that folder" in err


def test_read_still_prints_the_cards_when_a_drawn_photo_cannot_be_written(capsys, tmp_path, monkeypatch):
    import cv2

    photo = sorted(FIXTURES.glob("*.jpg"))[0]
    monkeypatch.setattr(cv2, "imwrite", lambda *a, **k: False)  # a full disk, a read-only folder
    code, out, err = run(capsys, "read", str(photo), "--annotate", str(tmp_path))
    assert code == 0 and out.startswith(str(photo)) and "could not write the drawn photo" in err


def test_read_takes_folders_photo_by_photo_and_keeps_drawn_photos_of_one_name_apart(capsys, tmp_path):
    import shutil

    one, two, empty, drawn = tmp_path / "one", tmp_path / "two" / "deeper", tmp_path / "empty", tmp_path / "drawn"
    for folder in (one, two, empty):
        folder.mkdir(parents=True)
    photo = sorted(FIXTURES.glob("*.jpg"))[0]
    shutil.copy(photo, one / "hand.jpg")
    shutil.copy(photo, two / "hand.jpg")  # the same name in another folder
    (one / "notes.txt").write_text("not a photo, not listed")
    code, out, err = run(capsys, "read", "--json", str(one), str(tmp_path / "two"), str(empty), "--annotate", str(drawn))
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 2 and [r["image"] for r in rows] == [str(one / "hand.jpg"), str(two / "hand.jpg"), str(empty)]
    assert rows[0]["cards"] == rows[1]["cards"] and rows[0]["cards"]
    assert rows[2]["error"] == f"{empty} is a folder with no photos in it (.jpg, .jpeg, .png, .bmp or .webp)"
    assert sorted(p.name for p in drawn.iterdir()) == ["hand-2.jpg", "hand.jpg"]
    code, _, err = run(capsys, "read", str(empty))
    assert code == 2 and "is a folder with no photos in it" in err


def test_eval_of_photos_that_label_no_card_gives_json_without_nan(capsys, tmp_path):
    import shutil

    photo = sorted(FIXTURES.glob("*.jpg"))[0]
    (tmp_path / "images").mkdir()
    (tmp_path / "labels").mkdir()
    shutil.copy(photo, tmp_path / "images" / photo.name)
    (tmp_path / "labels" / (photo.stem + ".txt")).write_text("0 0.5 0.5 0.1 0.1\n")  # a card back only
    (tmp_path / "data.yaml").write_text("names: ['BACK']\n")

    def strict(constant):
        raise ValueError(f"not JSON: {constant}")

    code, out, _ = run(capsys, "eval", "--data", str(tmp_path), "--json")
    result = json.loads(out, parse_constant=strict)  # NaN had been written, which JSON has not
    assert code == 0 and result["index_map50"] is None and result["index_map50_class_agnostic"] is None
    code, out, _ = run(capsys, "eval", "--data", str(tmp_path))
    assert code == 0 and "index mAP50 n/a (class-agnostic n/a)" in out


def test_read_exits_2_when_any_photo_failed_and_still_reads_the_others(capsys, tmp_path):
    photo = sorted(FIXTURES.glob("*.jpg"))[0]
    bad = tmp_path / "notes.jpg"
    bad.write_text("not a photo")
    code, out, err = run(capsys, "read", str(photo), str(bad), str(tmp_path / "missing.jpg"))
    assert code == 2
    assert out.startswith(f"{photo}: ") and "ms]" in out  # the good one still read
    assert err.splitlines() == [f"{bad}: error: notes.jpg is not an image (JPEG, PNG, WebP or BMP expected)",
                                f"{tmp_path / 'missing.jpg'}: error: no such file: {tmp_path / 'missing.jpg'}"]
    code, out, _ = run(capsys, "read", str(photo))
    assert code == 0


def test_read_names_the_likeliest_other_card_and_the_index_boxes_not_read(capsys, monkeypatch):
    import vision
    from vision.types import CardRead, Reading

    doubtful = Reading((CardRead("2C", 0.41, ((1, 2, 9, 12),), True, "2S"), CardRead("5H", 0.5, (), True),
                        CardRead("KD", 0.93, (), False)), 40.0, 640, 480, unread=((20, 30, 28, 40), (50, 60, 58, 70)))
    sure = Reading((CardRead("KD", 0.93, (), False, "KH"),), 40.0, 640, 480, unread=((20, 30, 28, 40),))

    readings = [doubtful, sure, doubtful, sure]

    class Fake:
        def __init__(self, weights=None):
            pass

        def read(self, image):
            return readings.pop(0)

    monkeypatch.setattr(vision, "Reader", Fake)
    photo = str(sorted(FIXTURES.glob("*.jpg"))[0])
    code, out, _ = run(capsys, "read", photo, photo)
    assert code == 0 and out.splitlines() == [
        f"{photo}: 2C?(2S) 5H? KD  [40 ms]", f"{photo}: 2 index boxes not read",
        f"{photo}: KD  [40 ms]", f"{photo}: 1 index box not read",  # a sure card names no other
    ]
    code, out, _ = run(capsys, "read", "--json", photo, photo)
    first, second = (json.loads(line) for line in out.splitlines())
    assert [c.get("alternative") for c in first["cards"]] == ["2S", None, None]
    assert first["unread"] == [[20, 30, 28, 40], [50, 60, 58, 70]] and second["unread"] == [[20, 30, 28, 40]]
    assert "alternative" not in second["cards"][0]
