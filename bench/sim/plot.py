#!/usr/bin/env python3
"""Plots a `squashlab bench --json` result: usage: plot.py RESULT.json OUT.png

Exit code 3 when matplotlib is missing (the caller says so and carries on).
"""
import json
import math
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    sys.exit(3)


def num(cell):
    try:
        return float(cell)
    except ValueError:
        return math.nan


def kib(label):
    return float(label.rstrip("K"))


def plot_matrix(res, out):
    tables = [t for t in res["tables"] if "simulated" in t["title"]]
    seed = [t for t in res["tables"] if "the 2013 thread" in t["title"]]
    n = len(tables)
    top = max([num(c) for t in tables for r in t["rows"] for c in r[1:] if not math.isnan(num(c))] + [1])
    fig, axes = plt.subplots(1, n, figsize=(3.2 * n, 3.4), sharey=True, squeeze=False)
    for ax, t in zip(axes[0], tables):
        xs = [kib(r[0]) for r in t["rows"]]
        for c, name in enumerate(t["columns"]):
            ys = [num(r[c + 1]) for r in t["rows"]]
            style = "-" if name.startswith("No Asyn") else "--" if name.startswith("Asyn") else ":"
            ax.plot(xs, ys, style, marker=".", label=name, linewidth=1)
            for x, y, r in zip(xs, ys, t["rows"]):
                if math.isnan(y):
                    ax.annotate(r[c + 1], (x, 0), fontsize=6, rotation=90)
        if seed and t["title"].startswith("Squashfs: gzip filesystem 1024K"):
            s = seed[0]
            for c, name in enumerate(s["columns"][:2]):
                ax.plot(xs, [num(r[c + 1]) for r in s["rows"]], "k" + ("--" if c == 0 else "-"),
                        alpha=0.35, linewidth=3, label="seed " + name)
        ax.set_xscale("log", base=2)
        ax.set_title(t["title"].split("(")[0].replace("Squashfs: gzip filesystem ", ""), fontsize=8)
        ax.set_xlabel("dd bs (KiB)", fontsize=7)
        ax.tick_params(labelsize=6)
        ax.set_ylim(0, top * 1.08)
    axes[0][0].set_ylabel("MB/s", fontsize=7)
    axes[0][-1].legend(fontsize=5, loc="lower right")
    fig.suptitle("phillip: dd MB/s by dd bs, per squashfs block size (" + res["profile"] + ")",
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=90)


def plot_bars(res, out, table, value_col, ylabel, log=False, refs=()):
    t = res["tables"][table]
    names = [r[0] for r in t["rows"]]
    vals = [num(r[value_col + 1]) for r in t["rows"]]
    fig, ax = plt.subplots(figsize=(6, 3.2))
    ax.barh(names, [0 if math.isnan(v) else v for v in vals], color="tab:blue")
    for i, v in enumerate(vals):
        ax.text(0 if math.isnan(v) else v, i, " " + t["rows"][i][value_col + 1], va="center",
                fontsize=6)
    for x, label in refs:
        ax.axvline(x, color="k", alpha=0.4, linestyle="--")
        ax.text(x, len(names) - 0.5, label, fontsize=6, rotation=90, va="top")
    if log:
        ax.set_xscale("log")
    ax.set_xlabel(ylabel, fontsize=7)
    ax.tick_params(labelsize=6)
    ax.set_title(t["title"], fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=90)


def plot_lines(res, out, ylabel):
    t = res["tables"][0]
    xs = [kib(r[0]) for r in t["rows"]]
    fig, ax = plt.subplots(figsize=(6, 3.4))
    for c, name in enumerate(t["columns"]):
        ys = [num(r[c + 1]) for r in t["rows"]]
        ax.plot(xs, ys, "k-" if name.startswith("seed") else "-", marker=".",
                alpha=0.4 if name.startswith("seed") else 1,
                linewidth=3 if name.startswith("seed") else 1, label=name)
    ax.set_xscale("log", base=2)
    ax.set_xlabel(t["corner"] + " (KiB)", fontsize=7)
    ax.set_ylabel(ylabel, fontsize=7)
    ax.tick_params(labelsize=6)
    ax.legend(fontsize=5)
    ax.set_title(t["title"], fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=90)


def plot_latency(res, out):
    """Worst case per strategy (bars, log) and the wake-up latency
    distributions (cyclictest -h histograms) side by side."""
    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 3.6))
    recs = [r for r in res["records"] if r.get("histogram")]
    names = [r.get("codec", "") + " " + r["variant"] + "/" + r["decomp"] for r in recs]
    worst = [r["max_wakeup_latency_ns"] / 1e3 for r in recs]
    left.barh(names, worst)
    for y, name in ((8000, "seed percpu ~8000 us"), (80, "seed local_lock ~80 us")):
        left.axvline(y, color="k", linestyle="--", alpha=0.5)
        left.text(y * 1.08, -0.45, name, fontsize=6, rotation=90, va="bottom")
    left.set_xscale("log")
    left.set_xlabel("worst wake-up latency (us, log)", fontsize=7)
    left.tick_params(labelsize=6)
    for r, name in zip(recs, names):
        counts = [int(c) for c in r["histogram"].split(",")]
        width = r["bucket_ns"] / 1e3
        xs = [(i + 0.5) * width for i in range(len(counts))]
        pts = [(x, c) for x, c in zip(xs, counts) if c > 0]
        right.plot([p[0] for p in pts], [p[1] for p in pts], marker=".", linewidth=1, label=name)
    right.set_xscale("log")
    right.set_yscale("log")
    right.set_xlabel("wake-up latency (us, log; bucket centres)", fontsize=7)
    right.set_ylabel("wake-ups", fontsize=7)
    right.tick_params(labelsize=6)
    right.legend(fontsize=6)
    fig.suptitle("rt-latency: cyclictest beside decompressing readers (" + res["profile"] + ")",
                 fontsize=9)
    fig.tight_layout()
    fig.savefig(out, dpi=90)


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot.py RESULT.json OUT.png")
    with open(sys.argv[1]) as f:
        res = json.load(f)
    s, out = res["scenario"], sys.argv[2]
    if s == "phillip":
        plot_matrix(res, out)
    elif s == "emmc":
        plot_bars(res, out, 0, 1, "MiB/s", refs=[(40.2, "seed before"), (59.4, "seed after")])
    elif s == "rt-latency":
        plot_latency(res, out)
    elif s == "usb":
        plot_lines(res, out, "MiB/s")
    else:
        plot_lines(res, out, "MB/s")


if __name__ == "__main__":
    main()
