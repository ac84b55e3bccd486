#!/usr/bin/env bash
# Load on the board's API: requests a second and p50/p99 latency of its explain and move
# endpoints under wrk on loopback, beside a baseline measured in the same run (GET /api/games,
# which replays nothing), so the figures compare as ratios whatever the machine is doing.
#
#   bash experiments/board/load.sh [SECONDS] [CONNECTIONS]     (defaults: 10 s, 16)
#
# Needs wrk (Debian: apt-get install wrk) and the release binary (cargo build --release).
# Fails on any wrk error, non-2xx answer or socket error.
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-10}
connections=${2:-16}
bin=target/release/mancala-lab
command -v wrk >/dev/null || { echo "load.sh: wrk not found (apt-get install wrk)" >&2; exit 2; }
[ -x "$bin" ] || { echo "load.sh: build first: cargo build --release" >&2; exit 2; }
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT
"$bin" serve --port 0 >"$work/url" 2>"$work/log" &
server=$!
for _ in $(seq 50); do [ -s "$work/url" ] && break; sleep 0.1; done
url=$(awk '{print $3}' "$work/url")
url=${url%/}
# A Bao game 20 moves in and the capture of tests/examples/bao-capture.txt explained; an Oware
# game 30 plies in with its next move played (the page's two requests a click).
bao_start=$(python3 -c 'import json;print(json.dumps(open("tests/examples/bao-capture.txt").read()))')
cat >"$work/explain.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [[{"game":"bao","start":$bao_start,"moves":[],"move":"a5<"}]]
LUA
oware_moves=$(printf '"%s",' C f A a D e B b E d F c C f A a D e B b E d F c C f A a D e | sed 's/,$//')
cat >"$work/move.lua" <<LUA
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/json"
wrk.body = [[{"game":"oware","moves":[$oware_moves]}]]
LUA
# Check each request answers 200 before it is loaded.
for body in explain move; do
    path=$([ $body = explain ] && echo explain || echo state)
    payload=$(sed -n 's/^wrk.body = \[\[\(.*\)\]\]$/\1/p' "$work/$body.lua")
    code=$(curl -s -o /dev/null -w '%{http_code}' -H 'content-type: application/json' -d "$payload" "$url/api/$path")
    [ "$code" = 200 ] || { echo "load.sh: $path answered $code" >&2; exit 1; }
done
vectors=$(grep -m1 '^flags' /proc/cpuinfo | tr ' ' '\n' | grep -E '^(sse2|avx|avx2|avx512f|avx512bw|avx512vbmi)$' | paste -sd, -)
echo "load on $url, $seconds s each, $connections connections, 2 wrk threads; $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'); vector extensions: $vectors"
printf '%-34s %12s %10s %10s %8s\n' endpoint requests/s p50 p99 errors
run() {
    local name=$1 path=$2 script=${3:-}
    local out
    if [ -n "$script" ]; then
        out=$(wrk -t2 -c"$connections" -d"${seconds}s" --latency -s "$script" "$url$path")
    else
        out=$(wrk -t2 -c"$connections" -d"${seconds}s" --latency "$url$path")
    fi
    local rps p50 p99 errors
    rps=$(echo "$out" | awk '/Requests\/sec/ {print $2}')
    p50=$(echo "$out" | awk '$1 == "50%" {print $2}')
    p99=$(echo "$out" | awk '$1 == "99%" {print $2}')
    errors=$(echo "$out" | awk '/Non-2xx|Socket errors/ {n++} END {print n+0}')
    printf '%-34s %12s %10s %10s %8s\n' "$name" "$rps" "$p50" "$p99" "$errors"
    if [ "$errors" != 0 ]; then echo "$out" >&2; exit 1; fi
    echo "$rps" >"$work/$(echo "$name" | tr -c 'a-zA-Z0-9' '_').rps"
}
run "GET /api/games (baseline)" /api/games
run "POST /api/explain (Bao capture)" /api/explain "$work/explain.lua"
run "POST /api/state (Oware, ply 30)" /api/state "$work/move.lua"
rps_of() { cat "$work/$(echo "$1" | tr -c 'a-zA-Z0-9' '_').rps"; }
base=$(rps_of "GET /api/games (baseline)")
for name in "POST /api/explain (Bao capture)" "POST /api/state (Oware, ply 30)"; do
    python3 -c "import sys; print(f'{sys.argv[1]}: {float(sys.argv[2])/float(sys.argv[3]):.3f} of the baseline')" \
        "$name" "$(rps_of "$name")" "$base"
done
