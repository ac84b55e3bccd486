#!/usr/bin/env bash
# Study 1: a ladder of policies for each game, rated by a round robin (`mancala-lab match`): each
# pair meets GAMES times on each side, on the same draws; ratings.csv holds Elo (random = 0) with
# 95% intervals. Also measures each policy's time per move (one thread, over its games).
# With OPENING > 0, every game opens with that many random plies (`--opening`), so that two
# deterministic players (alphabeta against alphabeta) do not replay one game GAMES times; the
# match goes to out/opening-OPENING, the ratings to GAME-ratings-opening-OPENING.csv and the table
# to results-opening-OPENING.md.
# Usage, from the project root: bash experiments/ladder/run.sh [GAMES] [OPENING]
set -euo pipefail
games=${1:-20}
opening=${2:-0}
out=experiments/ladder/out
suffix=
if [ "$opening" != 0 ]; then
    out=$out/opening-$opening
    suffix=-opening-$opening
fi
players=(random greedy search alphabeta:depth=2 alphabeta:depth=4 alphabeta:depth=6 alphabeta:depth=8 mcts:sims=100 mcts:sims=1000 mcts:sims=10000)
cargo build --release --quiet
for game in oware bao; do
    target/release/mancala-lab match --game "$game" --players "${players[@]}" --games "$games" \
        --seed 1 --opening "$opening" --force --out "$out/$game" >/dev/null 2>&1
    cp "$out/$game/ratings.csv" "experiments/ladder/$game-ratings$suffix.csv"
done
python3 experiments/ladder/table.py experiments/ladder "$out" "$suffix" > "experiments/ladder/results$suffix.md"
cat "experiments/ladder/results$suffix.md"
