"""``models/gpu_train.sh train``, the run on a machine with a CUDA GPU, dry-run on the CPU in a
copy of the repository: a GPU machine's time is scarce, so the script must not rot unseen (e.g.
stop when ``KINDS`` is unset)."""

import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _copy_of_the_repository(to: Path) -> Path:
    """The tracked files (and untracked ones git does not ignore), as the GPU machine gets them;
    without git (a checkout unpacked from an archive), everything but what is made here."""
    try:
        listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                                capture_output=True, check=True).stdout.decode().split("\0")
    except (OSError, subprocess.CalledProcessError):
        shutil.copytree(ROOT, to, ignore=shutil.ignore_patterns(".git", ".venv", "data", "runs", ".gpu", "__pycache__",
                                                                ".pytest_cache", "node_modules"))
        return to
    for name in filter(None, listed):
        src = ROOT / name
        if src.is_file():
            (to / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, to / name)
    return to


def test_the_script_names_its_two_steps():
    proc = subprocess.run(["bash", str(ROOT / "models" / "gpu_train.sh")], capture_output=True, text=True)
    assert proc.returncode == 2 and "bundle|train" in proc.stderr
    assert subprocess.run(["bash", "-n", str(ROOT / "models" / "gpu_train.sh")]).returncode == 0


@pytest.mark.slow
def test_a_dry_run_on_the_cpu_trains_both_stages_from_the_shipped_weights(tmp_path):
    import torch

    repo = _copy_of_the_repository(tmp_path / "repo")
    out = tmp_path / "out"
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
           "OUT": str(out), "N": "8", "BUDGET": "170", "DEVICE": "cpu", "BATCH": "4", "IMGSZ": "64", "CLS_S": "40",
           "GPU_WHEELS": "0", "GPU_DATA": str(tmp_path / "data"), "GPU_RUNS": str(tmp_path / "runs")}
    env.pop("KINDS", None)  # the default: every kind at its share
    proc = subprocess.run(["bash", "models/gpu_train.sh", "train"], cwd=repo, env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout[-3000:] + proc.stderr[-3000:]
    assert "detector exit 0" in proc.stdout and "classifier exit 0" in proc.stdout, proc.stdout[-3000:]
    assert json.loads((out / "data_summary.json").read_text())["images"] == 8
    with tarfile.open(out / "weights.tar.gz") as tar:
        assert sorted(tar.getnames()) == ["classifier.pt", "classifier_metrics.json", "detector.pt", "history.json"]
        state = torch.load(io.BytesIO(tar.extractfile("classifier.pt").read()), map_location="cpu")
    assert state["upright"] is True  # trained on crops turned upright, as the reader reads them
    history = json.loads((repo / "models" / "weights" / "history.json").read_text())
    assert sorted(h["model"] for h in history[-2:]) == ["classifier", "detector"]  # both stages, in either order
    assert (ROOT / "models" / "weights" / "history.json").read_text() != (
        repo / "models" / "weights" / "history.json").read_text()  # the copy trained, not the repository
