#!/usr/bin/env bash
# The level builder against a baseline, in one run: builds mancala-lab at BASE (a git revision)
# and at the work tree, builds Oware (sheet) levels 0 to SEEDS-1 once, then times level SEEDS
# built by each binary from those same levels, twice in alternation, and prints the ratio.
# The two binaries must write byte-identical levels; the script stops if they do not.
# Usage, from the project root: bash experiments/exact-play/build_speed.sh [BASE] [SEEDS]
set -euo pipefail
base=${1:-782207c}
seeds=${2:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cargo build --release --quiet
cp target/release/mancala-lab "$work/current"
git worktree add --quiet --detach "$work/base-tree" "$base"
(cd "$work/base-tree" && CARGO_TARGET_DIR="$work/base-target" cargo build --release --quiet)
cp "$work/base-target/release/mancala-lab" "$work/base"
git worktree remove --force "$work/base-tree"
"$work/current" solve --game oware --variant sheet --build --seeds $((seeds - 1)) --db "$work/below" >/dev/null
folder=$(basename "$(ls -d "$work"/below/oware_*)")
seconds() { # binary round: the seconds of level $seeds built by `binary` on the shared levels below
    local db="$work/$1-$2"
    mkdir -p "$db/$folder"
    ln -s "$work/below/$folder"/level-*.bin "$db/$folder/"
    local start=$EPOCHREALTIME
    "$work/$1" solve --game oware --variant sheet --build --seeds "$seeds" --db "$db" >/dev/null
    awk -v a="$start" -v b="$EPOCHREALTIME" 'BEGIN { printf "%.2f", b - a }'
}
declare -A total=([base]=0 [current]=0)
for round in 1 2; do
    for binary in base current; do
        s=$(seconds "$binary" "$round")
        echo "round $round: $binary $s s"
        total[$binary]=$(awk -v a="${total[$binary]}" -v b="$s" 'BEGIN { printf "%.2f", a + b }')
    done
done
level=$(printf 'level-%02d.bin' "$seeds")
for round in 1 2; do
    cmp "$work/base-$round/$folder/$level" "$work/current-$round/$folder/$level"
done
echo "level $seeds of oware sheet, the same levels below: base $base ${total[base]} s, current ${total[current]} s over two rounds each"
echo "speed-up: $(awk -v a="${total[base]}" -v b="${total[current]}" 'BEGIN { printf "%.2f", a / b }')x (identical levels)"
