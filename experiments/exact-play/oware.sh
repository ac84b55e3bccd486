#!/usr/bin/env bash
# Exact values of Oware under each reading the databases hold (sheet, abapa, and the sheet with
# O.4.2's other choice alone): the levels up to N seeds built (or read back) under each, checked,
# the start positions with 1 and 2 seeds a pit solved, and the sheet compared level by level with
# the other two.
# Usage, from the project root: bash experiments/exact-play/oware.sh [N] [DB]
# N (default 24) is the largest level; DB (default db) holds the levels (about 1.3 GB a reading
# at 24). A build of 24 takes about 25 minutes a reading on 2 cores (docs/performance.md).
set -euo pipefail
most=${1:-24}
db=${2:-db}
cargo build --release --quiet
bin=target/release/mancala-lab
readings=(sheet abapa sheet:no-allowed-move=allow-grand-slam)
for reading in "${readings[@]}"; do
    $bin solve --game oware --variant "$reading" --build --seeds "$most" --db "$db"
    $bin solve --game oware --variant "$reading" --verify --seeds "$most" --db "$db"
done
for reading in "${readings[@]}"; do
    for k in 1 2; do
        if [ $((12 * k)) -le "$most" ]; then
            $bin solve --game oware --variant "$reading" --per-pit $k --db "$db"
        fi
    done
done
$bin solve --game oware --variant sheet --compare abapa --seeds "$most" --db "$db"
$bin solve --game oware --variant sheet --compare sheet:no-allowed-move=allow-grand-slam \
    --seeds "$most" --db "$db"
