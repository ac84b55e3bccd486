#!/usr/bin/env bash
# Current performance figures: `mancala-lab bench` (with --json) and, when its Python package is
# installed, OpenSpiel's C++ Oware and Kalah (`mancala`) playouts before and after it; writes the
# page of this processor's class, named by the fastest batch path it runs: docs/performance.md
# (AVX-512), docs/performance-avx2.md (AVX2 without AVX-512) or docs/performance-portable.md (any
# other), with the bench's measurements beside it as .json (for scripts that compare runs).
# Usage, from the project root: bash experiments/bench/run.sh [SECONDS_PER_MEASUREMENT]
set -euo pipefail
secs=${1:-10}
cargo build --release --quiet
openspiel() {
    if python3 -c "import pyspiel" >/dev/null 2>&1; then
        python3 experiments/openspiel/bench_playouts.py --seconds 5 "$@"
    else
        echo "(not measured: python3 -c 'import pyspiel' fails here; pip install open-spiel)"
    fi
}
before="$(openspiel)"
kalah_before="$(openspiel --game kalah)"
rm -f docs/performance.json.new
bench="$(target/release/mancala-lab bench --seconds "$secs" --json docs/performance.json.new)"
class="$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["machine"]["batch_paths"][0])' docs/performance.json.new)"
case "$class" in
    avx512) page=performance ;;
    *) page="performance-$class" ;;
esac
after="$(openspiel)"
kalah_after="$(openspiel --game kalah)"
parsers="$(target/release/mancala-lab bench --parsers)"
bao_profile="$(bash experiments/bench/bao_profile.sh 10000)"
cpu="$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)"
flags="$(python3 -c 'import json,sys; print(", ".join(json.load(open(sys.argv[1]))["machine"]["vector_extensions"]))' docs/performance.json.new)"
# The stats job on each batch path against OpenSpiel's playouts (the mean of its two runs).
table="$(python3 - docs/performance.json.new "$before" "$after" <<'PY'
import json, re, sys
report = json.load(open(sys.argv[1]))
rates = [float(m.group(1)) for t in sys.argv[2:] for m in [re.search(r"([0-9.]+) playouts/s", t)] if m]
openspiel = sum(rates) / len(rates) if rates else None
figures = {}
for m in report["measurements"]:
    reading = re.search(r"\((abapa|sheet)", m["section"])
    path = m["name"].split(":")[0]
    if not reading or "batch engine" not in m["section"]:
        continue
    key = (path, reading.group(1))
    v = m["values"]
    if "stats job" in m["name"]:
        figures.setdefault(key, {})["job"] = v["games_per_s"]
        figures[key]["share"] = v.get("engine_share")
    elif "thread" in m["name"] and not m["name"].endswith(" 1 thread"):
        figures.setdefault(key, {})["engine"] = v["games_per_s"]
print("| path | reading | engine alone, all cores | stats job, CSV included | job / engine | job / OpenSpiel |")
print("|---|---|---|---|---|---|")
for (path, reading), f in figures.items():
    share = f"{100 * f['share']:.0f}%" if f.get("share") else "n/a"
    times = f"{f['job'] / openspiel:.0f}x" if openspiel and "job" in f else "n/a"
    print(f"| {path} | {reading} | {f.get('engine', 0):,.0f} games/s | {f.get('job', 0):,.0f} games/s | {share} | {times} |")
PY
)"
# Kalah's engines, its batch engine on each path and the stats job on each, against OpenSpiel's
# mancala (the mean of its two runs); what bounds the job on the fastest path.
kalah_table="$(python3 - docs/performance.json.new "$class" "$kalah_before" "$kalah_after" <<'PY'
import json, re, sys
report = json.load(open(sys.argv[1]))
fastest = sys.argv[2]
rates = [float(m.group(1)) for t in sys.argv[3:] for m in [re.search(r"([0-9.]+) playouts/s", t)] if m]
openspiel = sum(rates) / len(rates) if rates else None
engine = job = None
print("| what plays Kalah(6,4) at random | games/s | against OpenSpiel, per core |")
print("|---|---|---|")
if openspiel:
    print(f"| OpenSpiel's C++ `mancala` random rollouts, 1 thread | {openspiel:,.0f} | 1x |")
