#!/usr/bin/env bash
# Studies 2 and 4: South's advantage, game length and endings as both players get stronger.
# Each policy plays itself (South and North alike), seed 1, on the optimized engines under the
# default readings; summary.csv of each run holds the rates and means with 95% intervals.
# Usage, from the project root: bash experiments/strong-play/run.sh [GAMES]
set -euo pipefail
games=${1:-400}
out=experiments/strong-play/out
policies=(random greedy search alphabeta:depth=2 alphabeta:depth=4 alphabeta:depth=6 mcts:sims=100 mcts:sims=1000)
cargo build --release --quiet
for game in bao oware; do
    for p in "${policies[@]}"; do
        name=$(printf %s "$p" | tr ':,=' '---')
        target/release/mancala-lab stats --game "$game" --policy "$p" --games "$games" --seed 1 \
            --force --out "$out/$game-$name" >/dev/null
    done
done
python3 experiments/strong-play/table.py "$out" "${policies[@]}" > experiments/strong-play/results.md
cat experiments/strong-play/results.md
