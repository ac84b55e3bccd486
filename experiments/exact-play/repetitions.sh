#!/usr/bin/env bash
# Whether Oware's repetition rule sways the judged policies (finding O-DB1): on the boards of
# policies.sh, alphabeta at depths 8 to 12 and mcts with its repetition ends scored by the sheet
# (each side takes its row) and as the databases count endless play (the seeds left shared
# evenly); per policy also the boards where its search met a repetition, and its shares on the
# others (solve --judge).
# Usage, from the project root: bash experiments/exact-play/repetitions.sh [DB] [SEEDS]
# The sheet's levels to the largest of SEEDS (default "10 20 24") must be built (oware.sh).
set -euo pipefail
db=${1:-db}
seeds=${2:-10 20 24}
cargo build --release --quiet
bin=target/release/mancala-lab
for n in $seeds; do
    $bin solve --game oware --variant sheet --db "$db" --seeds "$n" --sample 10000 --seed 1 \
        --judge alphabeta:depth=8 --judge alphabeta:depth=10 --judge alphabeta:depth=12 \
        --judge mcts:sims=100 --judge mcts:sims=100,repetition=databases \
        --judge mcts:sims=1000 --judge mcts:sims=1000,repetition=databases
    echo
done
