"""models/crop_sets.sh: the classifier's crop sets remade from their seeds. Only its checks run
here (a group takes 35-47 minutes); each names what is wrong before any work starts."""

import os
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "models" / "crop_sets.sh"


def run(*args: str, data: Path | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, **({"CROP_DATA": str(data)} if data else {})}
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True, timeout=60, cwd=ROOT,
                          env=env)


def test_no_command_prints_usage():
    done = run()
    assert done.returncode == 2 and "usage: bash models/crop_sets.sh make GROUP" in done.stderr


def test_an_unknown_group_is_refused_before_any_group_is_made():
    done = run("make", "41", "98")  # 41 is known: it would take 40 minutes, so nothing may start
    assert done.returncode == 1 and "unknown crop group '98'" in done.stderr
    assert "group 41" not in done.stdout


def test_mixing_a_group_not_made_names_it_and_how_to_make_it(tmp_path):
    for made in ("cls-camera47", "cls-webcam47", "synth47"):  # synth48 not made, or cut off
        (tmp_path / made).mkdir()
        (tmp_path / made / ".made").touch()
    (tmp_path / "synth48").mkdir()
    done = run("mix", "mix47", "47", data=tmp_path)
    assert done.returncode == 1
    assert f"{tmp_path}/synth48 is not made (or was cut off): bash models/crop_sets.sh make 47" in done.stderr
    assert not (tmp_path / "mix47").exists()
