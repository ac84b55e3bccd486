#!/usr/bin/env bash
# Golden comparison of two builds of mancala-lab: runs one matrix of `stats`, `stats merge`,
# `match` and `match merge` commands with each binary and checks that every file written, every
# standard output, every standard error and every exit code is the same, byte for byte.
#
#   bash experiments/golden/compare.sh OLD_BIN NEW_BIN
#
# Prints one line per case (`same` or `DIFFERS: what`) and a count; exits 1 if anything differs
# (the scratch folder is then kept, and named, for a look with diff). GOLDEN_KEEP=1 keeps it
# always. See README.md beside this script for what is compared and what is normalized.
set -euo pipefail

usage() {
    echo "usage: $0 OLD_BIN NEW_BIN" >&2
    exit 2
}
[ $# -eq 2 ] || usage
for b in "$1" "$2"; do
    [ -f "$b" ] && [ -x "$b" ] || { echo "$0: $b: not an executable file" >&2; exit 2; }
done
command -v python3 >/dev/null || { echo "$0: python3 is needed (manifest checks)" >&2; exit 2; }
OLD_BIN=$(readlink -f "$1")
NEW_BIN=$(readlink -f "$2")

started=$SECONDS
root=$(mktemp -d "${TMPDIR:-/tmp}/mancala-golden.XXXXXX")
keep=${GOLDEN_KEEP:-0}
cleanup() {
    if [ "$keep" = 1 ]; then
        echo "scratch folder kept: $root" >&2
    else
        rm -rf "$root"
    fi
}
trap cleanup EXIT

# The same environment for both builds. The free space is fixed so that the space check reads
# one figure on both sides (one case sets a small one to see the refusal); no terminal, so no
# progress bar (stdin from /dev/null, stdout and stderr to files).
export LC_ALL=C
export MANCALA_LAB_FREE_SPACE=$((1 << 40))
unset MANCALA_LAB_BATCH_PATH MANCALA_LAB_DB
LIMIT=600 # seconds: a command that hangs is stopped (exit 124 or 137) and differs

# ---------------------------------------------------------------------------------------------
# Running one side. Each binary is a symbolic link named `mancala-lab` in a bin folder of its
# own, put first on PATH, so that argv[0] (recorded in manifest.json and match.json as `command`)
# is `mancala-lab` on both sides. Each side runs in the same folder, $root/run, which is then
# renamed to $root/old or $root/new: the relative --out paths match, and so would an absolute
# path that a message might show.

CASES=()   # case names, in order
CASE=''    # the case being run
N=0        # commands of the case so far
RUN=''     # $root/run

# begin NAME: a new case, run in its own folder cases/NAME (its output tree).
begin() {
    CASE=$1
    N=0
    CASES+=("$1")
    mkdir "$RUN/cases/$CASE" "$RUN/logs/$CASE"
}

# run ARGS...: `mancala-lab ARGS` in the case folder; stdout, stderr and exit code compared.
run() {
    N=$((N + 1))
    local log="$RUN/logs/$CASE/$N" rc=0 t0=$EPOCHREALTIME
    printf '%q ' mancala-lab "$@" >"$log.cmd"
    (cd "$RUN/cases/$CASE" && exec timeout -k 10 "$LIMIT" mancala-lab "$@") \
        </dev/null >"$log.out" 2>"$log.err" || rc=$?
    echo "$rc" >"$log.rc"
    echo "$t0 $EPOCHREALTIME" >"$log.time" # not compared
}

# resume ARGS...: as run, for the --resume of an interrupted job: the games it plays depend on
# where the job was stopped, so its stderr (`K games in T s`) is not compared; its stdout (the
# summary of all the games) and exit code are, and the exit code must be 0.
resume() {
    run "$@"
    touch "$RUN/logs/$CASE/$N.err-unchecked" "$RUN/logs/$CASE/$N.must-succeed"
}

# interrupt SECS COUNT ARGS...: starts `mancala-lab ARGS` and sends it COUNT SIGINTs (1: it stops
# after the games under way; 2: the second one stops it at once) SECS seconds later. Where it
# stops depends on timing: nothing of it is compared but the files left after the --resume
# that follows (in which stale temporary files of a process stopped at once are not compared:
# see the comparison). How it stopped, and its exit code, are shown in the case's line.
# Not `timeout -s INT`: GNU timeout signals the command and then its own process group, so the
# job would get two SIGINTs where one was meant.
interrupt() {
    local secs=$1 count=$2
    shift 2
    N=$((N + 1))
    local log="$RUN/logs/$CASE/$N"
    printf 'interrupted after %s s (%s SIGINT): ' "$secs" "$count" >"$log.cmd"
    printf '%q ' mancala-lab "$@" >>"$log.cmd"
    (
        cd "$RUN/cases/$CASE"
        mancala-lab "$@" </dev/null >"$log.out" 2>"$log.err" &
        pid=$!
        sleep "$secs"
        kill -INT "$pid" 2>/dev/null || true
        if [ "$count" = 2 ]; then
            # A millisecond later: sooner, the two signals often merge into one; later, the
            # first has often stopped the job already.
            sleep 0.001
            kill -INT "$pid" 2>/dev/null || true
        fi
        rc=0
        wait "$pid" || rc=$?
        echo "$rc" >"$log.rc"
    )
    touch "$log.unchecked" "$RUN/logs/$CASE/interrupted"
}

# same_files DIR_A DIR_B FILE...: a check inside one side (e.g. --threads 1 and 2 write the same
# files); its verdict is compared like a command's and must be a success on both sides.
same_files() {
    local a=$1 b=$2 f verdict=0
    shift 2
    N=$((N + 1))
    local log="$RUN/logs/$CASE/$N"
    echo "check: $a and $b hold the same $*" >"$log.cmd"
    : >"$log.out"
    : >"$log.err"
    for f in "$@"; do
        if ! cmp -s "$RUN/cases/$CASE/$a/$f" "$RUN/cases/$CASE/$b/$f"; then
            echo "$a/$f and $b/$f differ" >>"$log.out"
            verdict=1
        fi
    done
    echo "$verdict" >"$log.rc"
    touch "$log.must-succeed"
}

# In the case folder (for setting a case up: a file of the user's, a copy).
here() { (cd "$RUN/cases/$CASE" && "$@"); }

# ---------------------------------------------------------------------------------------------
# The matrix. Small game counts: the whole run (both builds) takes a couple of minutes on two
# cores. --threads is given (but in one case) so that the manifests do not depend on the cores.

STUDY_FILES=(games.csv clauses.csv summary.csv)

matrix() {
    local g e p

    # Every game x engine x policy.
    for g in bao oware kalah; do
        for e in optimized reference; do
            begin "stats-$g-$e-random"
            run stats --game "$g" --engine "$e" --games 300 --threads 2 --out s
            begin "stats-$g-$e-greedy"
            run stats --game "$g" --engine "$e" --policy greedy --games 100 --threads 2 --out s
            begin "stats-$g-$e-random-greedy"
            run stats --game "$g" --engine "$e" --policy random/greedy --games 100 --threads 1 --out s
            begin "stats-$g-$e-alphabeta"
            run stats --game "$g" --engine "$e" --policy alphabeta:depth=2 --games 10 --threads 2 --out s
            begin "stats-$g-$e-mcts"
            if [ "$g/$e" = bao/reference ]; then
                # The reference Bao engine takes seconds a game at sims=50 (its sowings run
                # long in the rollouts): fewer simulations, games cut at 30 plies.
                run stats --game "$g" --engine "$e" --policy mcts:sims=20 --games 2 --max-plies 30 --threads 2 --out s
            else
                run stats --game "$g" --engine "$e" --policy mcts:sims=50 --games 4 --threads 2 --out s
            fi
        done
    done

    # Other policies and each side its own.
    begin stats-oware-south-north
    run stats --game oware --south alphabeta:depth=2 --north random --games 20 --threads 2 --out s
    begin stats-oware-policy-then-north
    run stats --game oware --policy greedy --north mcts:sims=20 --games 5 --threads 2 --out s
    begin stats-kalah-search
    run stats --game kalah --policy search --games 100 --threads 2 --out s
    begin stats-bao-search-reference
    run stats --game bao --engine reference --policy search --games 20 --threads 2 --out s
    begin stats-bao-mcts-settings
    run stats --game bao --policy mcts:sims=30,c=1.5,solve=false --games 3 --threads 2 --out s

    # Readings.
    begin stats-bao-literal-en
    run stats --game bao --variant literal-en --games 200 --threads 2 --out s
    begin stats-bao-engines-greedy
    run stats --game bao --variant engines --policy greedy --games 100 --threads 2 --out s
    begin stats-bao-strict
    run stats --game bao --variant strict --games 100 --threads 2 --out s
    begin stats-oware-abapa
    run stats --game oware --variant abapa --games 300 --threads 2 --out s
    begin stats-oware-strict
    run stats --game oware --variant strict --policy greedy --games 100 --threads 2 --out s
    begin stats-oware-grand-slam
    run stats --game oware --variant sheet:no-allowed-move=allow-grand-slam --games 200 --threads 2 --out s
    begin stats-kalah-empty-capture
    run stats --game kalah --variant empty-capture --games 200 --threads 2 --out s
    begin stats-kalah-4x3
    run stats --game kalah --variant openspiel:pits=4,seeds=3 --engine reference --games 200 --threads 2 --out s
    begin stats-kalah-no-sweep
    run stats --game kalah --variant no-sweep --policy greedy --games 100 --threads 2 --out s

    # Openings, ply limits, seeds, counts.
    begin stats-bao-opening
    run stats --game bao --policy alphabeta:depth=2 --opening 4 --games 20 --threads 2 --out s
    begin stats-oware-abapa-opening
    run stats --game oware --variant abapa --policy alphabeta:depth=2 --opening 4 --games 20 --threads 2 --out s
    begin stats-bao-max-plies
    run stats --game bao --max-plies 30 --games 100 --threads 2 --out s
    begin stats-oware-max-plies-opening
    run stats --game oware --policy greedy --max-plies 40 --opening 6 --games 50 --threads 2 --out s
    begin stats-kalah-max-plies-reference
    run stats --game kalah --engine reference --max-plies 10 --games 50 --threads 2 --out s
    begin stats-seed
    run stats --game oware --seed 7 --games 300 --threads 2 --out s
    begin stats-games-0
    run stats --game kalah --games 0 --threads 1 --out s
    begin stats-games-1
    run stats --game bao --games 1 --threads 1 --out s
    begin stats-default-threads
    run stats --game kalah --games 100 --out s
    begin stats-default-out
    run stats --game oware --games 50 --threads 1

    # --threads 1 and 2: the same files on each side.
    begin threads-bao-random
    run stats --game bao --games 500 --threads 1 --out t1
    run stats --game bao --games 500 --threads 2 --out t2
    same_files t1 t2 "${STUDY_FILES[@]}"
    begin threads-oware-random-batch
    run stats --game oware --games 3000 --threads 1 --out t1
    run stats --game oware --games 3000 --threads 2 --out t2
    same_files t1 t2 "${STUDY_FILES[@]}"
    begin threads-oware-greedy-reference
    run stats --game oware --engine reference --policy greedy --games 200 --threads 1 --out t1
    run stats --game oware --engine reference --policy greedy --games 200 --threads 2 --out t2
    same_files t1 t2 "${STUDY_FILES[@]}"
    begin threads-kalah-mcts
    run stats --game kalah --policy mcts:sims=50 --games 6 --threads 1 --out t1
    run stats --game kalah --policy mcts:sims=50 --games 6 --threads 2 --out t2
    same_files t1 t2 "${STUDY_FILES[@]}"

    # Shards and merges.
    begin shards-oware
    for k in 1 2 3; do
        run stats --game oware --policy greedy --games 100 --shard "$k/3" --threads 1 --out "s$k"
    done
    run stats merge --out all s1 s2 s3
    run stats merge --out all2 s3 s1 s2
    run stats --game oware --policy greedy --games 100 --threads 1 --out whole
    same_files all whole "${STUDY_FILES[@]}"
    run stats merge --out missing s1 s3
    run stats merge --out all s1 s2 s3
    run stats merge --force --out all s1 s2 s3
    run stats merge --force --out whole s1 s2 s3
    run stats merge --out s1 s1 s2 s3
    run stats merge --out twice s1 s1 s2 s3
    run stats merge --out none
    run stats --resume --out s2
    begin shards-bao-empty
    for k in 1 2 3; do
        run stats --game bao --games 2 --shard "0$k/03" --threads 1 --out "s$k"
    done
    run stats merge --out all s1 s2 s3
    begin shards-mismatched
    run stats --game kalah --games 60 --shard 1/2 --threads 1 --out a1
    run stats --game kalah --games 60 --shard 2/2 --seed 2 --threads 1 --out a2
    run stats --game kalah --games 60 --shard 2/2 --threads 1 --out b2
    run stats --game kalah --games 60 --shard 1/2 --threads 1 --out c1
    here cp c1/games.csv c1/games.csv.orig
    here sed -i -E '3{s/0$/1/;t;s/.$/0/}' c1/games.csv # a row's last digit changed
    run stats merge --out m1 a1 a2
    run stats merge --out m2 c1 b2
    run stats merge --out m3 a1 b2
    begin shards-reference
    for k in 1 2; do
        run stats --game bao --engine reference --policy greedy --games 40 --shard "$k/2" --threads 2 --out "s$k"
    done
    run stats merge --out all s2 s1

    # Safeguards and errors of a run.
    begin resume-differs
    run stats --game kalah --games 50 --threads 1 --out s
    run stats --resume --out s --games 60
    run stats --resume --out s --policy greedy
    run stats --resume --out s --game bao
    run stats --resume --out s --threads 2
    begin resume-finished
    run stats --game bao --policy greedy --games 50 --threads 2 --out s
    run stats --resume --out s
    run stats --resume --out s --threads 1
    begin resume-nothing
    run stats --resume --out s
    run stats --resume --force --out s
    begin force-over-run
    run stats --game oware --games 100 --threads 1 --out s
    run stats --game oware --games 100 --threads 1 --out s
    run stats --game bao --games 40 --threads 1 --out s --force
    here mkdir u
    here sh -c 'echo "not a study" > u/summary.csv'
    run stats --game bao --games 10 --threads 1 --out u --force
    run stats --game bao --games 10 --threads 1 --out u
    begin bad-options
    here touch afile
    run stats --game oware --games 20 --threads 1 --out afile
    run stats --game oware --games 20 --threads 1 --out -
    run stats --game oware --games 20 --threads 1 --shard 0/3 --out s
    run stats --game oware --games 20 --threads 1 --shard 4/3 --out s
    run stats --game oware --games 20 --threads 1 --shard x/3 --out s
    run stats --game oware --games 20 --threads 1 --max-plies 0 --out s
    run stats --game oware --games 20 --threads 1 --opening 5 --max-plies 5 --out s
    run stats --game oware --games 20 --threads 1 --opening 9 --max-plies 5 --out s
    run stats --game bao --variant sheet --games 20 --threads 1 --out s
    run stats --game kalah --variant bogus --games 20 --threads 1 --out s
    run stats --game oware --variant sheet:bogus=1 --games 20 --threads 1 --out s
    run stats --game bao --variant strict --engine optimized --games 20 --threads 1 --out s
    run stats --game oware --policy alphabeta:depth=0 --games 20 --threads 1 --out s
    run stats --game oware --policy nonsense --games 20 --threads 1 --out s
    run stats --game oware --games -5 --threads 1 --out s
    run stats --game oware --games 20 --threads 0 --out s
    run stats --game oware --games 20 --threads 65 --out s
    run stats --game chess --games 20 --threads 1 --out s
    begin free-space
    MANCALA_LAB_FREE_SPACE=1000 run stats --game oware --games 100 --threads 1 --out s
    MANCALA_LAB_FREE_SPACE=1000 run stats --game oware --games 100 --threads 1 --out s --no-space-check
    MANCALA_LAB_FREE_SPACE=lots run stats --game oware --games 100 --threads 1 --out s2
    begin parse-only
    run --parse-only stats --game bao --games 100000000 --shard 3/8 --out s
    run --parse-only stats --game bao --shard 0/3 --out s
    run --parse-only stats --game oware --variant strict --engine optimized --out s
    run --parse-only stats merge --out s a b
    run --parse-only match --game oware --players random greedy --shard 2/2 --out m
    run --parse-only match --game oware --players random --out m

    # Interrupted and resumed: only the files after --resume are compared (and its stdout).
    begin interrupt-once
    interrupt 0.5 1 stats --game bao --engine reference --games 1500 --threads 2 --out s
    resume stats --resume --out s
    run stats --resume --out s
    begin interrupt-twice
    interrupt 0.5 2 stats --game oware --engine reference --games 3000 --threads 2 --out s
    resume stats --resume --out s --threads 1
    run stats --resume --out s

    # Matches.
    begin match-oware-3
    run match --game oware --players random greedy alphabeta:depth=1 --games 4 --threads 2 --out m
    run match --resume --out m
    run match --game oware --players random greedy alphabeta:depth=1 --games 4 --threads 2 --out m
    run match --game oware --players random greedy --games 3 --threads 2 --out m --force
    run stats --game oware --games 3 --threads 1 --out m
    begin match-oware-opening
    run match --game oware --variant abapa --players greedy mcts:sims=20,c=1.5 search --games 4 --opening 2 --max-plies 100 --threads 2 --out m
    begin match-kalah
    run match --game kalah --players random search --games 10 --threads 1 --out m
    begin match-bao
    run match --game bao --players random greedy alphabeta:depth=1 --games 4 --seed 3 --threads 2 --out m
    begin match-shards
    run match --game oware --players random greedy alphabeta:depth=1 --games 5 --shard 1/2 --threads 1 --out p1
    run match --game oware --players random greedy alphabeta:depth=1 --games 5 --shard 2/2 --threads 1 --out p2
    run match merge --out all p1 p2
    run match --game oware --players random greedy alphabeta:depth=1 --games 5 --threads 1 --out whole
    same_files all whole games.csv ratings.csv pairs/{1-2,2-1,1-3,3-1,2-3,3-2}/{games,clauses,summary}.csv
    run match merge --out missing p2
    run match merge --out all p1 p2
    run match merge --force --out all p2 p1
    run match --game oware --players random greedy alphabeta:depth=1 --games 5 --shard 3/2 --threads 1 --out p3
    run match --game oware --players random greedy --games 5 --shard 2/2 --threads 1 --out q2
    run match merge --out mixed p1 q2
    run stats merge --out wrong p1 p2
    begin match-shards-empty
    for k in 1 2 3; do
        run match --game kalah --players random greedy --games 2 --shard "$k/3" --threads 1 --out "p$k"
    done
    run match merge --out all p3 p2 p1
    begin match-errors
    run match --game oware --players random --games 3 --threads 1 --out m
    run match --game oware --players random greedy --games 3 --threads 1 --out m
    run match --resume --out m --games 9
    run match --resume --out m --players random search
    run match --resume --out m --game kalah
    run match --resume --out nothing
    run match --resume --out m --threads 2
    # A pairing's folder holding another job (seed 5): the match's resume names the option.
    run stats --game oware --policy random/greedy --games 3 --threads 1 --out m/pairs/1-2 --force
    run stats --game oware --policy random/greedy --games 3 --seed 5 --threads 1 --out x
    here rm -r m/pairs/1-2
    here mv x m/pairs/1-2
    run match --resume --out m
    # A shard missing a pairing's manifest: refused by the merge.
    run match --game oware --players random greedy --games 4 --shard 1/2 --threads 1 --out p1
    run match --game oware --players random greedy --games 4 --shard 2/2 --threads 1 --out p2
    here rm p2/pairs/2-1/manifest.json
    run match merge --out all p1 p2
    run match --game oware --players random bogus --games 3 --threads 1 --out m2
    run match --game oware --players random greedy --games 3 --max-plies 0 --threads 1 --out m3
    run match --game oware --players random greedy --games 3 --shard 0/2 --threads 1 --out m4
    run match --game oware --players random greedy --games 3 --threads 1 --out -
    begin match-interrupt
    interrupt 0.5 1 match --game oware --players greedy alphabeta:depth=5 mcts:sims=200 --games 30 --threads 2 --out m
    resume match --resume --out m
    run match --resume --out m
}

# ---------------------------------------------------------------------------------------------
# Comparison.

# The commit each build records (manifest.json's `commit`), read from a study of no games.
build_commit() {
    local dir="$root/commit-$1"
    mkdir "$dir"
    (cd "$dir" && PATH="$root/bin-$1:$PATH" mancala-lab stats --game kalah --games 0 --threads 1 --out s) \
        </dev/null >/dev/null 2>&1
    python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["commit"])' "$dir/s/manifest.json"
}

