#!/usr/bin/env bash
# The cluster recipes run by Slurm: starts a one-node cluster (slurm.sh), submits a study and a
# match as job arrays with their merges (submit.sh), and checks that each merge is byte for byte
# the files one unsharded run writes; then the fault case: a study task stopped mid-run and
# requeued (`scontrol requeue`) resumes its shard and the merge is still the unsharded run's.
# Stops the cluster, leaving nothing running. Where Slurm cannot be installed it says so and
# passes (exit 0): the recipes are then untested here, not broken.
#
#   bash experiments/cluster/test.sh      (from the project root; builds the release binary)
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
cargo build --release --quiet
export MANCALA_LAB="$root/target/release/mancala-lab"
scratch="$(mktemp -d)"
cluster="$scratch/slurm"
if ! experiments/cluster/slurm.sh start "$cluster"; then
    echo "cluster test skipped: no Slurm cluster could be started on this machine"
    rm -rf "$scratch"
    exit 0
fi
trap 'experiments/cluster/slurm.sh stop "$cluster"; rm -rf "$scratch"' EXIT
export SLURM_CONF="$cluster/slurm.conf"
started=$SECONDS

fail() {
    echo "cluster test FAILED: $*" >&2
    for log in "$scratch"/*/slurm-*.out; do
        [ -f "$log" ] && { echo "--- $log" >&2; tail -5 "$log" >&2; }
    done
    exit 1
}

# Waits (up to 10 minutes) until none of the jobs is queued or running any more.
wait_jobs() {
    for _ in $(seq 600); do
        [ -z "$(squeue -h -j "$1" 2>/dev/null)" ] && return 0
        sleep 1
    done
    fail "jobs $1 still queued or running after 10 minutes"
}

# Every task of job $1 (an array or a single job) ended COMPLETED.
completed() {
    local states
    states="$(scontrol show job "$1" | grep -o 'JobState=[A-Z_]*' | sort | uniq -c)"
    [ "$(echo "$states" | grep -c .)" -eq 1 ] && echo "$states" | grep -q COMPLETED ||
        fail "job $1 did not complete: $states"
}

# The ids submit.sh printed: "array A (N tasks), merge M ...".
submit() {
    local line
    line="$(experiments/cluster/submit.sh "$@")" || fail "submit.sh $*"
    echo "$line" >&2
    array="$(echo "$line" | sed -n 's/^array \([0-9]*\) .*/\1/p')"
    merge="$(echo "$line" | sed -n 's/.*merge \([0-9]*\) .*/\1/p')"
}

# Folder $1 holds the files of folder $2 (every file under it), byte for byte; in manifest.json
# and match.json, what a run records about itself (its command line, threads, checksum) aside.
same_files() {
    python3 - "$1" "$2" <<'PY' || fail "$1 differs from the unsharded run's $2"
import json, pathlib, sys
merged, one = map(pathlib.Path, sys.argv[1:])
own = ("command", "threads", "manifest_crc32")
def job(path):
    return {k: v for k, v in json.loads(path.read_text()).items() if k not in own}
files = sorted(p.relative_to(one) for p in one.rglob("*") if p.is_file())
bad = []
for f in files:
    a, b = merged / f, one / f
    if not a.is_file():
        bad.append(f"{f} missing")
    elif f.name in ("manifest.json", "match.json"):
        if job(a) != job(b):
            bad.append(f"{f}: {job(a)} != {job(b)}")
    elif a.read_bytes() != b.read_bytes():
        bad.append(f"{f} differs")
for line in bad:
    print("  " + line, file=sys.stderr)
print(f"  {merged}: {len(files)} files, the unsharded run's")
sys.exit(1 if bad else 0)
PY
}

echo "== a study as an array of 16 tasks, then its merge"
study=(--game oware --games 3000 --seed 11)
submit study "$scratch/study" 16 "${study[@]}"
wait_jobs "$array,$merge"
completed "$array"
completed "$merge"
"$MANCALA_LAB" stats "${study[@]}" --out "$scratch/study-one" >/dev/null
same_files "$scratch/study/all" "$scratch/study-one"

echo "== a match as an array of 16 tasks (more tasks than some pairings' games), then its merge"
match=(--game oware --players random greedy search --games 10 --seed 5)
submit match "$scratch/match" 16 "${match[@]}"
wait_jobs "$array,$merge"
completed "$array"
completed "$merge"
"$MANCALA_LAB" match "${match[@]}" --out "$scratch/match-one" >/dev/null
same_files "$scratch/match/all" "$scratch/match-one"

echo "== the fault case: a task requeued mid-run resumes its shard"
fault=(--game bao --games 400000 --seed 3)
submit study "$scratch/fault" 4 "${fault[@]}"
# Task 2 once it has written games: stopped by Slurm (SIGTERM) and queued again.
for _ in $(seq 600); do
    rows="$scratch/fault/shard-2/games.csv"
    if [ -f "$rows" ] && [ "$(wc -l <"$rows")" -gt 1000 ]; then break; fi
    sleep 0.2
done
[ -f "$rows" ] || fail "task 2 wrote no games"
scontrol requeue "${array}_2" || fail "scontrol requeue ${array}_2"
echo "  task 2 requeued after $(($(wc -l <"$rows") - 1)) games"
wait_jobs "$array,$merge"
completed "$array"
completed "$merge"
grep -q "resuming" "$scratch/fault/slurm-mancala-study-${array}_2.out" ||
    fail "task 2's log does not show it resumed its shard"
"$MANCALA_LAB" stats "${fault[@]}" --out "$scratch/fault-one" >/dev/null
same_files "$scratch/fault/all" "$scratch/fault-one"

echo "cluster test passed in $((SECONDS - started)) s ($(sinfo -V), one node, $(nproc) CPUs)"
