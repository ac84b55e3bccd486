#!/usr/bin/env bash
# Current performance figures: `mancala-lab bench` and, when its Python package is installed,
# OpenSpiel's C++ Oware playouts right after it; writes docs/performance.md.
# Usage, from the project root: bash experiments/bench/run.sh [SECONDS_PER_MEASUREMENT]
set -euo pipefail
secs=${1:-10}
cargo build --release --quiet
bench="$(target/release/mancala-lab bench --seconds "$secs")"
parsers="$(target/release/mancala-lab bench --parsers)"
openspiel="(not measured: python3 -c 'import pyspiel' fails here; pip install open-spiel)"
if python3 -c "import pyspiel" >/dev/null 2>&1; then
    openspiel="$(python3 experiments/openspiel/bench_playouts.py --seconds 5)"
fi
cpu="$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)"
{
    echo "# Performance"
    echo
    echo "Current figures, written by \`bash experiments/bench/run.sh $secs\` (rerun it to refresh them;"
    echo "history is in git). Ratios compare engines measured in the same run; figures from"
    echo "different days or machines do not compare."
    echo
    echo "- date: $(date -u +%Y-%m-%d)"
    echo "- commit: $(git rev-parse --short HEAD)"
    echo "- machine: $(nproc) cores, ${cpu:-unknown processor}"
    echo
    echo "## Random playouts: \`mancala-lab bench --seconds $secs\`"
    echo
    echo '```'
    echo "$bench"
    echo '```'
    echo
    echo "## OpenSpiel's C++ Oware playouts: \`python3 experiments/openspiel/bench_playouts.py --seconds 5\`"
    echo
    echo '```'
    echo "$openspiel"
    echo '```'
    echo
    echo "## Parsers: \`mancala-lab bench --parsers\`"
    echo
    echo '```'
    echo "$parsers"
    echo '```'
} > docs/performance.md
cat docs/performance.md
