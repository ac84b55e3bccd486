#!/usr/bin/env bash
# Where a random Bao ply of the optimized engine spends its work: the playouts of
# examples/bao_profile.rs under valgrind's cachegrind (instructions executed: the same count on
# every run, unlike times on a shared machine), per ply and per function, and what a ply does.
# Usage, from the project root: bash experiments/bench/bao_profile.sh [GAMES]
set -euo pipefail
games=${1:-10000}
cargo build --release --quiet --example bao_profile
bin=target/release/examples/bao_profile
"$bin" "$games" | grep -v '^time:'
if ! command -v valgrind >/dev/null; then
    echo "(instruction counts not measured: valgrind is not installed; apt-get install valgrind)"
    exit 0
fi
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
report="$(valgrind --tool=cachegrind --cache-sim=no --cachegrind-out-file="$out" "$bin" "$games" 1 --playouts-only 2>/dev/null)"
plies="$(echo "$report" | sed -n 's/.*plies: \([0-9]*\).*/\1/p')"
cg_annotate "$out" 2>/dev/null | python3 -c '
import re, sys
plies = int(sys.argv[1])
total, funcs = None, {}
for line in sys.stdin:
    m = re.match(r"\s*([\d,]+) \(\s*[\d.]+%\)\s+(PROGRAM TOTALS|\S*?(?:\.rs|\?\?\?):(\S+::\S+)\s*$)", line)
    if not m:
        continue
    n = int(m.group(1).replace(",", ""))
    if m.group(2) == "PROGRAM TOTALS":
        total = n
        continue
    # Code inlined from elsewhere is listed under its own file; count it to the function.
    fn = m.group(3).replace("mancala_lab::", "")
    funcs[fn] = funcs.get(fn, 0) + n
print(f"instructions: {total / plies:.0f} a ply")
for fn, n in sorted(funcs.items(), key=lambda kv: -kv[1])[:6]:
    print(f"  {100 * n / total:5.1f}%  {n / plies:4.0f} a ply  {fn}")
' "$plies"
