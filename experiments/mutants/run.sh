#!/usr/bin/env bash
# Mutation-checked clause coverage: cargo-mutants mutates the clause code (.cargo/mutants.toml),
# runs the tests against each mutant, and `mancala-lab coverage --mutants` reports per clause the
# mutants caught, missed, excused and unviable; it fails on a missed mutant in a normative clause's
# code that has no `// mutant: excused REASON`.
#
#   experiments/mutants/run.sh [--shard K/N] [--optimized] [--out DIR]
#
# --shard K/N  one of N slices of the mutants (K from 0), as cargo-mutants numbers them
# --optimized  mutate the optimized engines instead (bao/fast.rs, oware/fast.rs, oware/batch.rs),
#              whose mutants the differential and batch checks must catch (reports the share)
# --out DIR    where cargo-mutants writes mutants.out/ (default target/mutants)
# Needs cargo-mutants (cargo install --locked cargo-mutants).
set -euo pipefail
cd "$(dirname "$0")/../.."

shard=() files=() out=target/mutants optimized=0
while [ $# -gt 0 ]; do
    case "$1" in
    --shard) shard=(--shard "$2"); shift 2 ;;
    --optimized) optimized=1; shift ;;
    --out) out="$2"; shift 2 ;;
    *) echo "run.sh: unknown argument '$1' (see the comment at the top)" >&2; exit 2 ;;
    esac
done
if [ "$optimized" = 1 ]; then
    files=(--file src/bao/fast.rs --file src/oware/fast.rs --file src/oware/batch.rs)
fi

set +e
cargo mutants "${files[@]}" "${shard[@]}" --timeout 600 --output "$out"
status=$?
set -e
# 0: all caught; 2: some missed; 3: some timed out. Anything else is a failure of the run itself.
case "$status" in 0 | 2 | 3) ;; *) echo "cargo mutants failed (exit $status)" >&2; exit 1 ;; esac

if [ "$optimized" = 1 ]; then
    # No clauses there: the share of viable mutants caught.
    python3 - "$out/mutants.out/outcomes.json" <<'PY'
import json, sys
outcomes = json.load(open(sys.argv[1]))["outcomes"]
tally = {}
for o in outcomes:
    if isinstance(o["scenario"], dict):
        tally[o["summary"]] = tally.get(o["summary"], 0) + 1
viable = sum(n for s, n in tally.items() if s != "Unviable")
caught = tally.get("CaughtMutant", 0) + tally.get("Timeout", 0)
print(f"optimized engines: {sum(tally.values())} mutants, {viable} viable, {caught} caught "
      f"({100 * caught / max(viable, 1):.1f}%), {tally.get('MissedMutant', 0)} missed")
PY
    exit 0
fi
verdict=0
for game in bao oware; do
    cargo run --release --quiet -- coverage --game "$game" --mutants "$out" >"$out/coverage-$game.txt" || verdict=1
    grep -E "MISSED|^coverage" "$out/coverage-$game.txt"
done
exit "$verdict"
