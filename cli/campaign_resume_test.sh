#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# This file tests `squashlab campaign --checkpoint` against real signals:
# a campaign interrupted by SIGINT at random points and resumed with the
# same command, until it finishes, reports the same totals as one run
# uninterrupted (runs, abandoned runs, failing runs, schedule digest,
# outcomes, classes with their first token and their run counts).
set -euo pipefail
root="${TEST_SRCDIR:-}/squashlab"
bin="$root/cli/squashlab"
[[ -x "$bin" ]] || bin="${SQUASHLAB:-bazel-bin/cli/squashlab}"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
args=(campaign --variant async-2013 --decomp single --workload pair --kernel debug
  --preemption-bound 1 --expect async-2013=fail)

start=$(date +%s.%N)
"$bin" "${args[@]}" --out "$tmp/whole.json" >"$tmp/whole.txt"
whole=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')

interrupts=0
for attempt in $(seq 1 30); do
  "$bin" "${args[@]}" --checkpoint "$tmp/cp.json" --out "$tmp/resumed.json" \
    >"$tmp/run.txt" 2>&1 &
  pid=$!
  # At a random point within the uninterrupted run's time (a fixed range
  # would let a fast machine finish before the first signal).
  sleep "$(awk -v r=$RANDOM -v w="$whole" 'BEGIN { printf "%.3f", w * (0.1 + 0.8 * r / 32767) }')"
  kill -INT "$pid" 2>/dev/null || true
  rc=0
  wait "$pid" || rc=$?
  if [[ $rc -eq 130 ]]; then
    interrupts=$((interrupts + 1))
    grep -q "interrupted" "$tmp/run.txt"
    continue
  fi
  [[ $rc -eq 0 ]] || { cat "$tmp/run.txt"; echo "exit $rc"; exit 1; }
  break
done
if [[ $rc -eq 130 ]]; then
  # Still interrupted after every attempt (a loaded machine makes slow
  # progress): the last resume runs to the end.
  "$bin" "${args[@]}" --checkpoint "$tmp/cp.json" --out "$tmp/resumed.json" \
    >"$tmp/run.txt" 2>&1 || { cat "$tmp/run.txt"; exit 1; }
fi
echo "finished after $interrupts interruptions"
[[ $interrupts -gt 0 ]] || { echo "never interrupted: proves nothing"; exit 1; }

python3 - "$tmp/whole.json" "$tmp/resumed.json" <<'PY'
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
assert a["finished"] and b["finished"], "not finished"
keys = ["runs", "pruned", "complete", "failing", "schedule_digest", "outcomes"]
for x, y in zip(a["cells"], b["cells"]):
    for k in keys:
        assert x[k] == y[k], (k, x[k], y[k])
    cls = lambda c: sorted((k["kind"], k["title"], k["token"], k["runs"]) for k in c["classes"])
    assert cls(x) == cls(y), (cls(x), cls(y))
    print("%s x %s: %d runs, %d classes: equal" % (x["variant"], x["decomp"], x["runs"], len(x["classes"])))
PY
