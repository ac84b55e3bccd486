#!/usr/bin/env bash
# Studies 2 and 4: South's advantage, game length and endings as both players get stronger.
# Each policy plays itself (South and North alike), seed 1, on the optimized engines under the
# default readings; summary.csv of each run holds the rates and means with 95% intervals.
# With OPENING > 0, every game opens with that many random plies (`--opening`) before the
# policies choose, so that deterministic players do not replay the same games; the runs go to
# out/opening-OPENING, the table to results-opening-OPENING.md.
# Usage, from the project root: bash experiments/strong-play/run.sh [GAMES] [OPENING]
set -euo pipefail
games=${1:-400}
opening=${2:-0}
out=experiments/strong-play/out
results=experiments/strong-play/results.md
if [ "$opening" != 0 ]; then
    out=$out/opening-$opening
    results=experiments/strong-play/results-opening-$opening.md
fi
policies=(random greedy search alphabeta:depth=2 alphabeta:depth=4 alphabeta:depth=6 mcts:sims=100 mcts:sims=1000)
cargo build --release --quiet
for game in bao oware; do
    for p in "${policies[@]}"; do
        name=$(printf %s "$p" | tr ':,=' '---')
        target/release/mancala-lab stats --game "$game" --policy "$p" --games "$games" --seed 1 \
            --opening "$opening" --force --out "$out/$game-$name" >/dev/null
    done
done
python3 experiments/strong-play/table.py "$out" "$opening" "${policies[@]}" > "$results"
cat "$results"
