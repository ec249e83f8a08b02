#!/usr/bin/env bash
# CI: score chaff on the real pages of ../shared/corpora (text and html input, in-sample and held-out),
# print the tables, and fail when an overall F1 falls more than the tolerance below its floor in
# eval/floors.toml; then the oracle editor (held-out ten folds, and few pages: three folds turned over),
# failing when its decisions leave a site below its automatic figure.
# Usage: scripts/eval-ci.sh [BIN]    (BIN: the chaff binary, default $CARGO_TARGET_DIR/release/chaff)
set -euo pipefail
cd "$(dirname "$0")/.."

bin="${1:-${CARGO_TARGET_DIR:-target}/release/chaff}"
corpora="../shared/corpora"
if [ ! -d "$corpora" ]; then
  echo "skipped: ../shared/corpora not found"
  exit 0
fi
if [ ! -x "$bin" ]; then
  echo "eval-ci: $bin: no chaff binary there (build it with cargo build --release, or pass its path)" >&2
  exit 1
fi

failed=()
for dataset in dragnet cleanportaleval; do
  if [ ! -d "$corpora/$dataset" ]; then
    echo "skipped: $corpora/$dataset not found"
    continue
  fi
  for input in txt html; do
    echo "==> chaff eval $corpora/$dataset ($input, in-sample and held-out)"
    if ! "$bin" eval "$corpora/$dataset" --input "$input" --protocol both --floors eval/floors.toml; then
      failed+=("$dataset ($input)")
    fi
  done
done

# decisions made on some pages must hold on the others: every site, every checkpoint
for dataset in dragnet cleanportaleval; do
  [ -d "$corpora/$dataset" ] || continue
  for input in txt html; do
    for protocol in held-out few-pages; do
      folds=10
      [ "$protocol" = few-pages ] && folds=3
      echo "==> chaff eval $corpora/$dataset ($input, the oracle editor, $protocol, $folds folds)"
      if ! "$bin" eval "$corpora/$dataset" --input "$input" --protocol "$protocol" --folds "$folds" \
        --oracle-editor --fail-below-automatic; then
        failed+=("$dataset ($input, oracle editor, $protocol)")
      fi
    done
  done
done

if [ ${#failed[@]} -gt 0 ]; then
  echo "eval-ci: FAILED on ${failed[*]}: an overall F1 fell below its floor in eval/floors.toml, or the oracle editor left a site below its automatic figure (or the run failed; see above)" >&2
  exit 1
fi
echo "eval-ci: every overall F1 is within the tolerance of its floor; the oracle editor leaves no site below its automatic figure"
