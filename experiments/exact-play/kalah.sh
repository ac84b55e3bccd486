#!/usr/bin/env bash
# Exact values of Kalah(m,n), the start position, under each capture reading (openspiel: a last
# seed opposite an empty pit stays; empty-capture: it goes to the store alone), m = 1..6 pits a row
# and n = 1..6 seeds a pit, as far as the budget reaches. The levels up to LEVELS seeds are built
# first (they serve every n of one m); the search covers the rest.
# Usage, from the project root: bash experiments/exact-play/kalah.sh [BUDGET] [DB] [READINGS] [PITS]
# BUDGET (default 200000000) caps the boards one search expands; DB (default db) holds the levels;
# READINGS (default "openspiel empty-capture") and PITS (default "1 2 3 4 5 6") choose the tables.
# Prints a TSV table: reading, m, n, value (or "over budget" and the bounds the search proved),
# boards searched.
set -euo pipefail
budget=${1:-200000000}
db=${2:-db}
readings=${3:-openspiel empty-capture}
boards=${4:-1 2 3 4 5 6}
cargo build --release --quiet
bin=target/release/mancala-lab
# Levels a board of 2m pits gets, so that each build stays under a minute or so on 2 cores; no
# more than Kalah(m,6), the largest game solved, has seeds (12m: `solve --build` refuses more).
levels=(0 24 24 24 22 18 16)
printf 'reading\tm\tn\tvalue\tsearched\n'
for reading in $readings; do
    for m in $boards; do
        most=$(( levels[m] < 12 * m ? levels[m] : 12 * m ))
        $bin solve --game kalah --variant "$reading:pits=$m,seeds=6" --build --seeds "$most" \
            --db "$db" > /dev/null
        for n in 1 2 3 4 5 6; do
            # Exit 1: the search stopped short, but says what it proved.
            out=$($bin solve --game kalah --variant "$reading:pits=$m,seeds=$n" --db "$db" \
                --budget "$budget" 2>&1) || [ $? -eq 1 ] || { printf '%s\n' "$out" >&2; exit 2; }
            value=$(printf '%s\n' "$out" | sed -n 's/^value: \(-\{0,1\}[0-9][0-9]*\)$/\1/p')
            searched=$(printf '%s\n' "$out" | sed -n 's/^searched: \([0-9]*\).*/\1/p')
            if [ -z "$value" ]; then
                value=$(printf '%s\n' "$out" |
                    sed -n 's/^value: not found, but at least \(.*\) and at most \(.*\)$/over budget [\1, \2]/p')
            fi
            printf '%s\t%s\t%s\t%s\t%s\n' "$reading" "$m" "$n" "$value" "${searched:-0}"
        done
    done
done
