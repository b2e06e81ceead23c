#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# This file validates real `squashlab verify --json`, `squashlab bench
# --json`, `squashlab campaign --out` and `squashlab merge --json` output
# files (small runs) against docs/schema/*.schema.json.
set -euo pipefail
root="${TEST_SRCDIR:-}/squashlab"
[[ -d "$root/docs/schema" ]] || root="."
bin="$root/cli/squashlab"
[[ -x "$bin" ]] || bin="${SQUASHLAB:-bazel-bin/cli/squashlab}"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
validate="$root/cli/testing/validate_json.py"
# Debian's python3 has python3-jsonschema (tools/install_deps.sh); another
# python3 first on PATH may not.
py=/usr/bin/python3
[[ -x "$py" ]] || py=python3

# A failing and a clean variant: classes with tokens, and none.
"$bin" verify --variant async-2013 --variant sync-3.13 --decomp single --budget 60 \
  --expect async-2013=fail --json "$tmp/verify.json" >/dev/null 2>&1
"$py" "$validate" "$root/docs/schema/verify.schema.json" "$tmp/verify.json"
# Each class names a root cause of the list, and each root cause's titles
# are those of the classes that name it.
"$py" - "$tmp/verify.json" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
causes = {c["number"]: c for c in j["root_causes"]}
classes = [k for cell in j["cells"] for k in cell["classes"]]
assert classes and causes, "a failing cell, yet no classes or causes"
for k in classes:
    assert k["root_cause"] in causes, k["root_cause"]
for n, c in causes.items():
    titles = {k["title"] for k in classes if k["root_cause"] == n}
    assert set(c["titles"]) <= titles, (n, c["titles"], titles)
    assert titles, n
print("%d classes, %d root causes" % (len(classes), len(causes)))
PY

# A campaign in two shards (a failing cell: classes with tokens) and their
# merge.
for i in 0 1; do
  "$bin" campaign --variant async-2013 --decomp single --workload pair --kernel debug \
    --preemption-bound 0 --shard "$i/2" --out "$tmp/part$i.json" >/dev/null 2>&1 || [[ $? -eq 1 ]]
  "$py" "$validate" "$root/docs/schema/campaign.schema.json" "$tmp/part$i.json"
done
"$bin" merge "$tmp/part0.json" "$tmp/part1.json" --json "$tmp/merged.json" >/dev/null
"$py" "$validate" "$root/docs/schema/campaign.schema.json" "$tmp/merged.json"

for scenario in emmc rt-latency; do
  "$bin" bench "$scenario" --small --cache "$tmp/cache" --json "$tmp/bench-$scenario.json" \
    >/dev/null 2>&1
  "$py" "$validate" "$root/docs/schema/bench.schema.json" "$tmp/bench-$scenario.json"
done

# --out DIR: per class a report, a minimised ftrace listing and a Chrome
# trace that parses; repro --trace-out writes the same kind of trace.
"$bin" verify --variant async-2013 --decomp single --budget 60 --expect async-2013=fail \
  --out "$tmp/out" >/dev/null 2>&1
python3 - "$tmp/out" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
reports = sorted(glob.glob(os.path.join(out, "*.report.txt")))
assert reports, "no report files in %s" % out
for report in reports:
    base = report[:-len(".report.txt")]
    text = open(report).read()
    assert "replay token: sq1:" in text, report
    assert "# tracer:" in open(base + ".ftrace.txt").read(), base
    trace = json.load(open(base + ".trace.json"))
    phases = {e["ph"] for e in trace["traceEvents"]}
    assert {"M", "X", "i"} <= phases, (base, phases)
print("%d classes written to --out, traces parse" % len(reports))
PY
token="$(sed -n 's/^replay token: //p' "$(ls "$tmp"/out/*.report.txt | head -n 1)")"
"$bin" repro "$token" --trace-out "$tmp/repro.json" >/dev/null 2>&1 || [[ $? -eq 1 ]]
python3 -c 'import json, sys; json.load(open(sys.argv[1])); print("repro trace parses")' \
  "$tmp/repro.json"
