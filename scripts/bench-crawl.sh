#!/usr/bin/env bash
# Benchmark of a crawl of many sources (prints figures; no pass/fail): a generated crawl of HOSTS sites ×
# PAGES pages, `chaff mine --all` and routed `chaff clean --rules-dir` on its WARC.gz and JSON Lines,
# against the single-source paths on the same volume of bytes: mining the same sites as a folder of
# sources (each source mined alone: the sum of mining each), mining one site of HOSTS × PAGES pages,
# and `chaff clean --rules ONE.toml` of that site's pages. Each run's wall time, MB/s of page bytes and
# peak RSS (/usr/bin/time -v).
#
#   scripts/bench-crawl.sh [CHAFF_BIN] [HOSTS] [PAGES]      (defaults: target/release/chaff 1000 20)
set -euo pipefail
bin=${1:-target/release/chaff}
hosts=${2:-1000}
pages=${3:-20}
[ -x "$bin" ] || { echo "$bin: no chaff binary (cargo build --release)"; exit 1; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time is missing (apt-get install time)"; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

"$bin" generate --crawl "$hosts" --pages "$pages" --folders --out "$tmp" | tail -1
bytes=$(du -sb --apparent-size "$tmp"/sources | cut -f1)
page_bytes=$(find "$tmp/sources" -name '*.html' -printf '%s\n' | awk '{s += $1} END {print s}')
echo "page bytes: $page_bytes (sources folder with truth: $bytes bytes)"

# run NAME CMD…: wall seconds, MB/s of page bytes, peak RSS
run() {
  local name=$1; shift
  /usr/bin/time -v -o "$tmp/time.txt" "$@" > "$tmp/out.txt" 2> "$tmp/err.txt" || { echo "$name: failed"; tail -3 "$tmp/err.txt"; return 0; }
  local wall rss
  wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {n = split($2, t, ":"); s = 0; for (i = 1; i <= n; i++) s = s * 60 + t[i]; print s}' "$tmp/time.txt")
  rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$tmp/time.txt")
  awk -v n="$name" -v w="$wall" -v b="$page_bytes" -v r="$rss" \
    'BEGIN {printf "%-58s %7.1f s  %6.2f MB/s  peak RSS %5.0f MB\n", n, w, b / 1e6 / w, r / 1024}'
}

echo "== mining"
run "mine --all crawl.warc.gz (routed by host)" "$bin" mine --all "$tmp/crawl.warc.gz" --rules-dir "$tmp/rules-warc"
cp "$tmp/out.txt" "$tmp/mined-warc.txt"
run "mine --all crawl.jsonl (routed by host)" "$bin" mine --all "$tmp/crawl.jsonl" --rules-dir "$tmp/rules-jsonl"
run "mine --all sources/ (each source mined alone, as folders)" "$bin" mine --all "$tmp/sources" --rules-dir "$tmp/rules-folders"
# one site of HOSTS × PAGES pages: one source of the crawl's size (mined on a sample past 16 MB, its
# strings counted again on every page)
"$bin" generate --crawl 1 --pages $((hosts * pages)) --folders --out "$tmp/one" > /dev/null
page_bytes_crawl=$page_bytes
page_bytes=$(find "$tmp/one/sources" -name '*.html' -printf '%s\n' | awk '{s += $1} END {print s}')
run "mine one source of the same size (single source)" "$bin" mine "$tmp/one/sources/$(ls "$tmp/one/sources")" --rules-dir "$tmp/rules-one"
page_bytes=$page_bytes_crawl

echo "== cleaning (--include-pending --text)"
# the same bytes as one source: the first site (its rules file is the crawl's first source's) with
# HOSTS × PAGES pages, cleaned with its own rules
one=$(awk -F': ' '/ documents, / {print $1; exit}' "$tmp/mined-warc.txt").toml
run "clean --rules-dir, crawl.warc.gz" "$bin" clean --rules-dir "$tmp/rules-warc" --include-pending --text "$tmp/crawl.warc.gz"
run "clean --rules-dir, crawl.jsonl" "$bin" clean --rules-dir "$tmp/rules-warc" --include-pending --text "$tmp/crawl.jsonl"
# the single-source cleaner on the same volume: one site's pages with its own rules, JSON Lines on stdin
# (its url field is echoed, not read); its bytes differ from the crawl's by a few per cent, the MB/s are
# of its own page bytes
page_bytes=$(find "$tmp/one/sources" -name '*.html' -printf '%s\n' | awk '{s += $1} END {print s}')
run "clean --rules $one, one source's pages on stdin (single source)" sh -c "\"$bin\" clean --rules \"$tmp/rules-warc/$one\" --include-pending --text < \"$tmp/one/crawl.jsonl\""
# the same one site as a crawl of one source, routed: the single-source figure for WARC.gz input (gunzip
# and WARC parsing on both sides), so the ratio to the crawl's is the cost of many sources alone
run "clean --rules-dir, one source's pages as crawl.warc.gz (single source)" "$bin" clean --rules-dir "$tmp/rules-warc" --include-pending --text "$tmp/one/crawl.warc.gz"
page_bytes=$page_bytes_crawl
