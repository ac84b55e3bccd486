#!/usr/bin/env bash
# How good the policies are against perfect play: on 10,000 random boards of each seed count
# (the mover having two moves or more), the share of each policy's moves that lose value, the
# mean value lost and the share that worsen the result, with 95% intervals (solve --judge).
# Usage, from the project root: bash experiments/exact-play/policies.sh [GAME] [DB] [SEEDS]
# GAME: oware (sheet; levels to the largest of SEEDS must be built, see oware.sh) or kalah
# (Kalah(6,n) under empty-capture: levels to 16 are built here, a search covers the rest).
# SEEDS defaults to "10 20 24" for oware and "10 20 30" for kalah. Prints one table a seed count.
set -euo pipefail
game=${1:-oware}
db=${2:-db}
cargo build --release --quiet
bin=target/release/mancala-lab
case $game in
oware)
    variant=sheet
    seeds=${3:-10 20 24}
    ;;
kalah)
    variant=empty-capture:pits=6
    seeds=${3:-10 20 30}
    $bin solve --game kalah --variant "$variant" --build --seeds 16 --db "$db" > /dev/null
    ;;
*)
    echo "policies.sh: GAME is oware or kalah, not '$game'" >&2
    exit 2
    ;;
esac
for n in $seeds; do
    $bin solve --game "$game" --variant "$variant" --db "$db" --seeds "$n" --sample 10000 \
        --seed 1 --budget 100000000 \
        --judge random --judge greedy --judge search \
        --judge alphabeta:depth=2 --judge alphabeta:depth=4 --judge alphabeta:depth=6 \
        --judge mcts:sims=100 --judge mcts:sims=1000 --judge perfect
    echo
done
