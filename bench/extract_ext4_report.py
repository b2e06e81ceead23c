#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""This file implements the report of bench/extract_ext4.sh: per case, each
tool's median time with its spread (min-max over the rounds), the ratio of
each peer's median to squashlab's (for the file-system floor, //bench:fs_floor,
below 1), the time `sync` took afterwards, and the
open calls strace counted. Prints the table; writes DIR/table.md and
DIR/summary.json.

usage: extract_ext4_report.py DIR
"""
import csv
import json
import os
import statistics
import sys

TOOLS = ("squashlab", "unsquashfs", "rdsquashfs", "floor", "floor-2")


def load(out):
    with open(os.path.join(out, "runs.csv")) as f:
        runs = list(csv.DictReader(f))
    opens = {}
    path = os.path.join(out, "strace.csv")
    if os.path.exists(path):
        with open(path) as f:
            for row in csv.DictReader(f):
                opens[(row["image"], row["tool"])] = int(row["open_calls"])
    return runs, opens


def summarise(runs):
    groups = {}
    for r in runs:
        key = (r["case"], r["fs"], r["load"])
        groups.setdefault(key, {}).setdefault(r["tool"], []).append(r)
    cases = []
    for (case, fs, loadkind), by_tool in groups.items():
        entry = {"case": case, "fs": fs, "load": loadkind, "tools": {}}
        for tool in TOOLS:
            rows = by_tool.get(tool, [])
            ok = [r for r in rows if r["rc"] == "0"]
            if not ok:
                continue
            secs = [float(r["seconds"]) for r in ok]
            entry["tools"][tool] = {
                "runs": len(ok), "failed": len(rows) - len(ok),
                "median_s": statistics.median(secs), "min_s": min(secs), "max_s": max(secs),
                "median_sync_s": statistics.median(float(r["sync_seconds"]) for r in ok),
                "median_with_sync_s": statistics.median(
                    float(r["seconds"]) + float(r["sync_seconds"]) for r in ok),
                "median_cpu_s": statistics.median(float(r["user"]) + float(r["sys"]) for r in ok),
                "entries": sorted({int(r["entries"]) for r in ok}),
                "loadavg": [float(r["loadavg"]) for r in ok],
            }
        base = entry["tools"].get("squashlab")
        for tool, t in entry["tools"].items():
            if base and tool != "squashlab":
                t["ratio_vs_squashlab"] = t["median_s"] / base["median_s"]
                t["ratio_with_sync"] = t["median_with_sync_s"] / base["median_with_sync_s"]
        cases.append(entry)
    return cases


def table(cases, opens):
    lines = ["| case | fs | load | tool | runs | median s | min-max s | peer/squashlab | "
             "+sync median s | peer/squashlab +sync | cpu s | entries | load avg |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for c in cases:
        for tool, t in c["tools"].items():
            ratio = "%.2fx" % t["ratio_vs_squashlab"] if "ratio_vs_squashlab" in t else "-"
            ratio_s = "%.2fx" % t["ratio_with_sync"] if "ratio_with_sync" in t else "-"
            lines.append("| %s | %s | %s | %s | %d | %.2f | %.2f-%.2f | %s | %.2f | %s | %.2f | %s | %.1f-%.1f |" % (
                c["case"], c["fs"], c["load"], tool, t["runs"], t["median_s"], t["min_s"], t["max_s"],
                ratio, t["median_with_sync_s"], ratio_s, t["median_cpu_s"],
                "/".join(map(str, t["entries"])), min(t["loadavg"]), max(t["loadavg"])))
    if opens:
        lines += ["", "| image | tool | open+openat+openat2 calls |", "|---|---|---|"]
        for (image, tool), n in sorted(opens.items()):
            lines.append("| %s | %s | %d |" % (image, tool, n))
    return "\n".join(lines) + "\n"


def main():
    out = sys.argv[1]
    runs, opens = load(out)
    cases = summarise(runs)
    text = table(cases, opens)
    print(text)
    with open(os.path.join(out, "table.md"), "w") as f:
        f.write(text)
    with open(os.path.join(out, "summary.json"), "w") as f:
        json.dump({"cases": cases, "open_calls": [{"image": i, "tool": t, "calls": n}
                                                  for (i, t), n in sorted(opens.items())]},
                  f, indent=1)


if __name__ == "__main__":
    main()
