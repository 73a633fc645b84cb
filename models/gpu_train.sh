#!/usr/bin/env bash
# Training the card reader on a machine with a CUDA GPU, in one go.
#
#   bash models/gpu_train.sh bundle          # on the development machine: fill .gpu/ (ignored
#                                            # by git) with what the GPU machine lacks: the
#                                            # ultralytics wheels, the rendered deck cache, the
#                                            # fonts, a polars stand-in
#   bash models/gpu_train.sh train           # on the GPU machine, from the repo root, with the
#                                            # working tree and .gpu/ copied there:
#                                            # writes a data set, trains both stages from the
#                                            # shipped weights, and puts the results in $OUT
#
# The GPU machine is assumed to reach no package registry and to take at most 64 MiB of files
# with the working tree, so the data set is written there (on all its cores) from the carried
# rendered decks. Its python3 must hold torch, numpy, OpenCV, Pillow and onnx; ultralytics comes
# as wheels. Ultralytics imports polars only to read results.csv back, inside a try: a stand-in
# module that refuses keeps a 170 MB wheel out of the 64 MiB.
# ONNX export is left for the development machine (`ginsight train --export`), where it is tested.
#
# Knobs (environment): N photos (12000), SEED (3), BUDGET seconds for the whole train step (520),
# CLS_S classifier seconds at most (300), BATCH detector batch (64), IMGSZ (640), DEVICE (0),
# CROP the classifier's crop side in pixels (32, the shipped one's; 48 to go on at 48),
# CLS=0 to train the detector alone (all cores feed it; no index crops written), KINDS a
# comma-separated list of scene kinds, each as likely (default: every kind at its share),
# WARMUP the detector's warm-up epochs (3, Ultralytics').
# For a dry run on a CPU (tests/models/test_gpu_train.py): DEVICE=cpu, GPU_WHEELS=0 (the python
# already holds ultralytics), GPU_DATA and GPU_RUNS (the data set's and Ultralytics' folders,
# /tmp/synth-gpu and /tmp/runs), in a copy of the repository (training writes models/weights).
# While the detector trains, its last epoch's weights are copied to $OUT every 30 s, so that a
# call cut off at its limit still brings back what was trained.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"

bundle() {
  local cache=${GINSIGHT_CACHE:-$HOME/.cache/ginsight}/decks
  rm -rf .gpu && mkdir -p .gpu/whl .gpu/decks/sources .gpu/fonts .gpu/stub/polars
  .venv/bin/python -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
    --platform manylinux2014_x86_64 -d .gpu/whl ultralytics=="$(.venv/bin/python -c 'from importlib.metadata import version; print(version("ultralytics"))')" \
    ultralytics-thop==2.2.3 || return 1
  cp -r "$cache/rendered" .gpu/decks/
  # each package's source.json (a scoped npm package's one level deeper: sources/@scope/name/)
  (cd "$cache" && find sources -name source.json) | while read -r f; do
    mkdir -p ".gpu/decks/$(dirname "$f")" && cp "$cache/$f" ".gpu/decks/$f" || exit 1
  done || return 1
  # only the fonts the procedural decks draw with (datasets.procedural_deck.font_files): the
  # others (italic, oblique, ...) would never be used there and took half of 12 MB
  .venv/bin/python -c 'from datasets.procedural_deck import font_files; print("\n".join(map(str, font_files())))' \
    | while read -r f; do cp "$f" .gpu/fonts/ || exit 1; done || return 1
  cat > .gpu/stub/polars/__init__.py <<'EOF'
"""Stand-in for polars on the GPU machine (see models/gpu_train.sh): Ultralytics reads its
results.csv back with it inside a try, and falls back to {} when this refuses."""


def read_csv(*args, **kwargs):
    raise RuntimeError("polars is not on this machine")
EOF
  # the GPU machine takes at most 64 MiB: the working tree (tracked files and untracked ones
  # git does not ignore) and .gpu together
  local tree gpu limit=$(( 64 * 1024 * 1024 ))
  tree=$(git ls-files -z --cached --others --exclude-standard | xargs -0 stat -c %s 2>/dev/null | awk '{s += $1} END {print s + 0}')
  gpu=$(du -sb .gpu | cut -f1)
  echo ".gpu $(( gpu / 1048576 )) MiB + the tree $(( tree / 1048576 )) MiB = $(( (gpu + tree) / 1048576 )) MiB of the 64 MiB the GPU machine takes"
  [ $(( gpu + tree )) -le "$limit" ] || { echo "too much for the GPU machine: trim the tree or .gpu"; return 1; }
}