# normalize SIDE COMMIT: writes, for every manifest.json, match.json and .lock under
# $root/SIDE/cases, a normalized copy at the same path under $root/SIDE/norm, which is what is
# compared for those files; lists in $root/SIDE/crc-bad the manifests whose manifest_crc32 is
# not the CRC-32 of their other fields. (One Python process a side: a pyenv shim costs a tenth
# of a second a start.)
#
# manifest.json and match.json: `commit` is the commit the binary was built from (build.rs), so
# two builds differ there by construction (the new one may also say -dirty), and
# `manifest_crc32` is the CRC-32 of every other field, commit included, so it differs with it.
# The commit is replaced only where it is this build's own (any other value is kept, and then
# differs); the CRC is replaced only once it is checked to be the CRC of the file's own other
# fields, so nothing is left out but what the commit makes it. Everything else (command,
# version, threads, the job, counts, the rows' CRC, the layout of the text) stays byte for byte.
# (match.json records no commit today; were it to, it would be treated the same way.)
#
# .lock: `PROCESS HOST`, the holder of a folder's lock; a merge leaves the file of its shared
# hold in each shard. The process number differs from run to run and is replaced; the rest is
# kept (a file that is not `NUMBER TEXT` is kept whole).
normalize() {
    python3 - "$root/$1" "$2" <<'EOF'
import json, os, re, sys, zlib
side, commit = sys.argv[1], sys.argv[2]
cases, norm = os.path.join(side, 'cases'), os.path.join(side, 'norm')
bad = []
for top, dirs, files in os.walk(cases):
    for name in files:
        if name not in ('manifest.json', 'match.json', '.lock'):
            continue
        path = os.path.join(top, name)
        rel = os.path.relpath(path, cases)
        raw = open(path, 'rb').read()
        if name == '.lock':
            out = re.sub(rb'\A[0-9]+ ', b'<pid> ', raw)
        else:
            try:
                text = raw.decode('utf-8')
                d = json.loads(text)
            except ValueError:
                continue                  # not JSON: compared as it is
            if isinstance(d, dict) and 'manifest_crc32' in d:
                crc = d.pop('manifest_crc32')
                compact = json.dumps(d, separators=(',', ':'), ensure_ascii=False)
                if zlib.crc32(compact.encode('utf-8')) != crc:
                    bad.append(rel)
                    continue              # compared as it is (and reported)
            text = re.sub(r'(?m)^  "commit": "' + re.escape(commit) + r'"(,?)$',
                          r'  "commit": "<this build>"\1', text)
            text = re.sub(r'(?m)^  "manifest_crc32": [0-9]+$', r'  "manifest_crc32": <checked>', text)
            out = text.encode('utf-8')
        dest = os.path.join(norm, rel)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        open(dest, 'wb').write(out)
with open(os.path.join(side, 'crc-bad'), 'w') as f:
    f.writelines(b + '\n' for b in bad)
EOF
}

