#!/usr/bin/env bash
# Benchmark of routed cleaning against the single-source cleaner, for comparing builds (prints figures;
# no pass/fail): a generated crawl of HOSTS sites × PAGES pages mined once by the first binary, then RUNS
# rounds, each running every binary on every case in turn (so a change in the machine's load falls on all
# alike). Cases: `clean --rules-dir` of crawl.warc.gz and of crawl.jsonl, the single-source cleaner
# (`clean --rules ONE.toml`, one site of HOSTS × PAGES pages as JSON Lines on stdin), and that site as a
# one-source crawl.warc.gz. Each: median wall time and MB/s of page bytes, and median CPU time (user +
# system), which a loaded machine disturbs less than wall time.
#
#   scripts/bench-crawl-clean.sh [RUNS] [HOSTS] [PAGES] [CHAFF_BIN…]   (defaults: 5 1000 20 target/release/chaff)
set -euo pipefail
runs=${1:-5}
hosts=${2:-1000}
pages=${3:-20}
shift 3 || shift $#
bins=("$@")
[ ${#bins[@]} -gt 0 ] || bins=(target/release/chaff)
for b in "${bins[@]}"; do [ -x "$b" ] || { echo "$b: no chaff binary (cargo build --release)"; exit 1; }; done
[ -x /usr/bin/time ] || { echo "/usr/bin/time is missing (apt-get install time)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"${bins[0]}" generate --crawl "$hosts" --pages "$pages" --folders --out "$tmp/crawl" > /dev/null
"${bins[0]}" generate --crawl 1 --pages $((hosts * pages)) --folders --out "$tmp/one" > /dev/null
"${bins[0]}" mine --all "$tmp/crawl/crawl.warc.gz" --rules-dir "$tmp/rules" > "$tmp/mined.txt" 2>&1
one=$(awk -F': ' '/ documents, / {print $1; exit}' "$tmp/mined.txt").toml
page_bytes() { find "$1" -name '*.html' -printf '%s\n' | awk '{s += $1} END {print s}'; }
crawl_bytes=$(page_bytes "$tmp/crawl/sources")
one_bytes=$(page_bytes "$tmp/one/sources")

cases=(warc.gz jsonl stdin one.warc.gz)
command_of() {
  local b=$1
  case $2 in
    warc.gz) echo "\"$b\" clean --rules-dir \"$tmp/rules\" --include-pending --text \"$tmp/crawl/crawl.warc.gz\"" ;;
    jsonl) echo "\"$b\" clean --rules-dir \"$tmp/rules\" --include-pending --text \"$tmp/crawl/crawl.jsonl\"" ;;
    stdin) echo "\"$b\" clean --rules \"$tmp/rules/$one\" --include-pending --text < \"$tmp/one/crawl.jsonl\"" ;;
    one.warc.gz) echo "\"$b\" clean --rules-dir \"$tmp/rules\" --include-pending --text \"$tmp/one/crawl.warc.gz\"" ;;
  esac
}
for ((r = 0; r < runs; r++)); do
  for c in "${cases[@]}"; do
    for i in "${!bins[@]}"; do
      /usr/bin/time -f "%e %U %S" -o "$tmp/time" sh -c "$(command_of "${bins[$i]}" "$c") > /dev/null 2> /dev/null"
      cat "$tmp/time" >> "$tmp/times.$c.$i"
    done
  done
done
echo "crawl: $hosts sites × $pages pages, $crawl_bytes page bytes; one site: $one_bytes page bytes; $runs runs"
for c in "${cases[@]}"; do
  bytes=$crawl_bytes
  [ "$c" = stdin ] || [ "$c" = one.warc.gz ] && bytes=$one_bytes
  for i in "${!bins[@]}"; do
    # medians of wall and of CPU (each sorted on its own)
    wall=$(awk '{print $1}' "$tmp/times.$c.$i" | sort -n | awk '{t[NR] = $1} END {print t[int((NR + 1) / 2)]}')
    cpu=$(awk '{print $2 + $3}' "$tmp/times.$c.$i" | sort -n | awk '{t[NR] = $1} END {print t[int((NR + 1) / 2)]}')
    awk -v c="$c" -v b="${bins[$i]}" -v w="$wall" -v u="$cpu" -v n="$bytes" \
      'BEGIN {printf "%-12s %-40s wall %6.2f s %7.2f MB/s   CPU %6.2f s\n", c, b, w, n / 1e6 / w, u}'
  done
done
