"""The benchmark script runs (tiny n) and checks itself against RLCard; not a timing test."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow
def test_benchmark_script_runs():
    proc = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "bench_deadwood.py"), "--n", "30", "--e2e-runs", "2"],
        capture_output=True, text=True, check=False, cwd=ROOT, timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    assert "| random | 10 |" in proc.stdout
    assert "| mixed_dense | 11 |" in proc.stdout
    assert "ginsight --jsonl" in proc.stdout