for m in report["measurements"]:
    if not m["section"].startswith("kalah"):
        continue
    rate = m["values"]["games_per_s"]
    threads = re.search(r"(\d+) threads?", m["name"])
    cores = int(threads.group(1)) if threads else 1
    times = f"{rate / cores / openspiel:.1f}x" if openspiel else "n/a"
    print(f"| {m['name']} | {rate:,.0f} | {times} |")
    if "batch engine" in m["section"] and m["name"].startswith(fastest + ":"):
        if "stats job" in m["name"]:
            job = m["values"]
        elif not m["name"].endswith(" 1 thread"):
            engine = m["values"]
# What bounds the job: the time a game of the job less the engine's is the job's own work.
if engine and job:
    own = 1 / job["games_per_s"] - 1 / engine["games_per_s"]
    print()
    print(f"What bounds the job on the {fastest} path: the engine alone takes "
          f"{1e6 / engine['games_per_s']:.3f} µs a game on two cores, the job's own work "
          f"(games.csv, the summary, the count of distinct games) {1e6 * own:.3f} µs more "
          f"(the job's time a game less the engine's): the job runs at "
          f"{100 * job['games_per_s'] / engine['games_per_s']:.0f}% of the engine alone.")
PY
)"
mv docs/performance.json.new "docs/$page.json"
{
    echo "# Performance"
    echo
    echo "Current figures, written by \`bash experiments/bench/run.sh $secs\` (rerun it to refresh them;"
    echo "history is in git). Ratios compare engines measured in the same run; figures from"
    echo "different days or machines do not compare. The measurements are also in"
    echo "[$page.json]($page.json) (\`bench --json FILE\`)."
    echo
    echo "A page per processor class, named by the fastest batch path it runs (this one: \`$class\`):"
    echo "[performance.md](performance.md) AVX-512, [performance-avx2.md](performance-avx2.md) AVX2"
    echo "without AVX-512 (most laptops and many servers). The script writes the page of the"
    echo "processor it runs on."
    echo
    echo "- date: $(date -u +%Y-%m-%d)"
    echo "- commit: $(git rev-parse --short HEAD)"
    echo "- machine: $(nproc) cores, ${cpu:-unknown processor}; vector extensions: ${flags:-none}"
    echo
    echo "## The Oware batch engine on each path"
    echo
    echo "Every path this processor runs, measured in the same run (\`bench\` forces each in turn, as"
    echo "\`MANCALA_LAB_BATCH_PATH\` does); the stats job plays on the fastest, \`$class\`, unless"
    echo "forced. The rows of the slower paths show their code on this processor, not another"
    echo "processor's clock and caches. OpenSpiel: the mean of the two runs below."
    echo
    echo "$table"
    echo
    echo "## Kalah against OpenSpiel's \`mancala\`"
    echo
    echo "Random Kalah(6,4) games (the \`openspiel\` reading, OpenSpiel's rules exactly) from the"
    echo "\`kalah\` sections of the bench below, against OpenSpiel's C++ random rollouts of its"
    echo "\`mancala\` (the mean of the two runs below, one thread: OpenSpiel's rollout loop has no"
    echo "threads; the last column divides by the threads). The stats job plays its random games on"
    echo "the batch engine (\`src/kalah/batch/\`: 64, 32 or 16 games in the byte lanes of a vector"
    echo "register, the scalar path the word board of \`src/kalah/playout.rs\`), CSV files included;"
    echo "\`bench\` measures it on each path this processor runs (\`MANCALA_LAB_BATCH_PATH\`)."
    echo
    echo "$kalah_table"
    echo
    echo "Where the job's own time goes (\`perf record\` of \`MANCALA_LAB_BATCH_PATH=avx2 mancala-lab"
    echo "stats --game kalah --games 10000000\`, its folder on /dev/shm to leave the disk out; commit"
    echo "9163b10): the lane engine half of the samples; the rows' text (formatting and itoa) 9%,"
    echo "copies of rows and playouts 7%, the count of distinct games 4%, the end clause and winner"
    echo "compared as text 4%, the scores of each playout 4%, the games put back in order 2.4%, the"
    echo "summary 1.7%, the clause events 1.1%: no part dominates. Written to the disk of this"
    echo "machine (ext4 under a virtual machine, 342 MB/s into the page cache by \`dd\`), the file's"
    echo "68 bytes a game add the kernel's copy (a third of the samples in a run to /tmp); the same 5"
    echo "million games took 0.77 to 1.17 s to /tmp and 0.81 to 0.84 s to /dev/shm. Halving the job's"
    echo "own work would take rows written straight from the lanes' bytes, no per-game events and"
    echo "no reordering, a change of the interface every engine's playouts share."
    echo
    echo
    echo "## Random playouts: \`mancala-lab bench --seconds $secs\`"
    echo
    echo '```'
    echo "$bench"
    echo '```'
    echo
    echo "## Where a random Bao ply's work goes: \`bash experiments/bench/bao_profile.sh 10000\`"
    echo
    echo "Instructions executed by the optimized engine's random playouts, counted by valgrind's"
    echo "cachegrind (the same count on every run, where times on a shared machine are not), per ply"
    echo "and per function: \`run\` plays one move (first sowing, harvests, relay sowings, the cycle"
    echo "test, the position reached), \`random_playout\` the draw of the move (the starts allowed, the"
    echo "slot drawn, infinite moves struck off), \`captures\` the harvesting starts (once a ply, and"
    echo "for both players after a kutakata, for the kutakatia test)."
    echo
    echo '```'
    echo "$bao_profile"
    echo '```'
    echo
    echo "The sowing steps themselves (one table load and one add a relay) are a small part of a"
    echo "ply; most of it is work every ply pays whatever it sows: the starts worked out and one"
    echo "drawn, the move set up, the cycle test, the position and what the move did handed back."
    echo "A limit estimated from sowing steps alone (a few nanoseconds each) leaves that work out,"
    echo "and no single part of it dominates: the profile is flat. Batching plies of many games, as"
    echo "the Oware batch engine does, would share it out, but a Bao move runs from one sowing to"
    echo "hundreds, so most lanes would wait for the longest."
    echo
    echo "## OpenSpiel's C++ Oware playouts: \`python3 experiments/openspiel/bench_playouts.py --seconds 5\`"
    echo
    echo "Before and after the bench:"
    echo
    echo '```'
    echo "$before"
    echo "$after"
    echo '```'
    echo
    echo "## OpenSpiel's C++ Kalah playouts: \`python3 experiments/openspiel/bench_playouts.py --game kalah --seconds 5\`"
    echo
    echo "Before and after the bench:"
    echo
    echo '```'
    echo "$kalah_before"
    echo "$kalah_after"
    echo '```'
    echo
    echo "## Parsers: \`mancala-lab bench --parsers\`"
    echo
    echo '```'
    echo "$parsers"
    echo '```'
    echo
    echo "## The board's API under load: \`bash experiments/board/load.sh 10 16\`"
    echo
    echo "\`mancala-lab serve\` on loopback, loaded by wrk from the same 2 cores: an explanation (the"
    echo "page's request when a move is played) and a position 30 plies into a game, against GET"
    echo "/api/games, which replays nothing, measured in the same run; 0 errors is required."
    echo
    if command -v wrk >/dev/null 2>&1; then
        echo '```'
        bash experiments/board/load.sh 10 16
        echo '```'
    else
        echo "Not measured here: wrk is not installed (apt-get install wrk)."
    fi
    echo
    if [ "$page" = performance ]; then
        # An 8-minute build is not rerun with the bench: its figures and command are kept here.
        cat experiments/exact-play/speed.md
    else
        echo "## Endgame databases"
        echo
        echo "The builder is scalar code with no vector dispatch: see [performance.md](performance.md)."
    fi
} > "docs/$page.md"
cat "docs/$page.md"
