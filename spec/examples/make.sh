#!/bin/sh
# Draws the pictures of spec/bao.md's worked examples, one per line of list.txt:
#   move:  mancala-lab bao diagram --position FILE --move MOVE --out NAME.svg
#   after: mancala-lab bao play --position FILE MOVE | mancala-lab bao diagram --position - --out NAME.svg
# The binary is $MANCALA_LAB, or the checkout's target/release/mancala-lab (cargo build --release).
# tests/spec_examples.rs fails when a committed picture differs from what this script draws now.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
bin=${MANCALA_LAB:-$here/../../target/release/mancala-lab}
case $bin in
/*) ;;
*) bin=$(pwd)/$bin ;;
esac
if [ ! -x "$bin" ]; then
    echo "make.sh: no binary at $bin (cargo build --release, or set MANCALA_LAB)" >&2
    exit 1
fi
cd "$here"
grep -v '^[[:space:]]*\(#\|$\)' list.txt | while read -r name position move clauses picture; do
    case $picture in
    move) "$bin" bao diagram --position "$position" --move "$move" --out "$name.svg" ;;
    after) "$bin" bao play --position "$position" "$move" |
        "$bin" bao diagram --position - --out "$name.svg" ;;
    *)
        echo "make.sh: $name: picture must be 'move' or 'after', not '$picture'" >&2
        exit 1
        ;;
    esac
done
