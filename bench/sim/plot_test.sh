#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
# This file draws every scenario's figure from a small real `squashlab bench
# --json` run and checks it with plot_test.py (needs matplotlib).
set -euo pipefail
root="${TEST_SRCDIR:-}/squashlab"
[[ -f "$root/bench/sim/plot.py" ]] || root="."
bin="$root/cli/squashlab"
[[ -x "$bin" ]] || bin="${SQUASHLAB:-bazel-bin/cli/squashlab}"
tmp="${TEST_TMPDIR:-$(mktemp -d)}"
python=python3
for p in /usr/bin/python3 python3; do
  if "$p" -c "import matplotlib" 2>/dev/null; then python="$p"; break; fi
done
results=()
for scenario in phillip emmc usb rt-latency blocksize fidelity; do
  "$bin" bench "$scenario" --small --cache "$tmp/cache" --json "$tmp/$scenario.json" \
    >/dev/null 2>&1
  results+=("$tmp/$scenario.json")
done
"$python" "$root/bench/sim/plot_test.py" "$root/bench/sim/plot.py" "${results[@]}"
