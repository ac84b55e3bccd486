#!/usr/bin/env bash
# Study 3 (first part): the same random-play statistics under each rule reading.
# Usage, from the project root: bash experiments/rule-readings/run.sh [BAO_GAMES] [OWARE_GAMES]
set -euo pipefail
bao_games=${1:-4000}
oware_games=${2:-20000}
out=experiments/rule-readings/out
cargo build --release --quiet
for v in default literal-en engines; do
    target/release/mancala-lab stats --game bao --variant "$v" --games "$bao_games" --seed 1 --force --out "$out/bao-$v" >/dev/null
done
for v in sheet abapa; do
    target/release/mancala-lab stats --game oware --variant "$v" --games "$oware_games" --seed 1 --force --out "$out/oware-$v" >/dev/null
done
python3 experiments/rule-readings/compare.py "$out" > experiments/rule-readings/results.md
cat experiments/rule-readings/results.md
