#!/usr/bin/env bash
# Kalah's first-player advantage: Kalah(6,n) for n = 3..6 under every preset, each policy playing
# itself (South and North alike), seed 1, on the optimized engine; summary.csv of each run holds
# the win rates with 95% intervals. table.py writes results.md and first-player.svg.
# Usage, from the project root: bash experiments/kalah-first-player/run.sh [SCALE]
# SCALE (default 1) multiplies the games per run: random 100,000, greedy 20,000,
# alphabeta:depth=4 2,000, mcts:sims=200 1,000.
set -euo pipefail
scale=${1:-1}
here=experiments/kalah-first-player
out=$here/out
readings=(openspiel empty-capture starvation sweep-to-emptier no-sweep)
policies=(random greedy alphabeta:depth=4 mcts:sims=200)
games=(100000 20000 2000 1000)
cargo build --release --quiet
for reading in "${readings[@]}"; do
    for n in 3 4 5 6; do
        for i in "${!policies[@]}"; do
            p=${policies[$i]}
            name=$(printf %s "$p" | tr ':,=' '---')
            target/release/mancala-lab stats --game kalah --variant "$reading:seeds=$n" \
                --policy "$p" --games $((games[i] * scale)) --seed 1 --force \
                --out "$out/$reading-$n-$name" 2>/dev/null >/dev/null
        done
    done
    echo "$reading done" >&2
done
python3 $here/table.py "$out" "$here/first-player.svg" "${readings[@]}" -- "${policies[@]}" \
    > "$here/results.md"
cat "$here/results.md"