train() {
  local t0=$SECONDS budget=${BUDGET:-520} n=${N:-12000} seed=${SEED:-3}
  local out=${OUT:-/tmp/ginsight-out} data=${GPU_DATA:-/tmp/synth-gpu} runs=${GPU_RUNS:-/tmp/runs}
  mkdir -p "$out"
  left() { echo $(( budget - (SECONDS - t0) )); }
  echo "== $(date -u +%FT%TZ) on $(nproc) cores; $(nvidia-smi --query-gpu=name,memory.total --format=csv,noheader 2>&1)"
  if [ "${GPU_WHEELS:-1}" != 0 ]; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/site .gpu/whl/*.whl || return 1
  fi
  export PYTHONPATH=/tmp/site:$here/.gpu/stub:$here PYTHONUNBUFFERED=1 GINSIGHT_CACHE=$here/.gpu YOLO_OFFLINE=1
  # The procedural decks draw with the machine's fonts: give it ours if it has none.
  find /usr/share/fonts -name '*.ttf' 2>/dev/null | grep -q . \
    || { mkdir -p /usr/share/fonts/ginsight && cp .gpu/fonts/*.ttf /usr/share/fonts/ginsight/; }
  python3 -c 'import torch, ultralytics, cv2, numpy; print("torch", torch.__version__, "cuda", torch.cuda.is_available(),
    "ultralytics", ultralytics.__version__, "cv2", cv2.__version__, "numpy", numpy.__version__)' || return 1


  local cls=${CLS:-1} extra=() k
  [ "$cls" = 0 ] && extra+=(--no-crops)
  local kinds=${KINDS:-}
  for k in ${kinds//,/ }; do extra+=(--kind "$k"); done
  echo "== data set: $n photos, seed $seed, ${CROP:-32}-px crops, ${extra[*]} ($(left) s left)"
  if [ -f "$data/data.yaml" ]; then echo "(the data set of an earlier call on this warm machine)"; else
    python3 -m cli.main dataset --out "$data" --n "$n" --seed "$seed" --crop "${CROP:-32}" --workers "$(nproc)" \
      "${extra[@]}" 2>&1 | tr '\r' '\n' | tail -n 3
  fi
  [ -f "$data/data.yaml" ] || { echo "no data set written"; return 1; }

  # Both stages at once: the GPU has room for both; the CPU cores feed the detector.
  local det_s=$(( $(left) - 75 )) cls_s cls_pid="" workers saver
  cls_s=$(( det_s - 30 < ${CLS_S:-300} ? det_s - 30 : ${CLS_S:-300} ))
  if [ "$cls" = 0 ]; then
    echo "== training: detector $det_s s (the classifier is not trained)"
    workers=$(( $(nproc) > 4 ? $(nproc) - 2 : 2 ))
  else
    echo "== training: detector $det_s s, classifier $cls_s s"
    workers=$(( $(nproc) > 8 ? $(nproc) - 5 : 2 ))
    timeout $(( cls_s + 60 )) python3 -m cli.main train --data "$data" --what classifier --resume --device "${DEVICE:-0}" \
      --cls-epochs 200 --cls-minutes "$(python3 -c "print($cls_s / 60)")" --workers 3 --threads 2 --no-export \
      > "$out/classifier.log" 2>&1 &
    cls_pid=$!
  fi
  ( while sleep 30; do
      if [ -f "$runs"/detector/weights/last.pt ]; then
        cp "$runs"/detector/weights/last.pt "$out/detector_last.pt.part" && mv "$out/detector_last.pt.part" "$out/detector_last.pt"
      fi
      cp "$runs"/detector/results.csv "$out/detector_results.csv" 2>/dev/null
    done ) &
  saver=$!
  timeout $(( det_s + 60 )) python3 -m cli.main train --data "$data" --what detector --resume --device "${DEVICE:-0}" \
    --hours "$(python3 -c "print(round($det_s / 3600, 4))")" --imgsz "${IMGSZ:-640}" --batch "${BATCH:-64}" \
    --warmup-epochs "${WARMUP:-3}" --workers "$workers" --project "$runs" --no-export > "$out/detector.log" 2>&1
  echo "detector exit $?"
  kill "$saver" 2>/dev/null
  rm -f "$out/detector_last.pt" "$out/detector_last.pt.part"
  if [ -n "$cls_pid" ]; then
    wait "$cls_pid"
    echo "classifier exit $?"
    tail -n 4 "$out/classifier.log"
  fi
  tail -n 3 "$out/detector.log"
  cp "$runs"/detector/results.csv "$out/detector_results.csv" 2>/dev/null
  cp "$data/summary.json" "$out/data_summary.json"
  tar czf "$out/weights.tar.gz" -C models/weights detector.pt classifier.pt classifier_metrics.json history.json
  echo "== done in $(( SECONDS - t0 )) s"
}

case "${1:-}" in
  bundle) bundle ;;
  train) train ;;
  *) echo "usage: bash models/gpu_train.sh bundle|train" >&2; exit 2 ;;
esac
