#!/usr/bin/env bash
# The classifier's crop sets, remade from their seeds on a checkout that lacks them (data/ is
# not kept in git, so a fresh checkout has none), then mixed.
#
#   bash models/crop_sets.sh make GROUP...      # make each group's sets that are missing
#   bash models/crop_sets.sh mix OUT GROUP...   # data/OUT/crops: the groups' crops together
# (CROP_DATA=DIR: the sets under DIR, not data/)
#
# A group is named by the number in its sets' names; each holds a camera-look crops' set, a
# webcam-look one and one or two synthetic photo sets (with their hard negatives):
#   41: cls-camera41 (seed 411, procedural decks 16000-16999), cls-webcam41 (413, 17000-17599), synth41
#   45: cls-camera45 (451, 18000-18999), cls-webcam45 (453, 19000-19599), synth45, synth46
#   47: 471, 20000-20999; 473, 21000-21599; synth47, synth48
#   49: 491, 22000-22999; 493, 23000-23599; synth49, synth50
#   51: 511, 24000-24999; 513, 25000-25599; synth51, synth52
#   53: 531, 26000-26999; 533, 27000-27599; synth53, synth54
#   55: 551, 28000-28999; 553, 29000-29599; synth55, synth56
# Each photo and crop has its own seed, so a set made again holds the crops it held (the false
# alarms too, as long as the shipped detector is the same). One group takes the better part of an
# hour on two cores (the webcam look needs about 8.8 GB a worker). Train on every group together,
# the new one beside the earlier ones: new crops alone drift toward the procedural decks.
# The shipped deck images must be fetched first (datasets.decks.fetch_decks).
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"
py=${PYTHON:-$here/.venv/bin/python}
gs=${GINSIGHT:-$here/.venv/bin/ginsight}
data=${CROP_DATA:-data}  # where the sets lie (data/ by default)

group_parts() {  # camera seed, procedural base, synth seeds
  case "$1" in
    41) echo "411 16000 41" ;;
    45) echo "451 18000 45 46" ;;
    47) echo "471 20000 47 48" ;;
    49) echo "491 22000 49 50" ;;
    51) echo "511 24000 51 52" ;;
    53) echo "531 26000 53 54" ;;
    55) echo "551 28000 55 56" ;;
    *) echo "unknown crop group '$1' (41, 45, 47, 49, 51, 53 or 55)" >&2; return 1 ;;
  esac
}

sources() {  # the crop folders of a group
  local parts synths s
  parts=$(group_parts "$1") || return 1
  read -r _ _ synths <<<"$parts"
  echo "$data/cls-camera$1 $data/cls-webcam$1"
  for s in $synths; do echo "$data/synth$s/crops $data/synth$s/crops-neg"; done
}

make_group() {
  local parts seed base synths s
  parts=$(group_parts "$1") || return 1
  read -r seed base synths <<<"$parts"  # the last name takes the rest: every synth seed
  local last=$((base + 999)) web=$((base + 1000))
  # a set counts as made once this script has finished it (.made): one cut off is made again
  if [ ! -e "$data/cls-camera$1/.made" ]; then
    "$py" -m datasets.index_crops --out "$data/cls-camera$1" --n 100000 --seed "$seed" --look camera \
      --procedural-seeds "$base-$last" --decks-per-shard 16 --procedural-share 0.6 --leave-out kennard \
      --leave-out kennard-big --leave-out kennard-big-4-color --jokers 0.06 --side 32 --workers 2
    touch "$data/cls-camera$1/.made"
  fi
  if [ ! -e "$data/cls-webcam$1/.made" ]; then
    "$py" -m datasets.index_crops --out "$data/cls-webcam$1" --n 60000 --seed $((seed + 2)) --look webcam \
      --procedural-seeds "$web-$((web + 599))" --procedural-share 0.6 --jokers 0.06 --side 32 --workers 2
    touch "$data/cls-webcam$1/.made"
  fi
  for s in $synths; do
    if [ ! -e "$data/synth$s/.made" ]; then
      "$gs" dataset --out "$data/synth$s" --n 6000 --seed "$s" --workers 2
      "$py" -m datasets.hard_negatives --data "$data/synth$s" --limit 3000
      touch "$data/synth$s/.made"
    fi
  done
}

case "${1:-}" in
  make)
    shift
    [ $# -gt 0 ] || { echo "usage: bash models/crop_sets.sh make GROUP..." >&2; exit 2; }
    for g in "$@"; do group_parts "$g" >/dev/null; done  # every group named is known, before hours of work
    for g in "$@"; do echo "group $g: $(date -u +%H:%M:%S)"; make_group "$g"; done
    echo "done: $(date -u +%H:%M:%S)" ;;
  mix)
    shift
    [ $# -gt 1 ] || { echo "usage: bash models/crop_sets.sh mix OUT GROUP..." >&2; exit 2; }
    out=$1; shift
    folders=()
    for g in "$@"; do
      for f in $(sources "$g"); do
        set_dir=${f%/crops*}  # data/synthN/crops -> data/synthN
        [ -e "$set_dir/.made" ] || { echo "$set_dir is not made (or was cut off): bash models/crop_sets.sh make $g" >&2; exit 1; }
        folders+=("$f")
      done
    done
    "$py" -m datasets.mix --out "$data/$out/crops" "${folders[@]}" ;;
  *)
    echo "usage: bash models/crop_sets.sh make GROUP... | mix OUT GROUP..." >&2; exit 2 ;;
esac
