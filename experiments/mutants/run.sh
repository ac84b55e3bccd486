#!/usr/bin/env bash
# Mutation-checked clause coverage: cargo-mutants mutates the clause code (.cargo/mutants.toml),
# runs the tests against each mutant, and `mancala-lab coverage --mutants` reports per clause the
# mutants caught, missed, excused and unviable; it fails on a missed mutant in a normative clause's
# code that has no `// mutant: excused REASON`.
#
#   experiments/mutants/run.sh [--shard K/N [--sharding slice|round-robin]] [--file PATH]...
#                              [--re REGEX]... [--optimized] [--in-place] [--out DIR]
#
# --shard K/N  one of N slices of the mutants (K from 0), as cargo-mutants numbers them
# --sharding M how the shards are cut: `slice` (the default: consecutive mutants) or
#              `round-robin` (every Nth mutant from the Kth: no shard is empty while N is below
#              the number of mutants)
# --file PATH  only the mutants of this file (repeatable; it must be one of the examined files)
# --re REGEX   only the mutants whose name (as `cargo mutants --list` shows it) matches (repeatable),
#              e.g. to run again the ones a new test should now catch
# --optimized  mutate the optimized engines instead (bao/fast.rs, oware/fast.rs, oware/batch.rs),
#              whose mutants the differential and batch checks must catch (reports the share)
# --in-place   mutate this tree itself rather than a copy (cargo-mutants' --in-place): the build
#              of one run serves the next, so shards run one after another skip the first build;
#              leave the tree alone while it runs (a stopped run can leave a file mutated);
#              proptest's regression files left by an earlier run are removed first, so that
#              one run's failures are not replayed against the next run's mutants
# --out DIR    where the results go (default target/mutants): DIR/mutants.out/outcomes.json,
#              and DIR/sources/, a copy of the mutated files as they were, which
#              `mancala-lab coverage --record DIR` needs to record the results
#
# Each mutant first meets the quick tests below (the engines' rule, property, regression and
# differential tests); a mutant they miss, or that runs past the time limit, meets the whole
# suite. So every outcome is what the whole suite gives, in a fraction of the time. The quick
# tests take under a minute, so a mutant that makes sowing loop is stopped after 150 s (and after
# 400 s on the whole suite) rather than holding the run for a quarter of an hour.
#
# Both stages run with MANCALA_LAB_MUTATION_RUN=1 (the quick tests too, so that none of them can
# catch what the canary lets pass): the tests that fail on a change of no
# behaviour stand aside, since they would count every such mutant caught: those that fail on any
# change to the code at all (the coverage snapshots, the recorded figures the docs print), and
# those that read the `// spec:` annotations (the coverage report's links, the verdicts of the
# docs' `coverage` examples), which a mutant that replaces a function's body deletes with it. The
# canary proves it before the mutants run: the examined files with every `// spec:` line deleted
# and a comment added (changes of no behaviour) must pass the whole suite that way, or the run
# stops (--no-canary skips it). Each outcome is marked with its stage (quick or suite), and
# `mancala-lab coverage --record` reads from each mutant's log the test that caught it (the first
# that failed, past those of mutants::ANY_CHANGE_TESTS, which catch nothing).
# Needs cargo-mutants (cargo install --locked cargo-mutants) and python3.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"

shard=() files=() res=() out=target/mutants optimized=0 config=() canary=1 inplace=()
while [ $# -gt 0 ]; do
    case "$1" in
    --no-canary) canary=0; shift ;;
    --shard) shard+=(--shard "$2"); shift 2 ;;
    --sharding) shard+=(--sharding "$2"); shift 2 ;;
    # cargo-mutants adds --file's glob to the configuration's examine_globs: without the
    # configuration, only the files named.
    --file) files+=(--file "$2"); config=(--no-config); shift 2 ;;
    --re) res+=(--re "$2"); shift 2 ;;
    --optimized) optimized=1; shift ;;
    --in-place) inplace=(--in-place); shift ;;
    --out) out="$2"; shift 2 ;;
    *) echo "run.sh: unknown argument '$1' (see the comment at the top)" >&2; exit 2 ;;
    esac
done
if [ "$optimized" = 1 ]; then
    # Without the configuration's examine_globs, which would add the clause code.
    config=(--no-config)
    files+=(--file src/bao/fast.rs --file src/oware/fast.rs --file src/oware/batch.rs)
fi
# Test binaries without debug information: each mutant links sixteen of them, and with it a
# mutant of oware/rules.rs took 42 s to build rather than 12 s.
export CARGO_PROFILE_TEST_DEBUG=0
quick=(--lib)
for t in bao_rules oware_rules bao_notation bao_props oware_props spec_examples regressions game \
    random_move fuzz_checks diff oware_batch oware_openspiel perft inconsistencies kalah_rules \
    kalah_diff kalah_openspiel; do
    quick+=("--test=$t")
done
quick_args=()
for a in "${quick[@]}"; do quick_args+=("--cargo-arg=$a"); done

if [ "${#inplace[@]}" -gt 0 ]; then
    git ls-files --others --exclude-standard -z -- '*.proptest-regressions' | xargs -0 -r rm -f
fi

# A copy of what is mutated, so that recorded results can be checked against the code they
# describe.
mkdir -p "$out"
rm -rf "$out/sources"
cargo mutants "${config[@]}" "${files[@]}" "${res[@]}" --list-files | while read -r f; do
    mkdir -p "$out/sources/$(dirname "$f")"
    cp "$f" "$out/sources/$f"
done

# cargo mutants exits 0 when all are caught, 2 when some are missed, 3 when some timed out;
# anything else is a failure of the run itself.
mutants() {
    set +e
    cargo mutants "$@"
    local status=$?
    set -e
    case "$status" in 0 | 2 | 3) ;; *) echo "cargo mutants failed (exit $status)" >&2; exit 1 ;; esac
}

