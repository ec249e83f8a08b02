#!/usr/bin/env bash
# CPU time (user+sys) of chaff and resiliparse turning the same HTML pages into reader text, end to end:
# process start, file reads and writes included.
#
#   scripts/bench-peers.sh [--venv DIR] [--runs N] [--outputs DIR] [DATASET_DIR...]
#
# Defaults: the venv /tmp/chaff-bench-venv (resiliparse installed into it with pip when missing), 5 runs
# (medians are printed, and the median of each run's routed time over the resiliparse run beside it:
# `run_ratio`, steadier on a machine whose load comes and goes), outputs written to /dev/shm (see below),
# the datasets ../shared/corpora/dragnet and ../shared/corpora/cleanportaleval (a dataset is a folder of
# site folders holding .html pages; other files are ignored).
#
# chaff: rules are mined beforehand per site (`chaff mine --all`, not timed), then applied (no editor)
# two ways, both timed:
#   routed:   one `chaff clean --include-pending --rules-dir RULES --text DATASET --out OUT` per dataset,
#             each page cleaned with its site's rules (one process, as resiliparse below; the ratio);
#   per site: one `chaff clean --include-pending --rules SITE.toml --text SITE --out OUT` per site,
#             a process start, a rules file and a sync of the outputs each.
# Both write the same files.
# resiliparse: one Python process per dataset reading each file, `extract_plain_text(html,
# main_content=True)`, writing each output.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
venv=/tmp/chaff-bench-venv
runs=5
outputs_given=
datasets=()
while [ $# -gt 0 ]; do
    case "$1" in
        --venv) venv=$2; shift 2 ;;
        --runs) runs=$2; shift 2 ;;
        --outputs) outputs_given=$(mktemp -d "$2/chaff-bench.XXXXXX"); shift 2 ;;
        -h|--help) sed -n 2,21p "$0"; exit 0 ;;
        *) datasets+=("$1"); shift ;;
    esac
done
[ ${#datasets[@]} -gt 0 ] || datasets=("$here/../shared/corpora/dragnet" "$here/../shared/corpora/cleanportaleval")

if ! "$venv/bin/python" -c 'import resiliparse' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q 'resiliparse>=2,<3'
fi
chaff="$here/target/release/chaff"
[ -x "$chaff" ] || (cd "$here" && cargo build --release -q)

work=$(mktemp -d)
# Outputs go to memory (tmpfs) where the machine has one, `--outputs DIR` elsewhere: making a file on ext4
# skips every inode freed in the last minute or more, reading each one's table block, so a file's
# creation costs whatever the machine deleted lately (this script's own cleanup, another build's), not
# the tool, on either side (docs/results.md has the figures).
outputs=${outputs_given:-$( [ -d /dev/shm ] && [ -w /dev/shm ] && mktemp -d /dev/shm/chaff-bench.XXXXXX || mktemp -d )}
trap 'rm -rf "$work" "$outputs"' EXIT

cat >"$work/peer.py" <<'EOF'
import os, sys
from resiliparse.extract.html2text import extract_plain_text
src, out = sys.argv[1], sys.argv[2]
for site in sorted(os.listdir(src)):
    if not os.path.isdir(os.path.join(src, site)):
        continue
    os.makedirs(os.path.join(out, site), exist_ok=True)
    for name in sorted(os.listdir(os.path.join(src, site))):
        if not name.endswith(".html"):
            continue
        with open(os.path.join(src, site, name), "rb") as f:
            html = f.read()
        text = extract_plain_text(html.decode("utf-8", "replace"), main_content=True)
        with open(os.path.join(out, site, name[:-5] + ".txt"), "w", encoding="utf-8") as f:
            f.write(text)
EOF

# CPU seconds (user+sys) of a command and its children: the children's usage after it less before, as
# the measuring Python may have waited for children of its own already (a version manager's `python3`
# shim runs a few before Python starts, which were once counted to both sides).
cpu() {
    python3 - "$@" <<'EOF'
import resource, subprocess, sys
def used():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime
before = used()
subprocess.run(sys.argv[1:], check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
print(f"{used() - before:.3f}")
EOF
}

median() { sort -n | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

printf '%-18s %6s %9s %14s %16s %18s %7s %10s\n' dataset pages MB chaff_routed_s chaff_per_site_s resiliparse_cpu_s ratio run_ratio
for ds in "${datasets[@]}"; do
    name=$(basename "$ds")
    stage="$work/pages/$name"
    pages=0
    for site in "$ds"/*/; do
        s=$(basename "$site")
        mkdir -p "$stage/$s"
        for f in "$site"*.html; do
            [ -e "$f" ] || continue
            ln -s "$(cd "$(dirname "$f")" && pwd)/$(basename "$f")" "$stage/$s/"
            pages=$((pages + 1))
        done
    done
    mb=$(du -sLb "$stage" | awk '{printf "%.1f", $1 / 1e6}')
    "$chaff" mine --all "$stage" --rules-dir "$work/rules/$name" >/dev/null 2>&1

    # one clean per site, all in one timed shell
    runner="$work/clean-$name.sh"
    {
        echo 'set -e'
        for site in "$stage"/*/; do
            s=$(basename "$site")
            echo "'$chaff' clean --include-pending --rules '$work/rules/$name/$s.toml' --text '$site' --out \"\$1/$s\" 2>/dev/null"
        done
    } >"$runner"

    # Every run writes into folders of its own and nothing is deleted until the end: ext4 skips inodes
    # freed in the last seconds when it makes a file, reading each one's table block, so files made
    # just after a folder of outputs was removed cost several times their CPU (half a run's time, and
    # whoever runs next pays it).
    c=(); p=(); r=()
    for i in $(seq "$runs"); do
        c+=("$(cpu "$chaff" clean --include-pending --rules-dir "$work/rules/$name" --text "$stage" --out "$outputs/routed/$name.$i")")
        p+=("$(cpu bash "$runner" "$outputs/out/$name.$i")")
        r+=("$(cpu "$venv/bin/python" "$work/peer.py" "$stage" "$outputs/res/$name.$i")")
    done
    # the two ways of running chaff write the same text
    diff -r "$outputs/routed/$name.1" "$outputs/out/$name.1" >/dev/null || { echo "routed and per-site outputs differ" >&2; exit 1; }
    cm=$(printf '%s\n' "${c[@]}" | median)
    pm=$(printf '%s\n' "${p[@]}" | median)
    rm_=$(printf '%s\n' "${r[@]}" | median)
    # each run's routed time over the resiliparse run beside it: a load that comes and goes falls on both
    q=$(for i in "${!c[@]}"; do echo "${c[$i]} / ${r[$i]}" | bc -l; done | median)
    printf '%-18s %6d %9s %14.3f %16.3f %18.3f %7.2f %10.2f\n' "$name" "$pages" "$mb" "$cm" "$pm" "$rm_" "$(echo "$cm / $rm_" | bc -l)" "$q"
done