# norm_err FILE: stderr without timing: the seconds of `...: N games in T s` replaced (the rest of
# the line, the engine and the count, is kept), `estimate:` lines (from a timed pilot) dropped.
norm_err() {
    sed -E -e 's/ in [0-9]+(\.[0-9]+)? s$/ in <T> s/' -e '/^estimate: /d' "$1"
}

# The files and folders under a case's output tree, one `TYPE PATH` a line; stale temporary
# files (`.NAME.XXXXXX.tmp`) are left out only where the case was interrupted ($2 = 1).
tree_list() {
    (cd "$1" && find . -mindepth 1 -printf '%y %P\n' | LC_ALL=C sort) |
        if [ "$2" = 1 ]; then grep -Ev '^f (.*/)?\.[^/]*\.tmp$' || true; else cat; fi
}

# how_stopped LOG: how an interrupted command ended (for the case's line; not compared).
how_stopped() {
    local rc
    rc=$(cat "$1.rc")
    if [ "$rc" = 0 ]; then
        echo "finished before the signal"
    elif grep -q '^interrupted; continue with' "$1.err"; then
        echo "stopped at once, exit $rc"
    else
        echo "stopped after the games under way, exit $rc"
    fi
}

# compare_case NAME: prints `same` or `DIFFERS: ...` for the case; returns 1 if it differs.
compare_case() {
    local name=$1 o="$root/old" n="$root/new" problems=() note=''
    local lo="$o/logs/$name" ln="$n/logs/$name"
    local interrupted=0
    [ -e "$lo/interrupted" ] && interrupted=1
    local k cmd
    for ((k = 1; ; k++)); do
        [ -e "$lo/$k.cmd" ] || [ -e "$ln/$k.cmd" ] || break
        if ! cmp -s "$lo/$k.cmd" "$ln/$k.cmd"; then
            problems+=("command $k not the same on both sides (harness)")
            continue
        fi
        cmd=$(cat "$lo/$k.cmd")
        local ro rn
        ro=$(cat "$lo/$k.rc")
        rn=$(cat "$ln/$k.rc")
        if [ -e "$lo/$k.unchecked" ]; then
            note+=" (interrupted: old $(how_stopped "$lo/$k"), new $(how_stopped "$ln/$k"))"
            continue
        fi
        [ "$ro" = "$rn" ] || problems+=("exit code $ro -> $rn of [$cmd]")
        if [ -e "$lo/$k.must-succeed" ] && { [ "$ro" != 0 ] || [ "$rn" != 0 ]; }; then
            problems+=("exit codes $ro, $rn, not 0, of [$cmd]")
        fi
        cmp -s "$lo/$k.out" "$ln/$k.out" || problems+=("stdout of [$cmd]")
        if [ ! -e "$lo/$k.err-unchecked" ] &&
            ! cmp -s <(norm_err "$lo/$k.err") <(norm_err "$ln/$k.err"); then
            problems+=("stderr of [$cmd]")
        fi
    done

    local co="$o/cases/$name" cn="$n/cases/$name"
    if ! cmp -s <(tree_list "$co" "$interrupted") <(tree_list "$cn" "$interrupted"); then
        local only
        only=$(diff <(tree_list "$co" "$interrupted") <(tree_list "$cn" "$interrupted") |
            sed -nE 's/^< (.*)/old only: \1/p; s/^> (.*)/new only: \1/p' | paste -sd ';' -)
        problems+=("file names: $only")
    fi
    local type path a b
    while read -r type path; do
        [ "$type" = f ] || continue
        [ -f "$cn/$path" ] || continue
        a="$co/$path"
        b="$cn/$path"
        grep -qxF "$name/$path" "$o/crc-bad" &&
            problems+=("old $path: manifest_crc32 is not the CRC-32 of its fields")
        grep -qxF "$name/$path" "$n/crc-bad" &&
            problems+=("new $path: manifest_crc32 is not the CRC-32 of its fields")
        # The normalized copy where there is one (see normalize), on both sides or neither.
        [ -e "$o/norm/$name/$path" ] && a="$o/norm/$name/$path"
        [ -e "$n/norm/$name/$path" ] && b="$n/norm/$name/$path"
        cmp -s "$a" "$b" || problems+=("$path")
    done < <(tree_list "$co" "$interrupted")

    if [ ${#problems[@]} -eq 0 ]; then
        printf 'same     %s%s\n' "$name" "$note"
        return 0
    fi
    local joined
    joined=$(printf '%s; ' "${problems[@]}")
    printf 'DIFFERS  %s: %s%s\n' "$name" "${joined%; }" "$note"
    return 1
}

# ---------------------------------------------------------------------------------------------

play_side() {
    local side=$1
    RUN="$root/run"
    CASES=()
    mkdir "$RUN" "$RUN/cases" "$RUN/logs"
    PATH="$root/bin-$side:$PATH" matrix
    mv "$RUN" "$root/$side"
    printf '%s\n' "${CASES[@]}" >"$root/$side.cases"
}

for side in old new; do
    mkdir "$root/bin-$side"
done
ln -s "$OLD_BIN" "$root/bin-old/mancala-lab"
ln -s "$NEW_BIN" "$root/bin-new/mancala-lab"
COMMIT_OLD=$(build_commit old)
COMMIT_NEW=$(build_commit new)

echo "old: $OLD_BIN (commit $COMMIT_OLD)"
echo "new: $NEW_BIN (commit $COMMIT_NEW)"
t=$SECONDS
play_side old
echo "old build: matrix played in $((SECONDS - t)) s"
t=$SECONDS
play_side new
echo "new build: matrix played in $((SECONDS - t)) s"

normalize old "$COMMIT_OLD"
normalize new "$COMMIT_NEW"
if ! cmp -s "$root/old.cases" "$root/new.cases"; then
    echo "the two sides ran different cases (harness error)" >&2
    exit 2
fi
same=0
differ=0
while read -r name; do
    if compare_case "$name"; then
        same=$((same + 1))
    else
        differ=$((differ + 1))
    fi
done <"$root/old.cases"

echo "$((same + differ)) cases: $same same, $differ differ ($((SECONDS - started)) s)"
if [ "$differ" -gt 0 ]; then
    keep=1
    exit 1
fi