# The canary: a copy of the tree in which each examined file has its `// spec:` lines deleted (as
# a mutant that replaces a function's body deletes those inside it) and a comment added must pass
# the whole suite as the mutants meet it; a test that fails on it fails on changes of no
# behaviour, and would count every such mutant caught.
if [ "$canary" = 1 ]; then
    echo "== canary: the whole suite on the examined files with their annotations deleted and a comment added"
    tree="$(mktemp -d)"
    trap 'rm -rf "$tree"' EXIT
    git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - | tar -xf - -C "$tree"
    while read -r f; do
        sed -i '/^[[:space:]]*\/\/ spec:/d' "$tree/$f"
        printf '\n// mutation canary: a comment, which changes no behaviour\n' >>"$tree/$f"
    done < <(cargo mutants "${config[@]}" "${files[@]}" --list-files)
    set +e
    # The log is written from here, where a relative --out is meant, not from the copy.
    (cd "$tree" && MANCALA_LAB_MUTATION_RUN=1 CARGO_TARGET_DIR="$root/target/canary" \
        cargo test --no-fail-fast) >"$out/canary.log" 2>&1
    status=$?
    set -e
    if [ "$status" -ne 0 ]; then
        grep -E "^test .* FAILED$|Running " "$out/canary.log" | grep -B1 FAILED >&2 || tail -30 "$out/canary.log" >&2
        echo "canary: the whole suite fails on changes that alter no behaviour (log: $out/canary.log);" >&2
        echo "such a test must stand aside under MANCALA_LAB_MUTATION_RUN, or it counts every mutant caught" >&2
        exit 1
    fi
    echo "canary: the whole suite passes on it"
fi

echo "== quick tests"
MANCALA_LAB_MUTATION_RUN=1 mutants "${config[@]}" "${inplace[@]}" "${files[@]}" "${res[@]}" "${shard[@]}" --timeout 150 --output "$out" "${quick_args[@]}"
outcomes="$out/mutants.out/outcomes.json"
if [ ! -f "$outcomes" ]; then
    echo "no mutants in this selection: nothing to check"
    exit 0
fi
# Every outcome so far is the quick stage's.
python3 - "$outcomes" <<'PY'
import json, sys
quick = json.load(open(sys.argv[1]))
for o in quick["outcomes"]:
    o["stage"] = "quick"
json.dump(quick, open(sys.argv[1], "w"), indent=1)
PY
# The mutants to send on (--re=NAME) and the files that hold them (--file=PATH).
mapfile -t again < <(python3 - "$outcomes" <<'PY'
import json, re, sys
sent = [o["scenario"]["Mutant"] for o in json.load(open(sys.argv[1]))["outcomes"]
        if isinstance(o["scenario"], dict) and o["summary"] in ("MissedMutant", "Timeout")]
for m in sent:
    print("--re=^" + re.escape(m["name"]) + "$")
for f in sorted({m["file"] for m in sent}):
    print("--file=" + f)
PY
)
mapfile -t again_files < <(printf '%s\n' "${again[@]}" | grep '^--file=' || true)
mapfile -t again < <(printf '%s\n' "${again[@]}" | grep '^--re=' || true)
if [ "${#again[@]}" -gt 0 ]; then
    echo "== the whole suite, for the ${#again[@]} mutants the quick tests missed or timed out on"
    # cargo-mutants 27.1 applies no --re to its struct-field deletions (its issue 632): they run
    # here too, and the merge below leaves their outcomes out (the quick stage's stand). Only the
    # files of the mutants sent are examined, so only those files' deletions come along (all
    # the examined files' would add 14 runs of the whole suite). The run's own --re filters stay
    # out: cargo-mutants joins --re's with "or", which would bring back every mutant they match.
    rm -rf "$out/full"
    MANCALA_LAB_MUTATION_RUN=1 mutants --no-config "${inplace[@]}" "${again_files[@]}" --timeout 400 \
        --output "$out/full" "${again[@]}"
    # The whole suite's outcome replaces the quick one, marked as the suite's, its log named from
    # the quick stage's folder.
    python3 - "$outcomes" "$out/full/mutants.out/outcomes.json" <<'PY'
import json, sys
quick, full = (json.load(open(p)) for p in sys.argv[1:])
name = lambda o: o["scenario"]["Mutant"]["name"] if isinstance(o["scenario"], dict) else None
# Only the mutants sent to the whole suite: the struct-field deletions it also ran keep the
# quick stage's outcome.
sent = {name(o) for o in quick["outcomes"] if name(o) and o["summary"] in ("MissedMutant", "Timeout")}
again = {}
for o in full["outcomes"]:
    if name(o) in sent:
        o["stage"] = "suite"
        if o.get("log_path"):
            o["log_path"] = "../full/mutants.out/" + o["log_path"]
        again[name(o)] = o
quick["outcomes"] = [again.get(name(o), o) for o in quick["outcomes"]]
json.dump(quick, open(sys.argv[1], "w"), indent=1)
PY
fi

if [ "$optimized" = 1 ]; then
    # No clauses there: the share of viable mutants caught.
    python3 - "$outcomes" <<'PY'
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
for o in outcomes:
    if isinstance(o["scenario"], dict) and o["summary"] == "MissedMutant":
        print("  missed:", o["scenario"]["Mutant"]["name"])
PY
    exit 0
fi
verdict=0
for game in bao oware kalah; do
    cargo run --release --quiet -- coverage --game "$game" --mutants "$out" >"$out/coverage-$game.txt" || verdict=1
    grep -E "MISSED|^coverage" "$out/coverage-$game.txt"
done
exit "$verdict"
