#!/usr/bin/env bash
# Submits a study or a match as a Slurm job array of shards, and its merge as a job that waits for
# the array (--dependency=afterok): the recipe of docs/statistics.md, "On a cluster".
#
#   experiments/cluster/submit.sh study|match OUT TASKS [OPTION...] [-- SBATCH_OPTION...]
#
# OUT      the folder (made here; must not exist): shard K goes to OUT/shard-K, the merge to OUT/all
# TASKS    the array's size: the number of shards (tasks past the games play none and still merge)
# OPTION   the job's options as `mancala-lab stats` or `mancala-lab match` takes them, without
#          --shard and --out (e.g. --game bao --games 1000000 --seed 1)
# SBATCH_OPTION  passed to both sbatch calls (e.g. --partition=long --time=2:00:00)
#
# Prints the array's job id and the merge's. The binary is MANCALA_LAB (default: the one on PATH),
# as the compute nodes see it; OUT must be on a file system they share.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ $# -lt 3 ]; then
    echo "usage: experiments/cluster/submit.sh study|match OUT TASKS [OPTION...] [-- SBATCH_OPTION...]" >&2
    exit 2
fi
kind="$1" out="$2" tasks="$3"
shift 3
case "$kind" in
study | match) ;;
*) echo "submit.sh: the first argument is study or match, not '$kind'" >&2; exit 2 ;;
esac
if ! [[ "$tasks" =~ ^[1-9][0-9]*$ ]]; then
    echo "submit.sh: TASKS is a number of array tasks from 1, not '$tasks'" >&2
    exit 2
fi
job=() sbatch_options=()
while [ $# -gt 0 ]; do
    if [ "$1" = "--" ]; then shift; sbatch_options=("$@"); break; fi
    job+=("$1")
    shift
done
if [ -e "$out" ]; then
    echo "submit.sh: $out exists; give a new folder (the shards and the merge go inside it)" >&2
    exit 2
fi
mkdir -p "$out"
out="$(cd "$out" && pwd)"
printf '%s\n' "${job[@]}" >"$out/job.args"
array=$(sbatch --parsable --array="1-$tasks" --chdir="$out" --export="ALL,OUT=$out" \
    "${sbatch_options[@]}" "$here/$kind.sbatch")
array="${array%%;*}"
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes \
    --chdir="$out" --export="ALL,OUT=$out" "${sbatch_options[@]}" "$here/$kind-merge.sbatch")
merge="${merge%%;*}"
echo "array $array ($tasks tasks), merge $merge (after the array); results in $out/all"
