#!/bin/bash
# This file validates real `squashlab verify --json` and `squashlab bench
# --json` output files (small runs) against docs/schema/*.schema.json.
set -euo pipefail
root="${TEST_SRCDIR:-}/squashlab"
[[ -d "$root/docs/schema" ]] || root="."
bin="$root/cli/squashlab"
[[ -x "$bin" ]] || bin="${SQUASHLAB:-bazel-bin/cli/squashlab}"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
validate="$root/cli/testing/validate_json.py"

# A failing and a clean variant: classes with tokens, and none.
"$bin" verify --variant async-2013 --variant sync-3.13 --decomp single --budget 60 \
  --expect async-2013=fail --json "$tmp/verify.json" >/dev/null 2>&1
python3 "$validate" "$root/docs/schema/verify.schema.json" "$tmp/verify.json"

for scenario in emmc rt-latency; do
  "$bin" bench "$scenario" --small --cache "$tmp/cache" --json "$tmp/bench-$scenario.json" \
    >/dev/null 2>&1
  python3 "$validate" "$root/docs/schema/bench.schema.json" "$tmp/bench-$scenario.json"
done
