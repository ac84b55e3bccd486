#!/usr/bin/env bash
# Study 3: the same statistics under each rule reading, under random play (the default) or
# between two equal players of another policy.
# Usage, from the project root:
#   bash experiments/rule-readings/run.sh [BAO_GAMES] [OWARE_GAMES] [POLICY]
# Random play writes out/ and results.md; a policy P writes out-P/ and results-P.md (the
# policy's ':' and ',' become '-' in the names).
set -euo pipefail
bao_games=${1:-4000}
oware_games=${2:-20000}
policy=${3:-random}
if [ "$policy" = random ]; then
    out=experiments/rule-readings/out results=experiments/rule-readings/results.md
else
    name=$(printf %s "$policy" | tr ':,=' '---')
    out=experiments/rule-readings/out-$name results=experiments/rule-readings/results-$name.md
fi
cargo build --release --quiet
for v in default literal-en engines; do
    target/release/mancala-lab stats --game bao --variant "$v" --policy "$policy" --games "$bao_games" --seed 1 --force --out "$out/bao-$v" >/dev/null
done
for v in sheet abapa; do
    target/release/mancala-lab stats --game oware --variant "$v" --policy "$policy" --games "$oware_games" --seed 1 --force --out "$out/oware-$v" >/dev/null
done
python3 experiments/rule-readings/compare.py "$out" "$policy" > "$results"
cat "$results"
