#!/usr/bin/env bash
# Duplicate precision and recall of pagesieve dedup, with default settings, on
# a labelled stream built from real pages (bench/crawlgen). Fails below 0.95,
# the bar the engine issue sets; the README quotes the full-stream figures.
# The stream has every variant, the near-duplicate issue's included (crawlgen
# --classic leaves those out); it is scored under the default scope.
set -euo pipefail
src=$1
bin=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

python3 "$src/bench/crawlgen/crawlgen.py" --seed 7 --sites 120 -o "$work/stream.jsonl"
"$bin" dedup -q --input "$work/stream.jsonl" --output "$work/verdicts.jsonl"
python3 "$src/bench/crawlgen/score.py" --scope registered_domain "$work/stream.jsonl" \
    "$work/verdicts.jsonl"
python3 "$src/bench/crawlgen/score.py" --scope registered_domain "$work/stream.jsonl" \
    "$work/verdicts.jsonl" --json \
    >"$work/score.json"
python3 - "$work/score.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
ok = r["precision"] >= 0.95 and r["recall"] >= 0.95 and r["without_verdict"] == 0
print("precision %.4f recall %.4f: %s" % (r["precision"], r["recall"], "ok" if ok else "BELOW 0.95"))
sys.exit(0 if ok else 1)
PY
