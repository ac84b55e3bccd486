#!/usr/bin/env bash
# Study 1: a ladder of policies for each game, rated by a round robin (`mancala-lab match`): each
# pair meets GAMES times on each side, on the same draws; ratings.csv holds Elo (random = 0) with
# 95% intervals. Also measures each policy's time per move (one thread, over its games).
# Usage, from the project root: bash experiments/ladder/run.sh [GAMES]
set -euo pipefail
games=${1:-20}
out=experiments/ladder/out
players=(random greedy search alphabeta:depth=2 alphabeta:depth=4 alphabeta:depth=6 alphabeta:depth=8 mcts:sims=100 mcts:sims=1000 mcts:sims=10000)
cargo build --release --quiet
for game in oware bao; do
    target/release/mancala-lab match --game "$game" --players "${players[@]}" --games "$games" \
        --seed 1 --force --out "$out/$game" >/dev/null 2>&1
    cp "$out/$game/ratings.csv" "experiments/ladder/$game-ratings.csv"
done
python3 experiments/ladder/table.py experiments/ladder "$out" > experiments/ladder/results.md
cat experiments/ladder/results.md
