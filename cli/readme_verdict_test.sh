#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# This file checks that the verdict README.md shows (the block after the
# marker "<!-- ./run.sh verdict sample -->", copied from a real ./run.sh) is
# one `squashlab verify` prints today: the same lines in the same order —
# the cells of the table, the summary, the pointers to the details — once
# the figures that change from run to run (schedules, seconds, counts,
# tokens) are set aside, and every line of its root causes in their format;
# and that ./run.sh's output with it stays within 150 lines.
set -euo pipefail
root="${TEST_SRCDIR:-}/squashlab"
[[ -f "$root/README.md" ]] || root="."
bin="$root/cli/squashlab"
[[ -x "$bin" ]] || bin="${SQUASHLAB:-bazel-bin/cli/squashlab}"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"

# The default job, shorter: the same cells and verdicts.
"$bin" verify --time 8 >"$tmp/real.txt" 2>&1 || {
  echo "FAIL: the default job did not end as expected:"
  cat "$tmp/real.txt"
  exit 1
}
python3 - "$root/README.md" "$tmp/real.txt" <<'PY'
import re, sys
readme, real = sys.argv[1], sys.argv[2]
lines = open(readme).read().split("\n")
at = lines.index("<!-- ./run.sh verdict sample -->")
assert lines[at + 1] == "```", "no code block after the marker"
end = lines.index("```", at + 2)
# The sample starts at run.sh's "== squashlab verify" header.
sample = lines[at + 2:end]
assert sample and sample[0].startswith("== squashlab verify"), sample[:1]
sample = sample[1:]

CAUSE = [
    r"root causes of the \d+ failure class(es)? \(.*\):",
    r"  \[\d+\] \S.* \(\d+ class(es)?\)",
    r"        and \d+ other titles? \(--all-classes\)",
    r"        explains the seed thread's oops \d.*",
    r"        repro: sq1:\S+",
    r"        \S.*",
    r"  and \d+ other root causes? \(--all-classes\)",
]
ROW = re.compile(r"(\S+) +(\S+) +\d+  (clean|clean \(exhausted\)|"
                 r"\d+ class(es)? from \d+ root causes? \[[\d,]+\])")

def skeleton(text, where):
    out = []
    for line in text:
        if any(re.fullmatch(p, line) for p in CAUSE):
            if not out or out[-1] != "<root causes>":
                out.append("<root causes>")
            continue
        m = ROW.fullmatch(line)
        if m:
            out.append("row %s %s %s" % (m.group(1), m.group(2),
                                          "clean" if m.group(3).startswith("clean") else "fails"))
            continue
        if line.startswith("  [") or line.startswith("        "):
            sys.exit("FAIL: %s: a root-cause line out of format: %r" % (where, line))
        out.append(re.sub(r"\d+", "N", line))
    return out

want = skeleton(sample, "README.md")
got = skeleton(open(real).read().rstrip("\n").split("\n"), "squashlab verify")
if want != got:
    import difflib
    print("\n".join(difflib.unified_diff(want, got, "README.md", "squashlab verify", lineterm="")))
    sys.exit("FAIL: README.md's verdict sample is not what squashlab verify prints")
# run.sh: its headers, info (20 lines) and 8 lines of ls, then the verdict.
total = 33 + 1 + len(sample)
assert total <= 150, "the README's ./run.sh output has %d lines" % total
print("README.md's verdict sample matches squashlab verify (%d lines)" % len(sample))
PY
echo PASS
