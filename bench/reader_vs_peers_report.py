#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""This file implements the report of bench/reader_vs_peers.sh: it reads the
raw measurements (measurements.jsonl, ceiling.jsonl) of one run and writes
results.json, results.csv and table.md (also printed): throughput, CPU time,
peak RSS, the ratio of each tool's time to squashlab's, and squashlab cat as
a share of the codec ceiling. Python 3 standard library only.
"""

import argparse
import csv
import json
import os


def load_jsonl(path):
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [json.loads(line) for line in f if line.strip()]


def best_run(m):
    ok = [r for r in m["runs"] if r["rc"] == 0]
    return min(ok, key=lambda r: r["elapsed"]) if ok else None


def merge_runs(measurements):
    """One record per (kind, image, codec, tool), its runs gathered in order."""
    merged = {}
    for m in measurements:
        key = (m["kind"], m["image"], m["codec"], m["tool"])
        if key in merged:
            merged[key]["runs"] += m["runs"]
            merged[key]["error"] = merged[key].get("error") or m.get("error", "")
        else:
            merged[key] = dict(m, runs=list(m["runs"]))
    return list(merged.values())


def rows_of(measurements, ceilings):
    measurements = merge_runs(measurements)
    ceiling = {c["codec"]: c for c in ceilings}
    rows = []
    base = {}
    for m in measurements:
        r = best_run(m)
        row = {"kind": m["kind"], "image": m["image"], "codec": m["codec"], "tool": m["tool"],
               "bytes": m["bytes"], "ok": r is not None, "error": m.get("error", ""),
               "runs": len(m["runs"]), "command": m["command"]}
        if r:
            el = max(r["elapsed"], 0.005)
            row.update(seconds=r["elapsed"], cpu_seconds=round(r["user"] + r["sys"], 2),
                       user=r["user"], sys=r["sys"], MBps=round(m["bytes"] / el / 1e6, 1),
                       peak_rss_MiB=round(r["maxrss_kb"] / 1024, 1),
                       cpu_util=round((r["user"] + r["sys"]) / el, 2))
        rows.append(row)
        if m["tool"] == "squashlab" and r:
            base[(m["kind"], m["image"], m["codec"])] = row
    for row in rows:
        b = base.get((row["kind"], row["image"], row["codec"]))
        if b and row.get("seconds"):
            # > 1: the tool takes that many times squashlab's wall time.
            row["time_vs_squashlab"] = round(row["seconds"] / max(b["seconds"], 0.005), 2)
        c = ceiling.get(row["codec"])
        if c and row["kind"] == "cat" and row["image"] == "file" and row.get("MBps"):
            row["ceiling_MBps"] = c["ceiling_MBps"]
            row["pct_of_ceiling"] = round(100 * row["MBps"] / c["ceiling_MBps"], 1)
    return rows


COLUMNS = (("kind", "kind"), ("image", "image"), ("codec", "codec"), ("tool", "tool"),
           ("MB/s", "MBps"), ("wall s", "seconds"), ("CPU s", "cpu_seconds"),
           ("CPU util", "cpu_util"), ("peak RSS MiB", "peak_rss_MiB"),
           ("time vs squashlab", "time_vs_squashlab"), ("% of ceiling", "pct_of_ceiling"))


def table(rows, ceilings, host, note):
    out = ["# squashlab reader vs peers", "", "Host: %s. %s" % (host, note), ""]
    head = [c[0] for c in COLUMNS]
    out.append("| " + " | ".join(head) + " |")
    out.append("|" + "|".join("---" for _ in head) + "|")
    for r in rows:
        cells = []
        for _, key in COLUMNS:
            v = r.get(key, "")
            if key == "MBps" and not r["ok"]:
                v = "FAILED"
            cells.append(str(v))
        out.append("| " + " | ".join(cells) + " |")
    out += ["", "Codec ceiling (single-thread decode of every chunk of /data.bin through "
            "the reader, best of 3, times the cores):", "",
            "| codec | 1-thread MB/s (all chunks) | codec-only MB/s (compressed blocks) | "
            "cores | ceiling MB/s |", "|---|---|---|---|---|"]
    for c in ceilings:
        out.append("| %s | %.0f | %.0f | %d | %.0f |" % (c["codec"], c["single_thread_MBps"],
                                                         c["codec_MBps"], c["cores"],
                                                         c["ceiling_MBps"]))
    out += ["", "time vs squashlab: the tool's wall time divided by squashlab's on the same "
            "image (above 1: squashlab is faster). Throughput counts the file bytes "
            "(uncompressed) per wall-clock second; output to /dev/null (cat) or a tmpfs "
            "(extract)."]
    return "\n".join(out) + "\n"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--cores", type=int, default=os.cpu_count())
    ap.add_argument("--host", default="")
    ap.add_argument("--note", default="")
    a = ap.parse_args()
    meas = load_jsonl(os.path.join(a.out, "measurements.jsonl"))
    ceil = load_jsonl(os.path.join(a.out, "ceiling.jsonl"))
    rows = rows_of(meas, ceil)
    images = []
    if os.path.exists(os.path.join(a.out, "images.txt")):
        with open(os.path.join(a.out, "images.txt")) as f:
            images = [dict(zip(("bytes", "name"), line.split())) for line in f if line.strip()]
    with open(os.path.join(a.out, "results.json"), "w") as f:
        json.dump({"host": a.host, "cores": a.cores, "note": a.note, "images": images,
                   "ceiling": ceil, "results": rows}, f, indent=1)
    keys = ["kind", "image", "codec", "tool", "bytes", "ok", "MBps", "seconds", "cpu_seconds",
            "user", "sys", "cpu_util", "peak_rss_MiB", "time_vs_squashlab", "ceiling_MBps",
            "pct_of_ceiling", "runs", "error", "command"]
    with open(os.path.join(a.out, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=keys, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)
    md = table(rows, ceil, a.host, a.note)
    with open(os.path.join(a.out, "table.md"), "w") as f:
        f.write(md)
    print(md)


if __name__ == "__main__":
    main()
