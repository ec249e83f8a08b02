#!/usr/bin/env bash
# Benchmark of a process's first page (prints figures; no pass/fail): `chaff clean --rules FILE
# --include-pending` on one small JSON Lines document, the whole process timed, RUNS runs of each binary
# alternating (so a change in the machine's load falls on both alike), the median and quartiles of each.
# The rules file is a source mined from a shared corpus (default: dragnet's washingtonpost.com, about 330 rules),
# mined once by the first binary.
#
#   scripts/bench-first-page.sh [RUNS] [CHAFF_BIN…]     (defaults: 40 target/release/chaff)
#   CORPUS=../shared/corpora/dragnet/nytimes.com scripts/bench-first-page.sh 40 A/chaff B/chaff
set -euo pipefail
runs=${1:-40}
shift || true
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=(target/release/chaff)
corpus=${CORPUS:-../shared/corpora/dragnet/washingtonpost.com}
for b in "${bins[@]}"; do [ -x "$b" ] || { echo "$b: no chaff binary (cargo build --release)"; exit 1; }; done
[ -d "$corpus" ] || { echo "$corpus: no such corpus (the shared corpora are missing)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"${bins[0]}" mine "$corpus" --rules-dir "$tmp/rules" > /dev/null 2>&1
rules=$(ls "$tmp"/rules/*.toml)
echo "rules file: $(grep -c '^\[\[rule\]\]' "$rules") rules, $(wc -c < "$rules") bytes"
echo '{"id":"a","text":"<html><body><p>A small page, its first paragraph.</p></body></html>"}' > "$tmp/one.jsonl"

# times in microseconds, one file a binary
for ((r = 0; r < runs; r++)); do
  for i in "${!bins[@]}"; do
    start=$EPOCHREALTIME
    "${bins[$i]}" clean --rules "$rules" --include-pending < "$tmp/one.jsonl" > /dev/null
    end=$EPOCHREALTIME
    echo $(( (${end/./} - ${start/./}) )) >> "$tmp/times.$i"
  done
done
for i in "${!bins[@]}"; do
  sort -n "$tmp/times.$i" | awk -v b="${bins[$i]}" '{t[NR] = $1} END {
    printf "%-50s median %6.2f ms  (quartiles %.2f–%.2f ms, %d runs)\n", b, t[int((NR + 1) / 2)] / 1000,
      t[int(NR / 4) + 1] / 1000, t[int(3 * NR / 4)] / 1000, NR}'
done
