#!/usr/bin/env bash
# Two builds in one run: `bench --only PART` of a base revision and of the working tree,
# alternated ROUNDS times (base, new, base, new, ...) so that both meet the same load on a shared
# machine; prints each measurement's figure per round and the ratio of the medians.
# Usage, from the project root: bash experiments/bench/compare.sh BASE_REV [PART] [ROUNDS] [SECONDS]
#   PART: bao | oware | batch | search (default bao); ROUNDS default 3; SECONDS per measurement,
#   default 3. The base is built in a git worktree under target/compare (kept for the next run).
set -euo pipefail
base=${1:?usage: compare.sh BASE_REV [PART] [ROUNDS] [SECONDS]}
part=${2:-bao}
rounds=${3:-3}
secs=${4:-3}
rev="$(git rev-parse --short "$base^{commit}")"
tree="target/compare/$rev"
if [ ! -d "$tree" ]; then
    mkdir -p target/compare
    git worktree add --detach --quiet "$tree" "$rev"
fi
echo "building $rev (base) and the working tree" >&2
(cd "$tree" && CARGO_TARGET_DIR="$PWD/../target-$rev" cargo build --release --quiet)
cargo build --release --quiet
old="target/compare/target-$rev/release/mancala-lab"
new="target/release/mancala-lab"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
for round in $(seq "$rounds"); do
    for which in base new; do
        bin=$old
        [ "$which" = new ] && bin=$new
        echo "round $round: $which" >&2
        "$bin" bench --only "$part" --seconds "$secs" --json "$out/$which-$round.json" >/dev/null
    done
done
python3 - "$out" "$rounds" "$rev" <<'PY'
import json, statistics, sys
out, rounds, rev = sys.argv[1], int(sys.argv[2]), sys.argv[3]
def figures(which):
    runs = [json.load(open(f"{out}/{which}-{r}.json")) for r in range(1, rounds + 1)]
    table = {}
    for run in runs:
        for m in run["measurements"]:
            v = m["values"]
            unit = "plies_per_s" if "plies_per_s" in v else "games_per_s"
            if unit not in v:
                continue
            table.setdefault((m["section"], m["name"], unit), []).append(v[unit])
    return table, runs[0]["machine"]
base, machine = figures("base")
new, _ = figures("new")
print(f"machine: {machine.get('threads', '?')} threads, {machine.get('processor', '?')}; {', '.join(machine.get('vector_extensions', []))}")
print(f"base {rev} against the working tree, {rounds} alternated rounds; medians")
section = None
for key, b in base.items():
    if key not in new:
        continue
    s, name, unit = key
    if s != section:
        print(s)
        section = s
    mb, mn = statistics.median(b), statistics.median(new[key])
    unit_name = unit.replace("_per_s", "/s")
    print(f"  {name:<44} {mb:>14,.0f} -> {mn:>14,.0f} {unit_name:<9} x{mn / mb:.2f}")
PY
