#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""Plots a `squashlab bench --json` result: usage: plot.py RESULT.json OUT.png

Every figure is of a simulated run: its title says so, throughput is in MB/s
(10^6 bytes/s) everywhere, sizes read as the thread writes them (4K..1024K),
and the seed threads' measurements are drawn apart from the simulation
(black and hatched, against coloured simulated series). Legends sit outside
the data. Exit code 3 when matplotlib is missing (the caller says so and
carries on), 4 when OUT cannot be written.
"""
import json
import math
import sys

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch
    from matplotlib.ticker import FuncFormatter
except ImportError:
    sys.exit(3)

plt.rcParams.update({
    "font.size": 11, "axes.titlesize": 12, "axes.labelsize": 11, "xtick.labelsize": 10,
    "ytick.labelsize": 10, "legend.fontsize": 10, "figure.titlesize": 13,
})
DPI = 100
MIB_TO_MB = 1.048576
MEASURED_BAR = dict(facecolor="white", edgecolor="black", hatch="///")
MEASURED_LINE = dict(color="black", marker="s", markersize=6, linewidth=2.5, alpha=0.8)


def num(cell):
    try:
        return float(cell)
    except (TypeError, ValueError):
        return math.nan


def kib(label):
    """'64K' -> 64.0"""
    return float(str(label).rstrip(":").rstrip("K"))


def size_label(k):
    return "%gK" % k


def size_axis(ax, xs, name):
    """A log2 axis whose ticks are the sizes themselves: 4K, 8K, ... 1024K."""
    ax.set_xscale("log", base=2)
    ax.set_xticks(xs)
    ax.set_xticklabels([size_label(x) for x in xs], rotation=45)
    ax.minorticks_off()
    ax.set_xlabel(name)


def megabytes(n):
    return "%.1f MB" % (n / 1e6)


def plain_log_ticks(axis):
    """Log-scale ticks as plain numbers (100, 1000), not 10^n."""
    axis.set_major_formatter(FuncFormatter(lambda v, _: "%g" % v))


def legend_outside(ax, **kw):
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1), borderaxespad=0, **kw)


def save(fig, out):
    fig.savefig(out, dpi=DPI, bbox_inches="tight")


def sim_colours(n):
    cmap = plt.get_cmap("tab10" if n <= 10 else "tab20")
    return [cmap(i % cmap.N) for i in range(n)]


def plot_matrix(res, out):
    """phillip: one panel per squashfs block size, MB/s by dd bs; the seed's
    measured 1024K columns in black on that panel; the legend in the sixth
    slot."""
    tables = [t for t in res["tables"] if "simulated" in t["title"]]
    seed = [t for t in res["tables"] if "measured" in t["title"]]
    top = max([num(c) for t in tables for r in t["rows"] for c in r[1:]
               if not math.isnan(num(c))] + [1])
    cols = 3
    rows = (len(tables) + 1 + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(5 * cols, 4.2 * rows), sharey=True,
                             squeeze=False)
    flat = [a for row in axes for a in row]
    handles = {}
    for ax, t in zip(flat, tables):
        xs = [kib(r[0]) for r in t["rows"]]
        colours = sim_colours(len(t["columns"]))
        for c, name in enumerate(t["columns"]):
            ys = [num(r[c + 1]) for r in t["rows"]]
            style = "-" if name.startswith("No Asyn") else "--" if name.startswith("Asyn") else ":"
            (h,) = ax.plot(xs, ys, style, marker="o", markersize=4, color=colours[c],
                           linewidth=1.5)
            handles.setdefault("simulated: " + name, h)
        if seed and "1024K" in t["title"]:
            s = seed[0]
            for c, name in enumerate(s["columns"][:2]):
                (h,) = ax.plot(xs, [num(r[c + 1]) for r in s["rows"]],
                               linestyle="--" if c == 0 else "-", **MEASURED_LINE)
                handles.setdefault("measured (seed 000, 1024K): " + name, h)
        ax.set_title(t["title"].split("(")[0].replace("Squashfs: gzip filesystem ", "").strip() +
                     " (simulated)")
        size_axis(ax, xs, "dd bs")
        ax.set_ylim(0, top * 1.08)
        ax.grid(alpha=0.3)
    for ax in axes[:, 0]:
        ax.set_ylabel("MB/s")
    for ax in flat[len(tables):]:
        ax.axis("off")
    flat[-1].legend(list(handles.values()), list(handles.keys()), loc="center", frameon=False)
    fig.suptitle("phillip, simulated on %s: dd throughput by dd bs, per squashfs block size"
                 % res["profile"])
    fig.tight_layout()
    save(fig, out)


def plot_emmc(res, out):
    """emmc: MB/s per variant, the seed's two measurements hatched."""
    t = res["tables"][0]
    rec = res["records"][0]
    names = [r[0] for r in t["rows"]]
    vals = [num(r[1]) for r in t["rows"]]  # the MB/s column
    fig, ax = plt.subplots(figsize=(10, 0.5 * len(names) + 1.8))
    for i, (name, v) in enumerate(zip(names, vals)):
        measured = name.startswith("seed")
        style = MEASURED_BAR if measured else dict(color="tab:blue")
        ax.barh(i, 0 if math.isnan(v) else v,
                label=("measured: " if measured else "simulated: ") + name, **style)
        ax.text(0 if math.isnan(v) else v, i, " %.1f" % v, va="center")
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names)
    ax.invert_yaxis()
    ax.set_xlabel("MB/s")
    ax.set_xlim(0, max(v for v in vals if not math.isnan(v)) * 1.15)
    legend_outside(ax, handles=[Patch(**MEASURED_BAR, label="measured (seed thread)"),
                                Patch(color="tab:blue", label="simulated")])
    ax.set_title("emmc, simulated on %s: dd bs=%s of a %s file" %
                 (res["profile"], size_label(rec["dd_bs"] / 1024), megabytes(rec["file_bytes"])))
    save(fig, out)


def plot_sweep(res, out, factor, xname, title):
    """usb and blocksize: MB/s against a size; seed columns black, the
    simulated ones coloured (sync solid, async dashed)."""
    t = res["tables"][0]
    xs = [kib(r[0]) for r in t["rows"]]
    sims = [c for c in t["columns"] if not c.startswith("seed")]
    # "gzip sync-3.13/single": one colour per codec, the variant by line style.
    group = lambda name: name.split(" ")[0] if " " in name else name
    groups = list(dict.fromkeys(group(c) for c in sims))
    colours = dict(zip(groups, sim_colours(len(groups))))
    fig, ax = plt.subplots(figsize=(10, 5))
    for c, name in enumerate(t["columns"]):
        ys = [num(r[c + 1]) * factor for r in t["rows"]]
        if name.startswith("seed"):
            ax.plot(xs, ys, linestyle="--" if "before" in name else "-",
                    label="measured: " + name, **MEASURED_LINE)
        else:
            ax.plot(xs, ys, "--" if "async" in name else "-", marker="o", markersize=4,
                    color=colours[group(name)], linewidth=1.5, label="simulated: " + name)
    size_axis(ax, xs, xname)
    ax.set_ylabel("MB/s")
    ax.set_ylim(bottom=0)
    ax.grid(alpha=0.3)
    legend_outside(ax)
    ax.set_title(title)
    save(fig, out)


def plot_latency(res, out):
    """rt-latency: the worst wake-up latency per strategy (bars, log) with
    the seed's measurements as black lines, and the wake-up latency
    histograms (cyclictest -h) as steps, one panel per codec."""
    recs = [r for r in res["records"] if r.get("histogram")]
    codecs = sorted({r.get("codec", "") for r in recs})
    fig, axes = plt.subplots(1, 1 + len(codecs), figsize=(6 + 5.5 * len(codecs), 5),
                             gridspec_kw={"width_ratios": [1.3] + [1] * len(codecs)})
    left = axes[0]
    names = [r.get("codec", "") + " " + r["variant"] + "/" + r["decomp"] for r in recs]
    left.barh(names, [r["max_wakeup_latency_ns"] / 1e3 for r in recs], color="tab:blue",
              label="simulated")
    for x, name, style in ((8000, "measured (seed): percpu ~8000 us", "--"),
                           (80, "measured (seed): RT local lock ~80 us", ":")):
        left.axvline(x, color="black", linestyle=style, linewidth=2, label=name)
    left.set_xscale("log")
    plain_log_ticks(left.xaxis)
    left.set_xlabel("worst wake-up latency (us)")
    left.invert_yaxis()
    left.set_title("worst case")
    left.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), frameon=False)
    strategies = sorted({r["decomp"] for r in recs})
    colours = dict(zip(strategies, sim_colours(len(strategies))))
    for ax, codec in zip(axes[1:], codecs):
        for r in recs:
            if r.get("codec", "") != codec:
                continue
            counts = [int(c) for c in r["histogram"].split(",")]
            width = r["bucket_ns"] / 1e3
            last = max(i for i, c in enumerate(counts) if c > 0) + 1
            edges = [max(i * width, width / 2) for i in range(last + 1)]
            ax.stairs(counts[:last], edges, color=colours[r["decomp"]], linewidth=1.8,
                      label=r["variant"] + "/" + r["decomp"])
        ax.set_xscale("log")
        ax.set_yscale("log")
        plain_log_ticks(ax.xaxis)
        plain_log_ticks(ax.yaxis)
        ax.set_xlabel("wake-up latency (us)")
        ax.set_ylabel("wake-ups per bucket")
        ax.set_title("%s: latency histogram" % codec)
        ax.grid(alpha=0.3)
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), frameon=False)
    fig.suptitle("rt-latency, simulated on %s: cyclictest beside decompressing readers"
                 % res["profile"])
    fig.tight_layout()
    save(fig, out)


def plot_fidelity(res, out):
    """fidelity: every visible figure of the thread (black, hatched) beside
    its simulation (blue), one panel per kind: rates in MB/s (the thread's
    MiB/s converted), async against sync in %, counts (log) and the RT
    thread's latencies (us, log). A stated
    range is a bar from its low to its high end; a figure, a bar from 0."""
    recs = res["records"]
    kinds = [("rates", lambda r: r["unit"] in ("MB/s", "MiB/s"), "MB/s"),
             ("async vs sync, 256K vs 128K", lambda r: r["unit"] == "%", "%"),
             ("counts", lambda r: r["unit"] == "count", "count (log)"),
             ("cyclictest worst wake-up (2018 RT thread)", lambda r: r["unit"] == "us",
              "us (log)")]
    panels = [(name, [r for r in recs if pick(r)], xlabel) for name, pick, xlabel in kinds]
    panels = [p for p in panels if p[1]]
    heights = [max(2.5, 0.42 * len(p[1]) + 1) for p in panels]
    fig, axes = plt.subplots(len(panels), 1, figsize=(11, sum(heights) + 1.2),
                             gridspec_kw={"height_ratios": heights}, squeeze=False)
    sim_style = dict(color="tab:blue")
    for ax, (name, rows, xlabel) in zip(axes[:, 0], panels):
        for i, r in enumerate(rows):
            f = MIB_TO_MB if r["unit"] == "MiB/s" else 1
            lo, hi = r["thread_lo"] * f, r["thread_hi"] * f
            plo, phi = r["predicted_lo"] * f, r["predicted_hi"] * f
            log = r["unit"] in ("count", "us")
            base = 0.5 if log else 0
            top = max(hi, phi, 1)

            def span(a, b, as_range):
                if not as_range:  # a figure: a bar from the axis
                    return base, max(b, base) - base
                width = max(b - a, 0.012 * top)  # a thin range stays visible
                return (a + b) / 2 - width / 2, width
            left, width = span(lo, hi, lo != hi)
            ax.barh(i - 0.2, width, left=left, height=0.38, label="measured", **MEASURED_BAR)
            left, width = span(plo, phi, lo != hi)
            ax.barh(i + 0.2, width, left=left, height=0.38, label="simulated", **sim_style)
        ax.set_yticks(range(len(rows)))
        ax.set_yticklabels([("%s (%s)" % (r["id"], "yes" if r["within"] == "yes" else "NO"))
                            for r in rows])
        ax.invert_yaxis()
        if xlabel.endswith("(log)"):
            ax.set_xscale("log")
            plain_log_ticks(ax.xaxis)
        ax.set_xlabel(xlabel)
        ax.set_title(name + " (within target?)")
        ax.grid(alpha=0.3, axis="x")
    legend_outside(axes[0, 0], handles=[Patch(**MEASURED_BAR, label="measured (the seed threads)"),
                                        Patch(label="simulated", **sim_style)])
    fig.suptitle("fidelity: the threads' visible figures, measured vs simulated "
                 "(MiB/s converted to MB/s)", y=1.0)
    fig.tight_layout()
    save(fig, out)


def draw(res, out):
    """Draws the figure of `res` (a bench JSON result) into `out`."""
    s = res["scenario"]
    if s == "phillip":
        plot_matrix(res, out)
    elif s == "emmc":
        plot_emmc(res, out)
    elif s == "rt-latency":
        plot_latency(res, out)
    elif s == "fidelity":
        plot_fidelity(res, out)
    elif s == "usb":
        plot_sweep(res, out, MIB_TO_MB, "dd bs",
                   "usb, simulated on %s: dd throughput by dd bs (the seed's MiB/s converted)"
                   % res["profile"])
    else:
        plot_sweep(res, out, 1, "squashfs block size",
                   "%s, simulated on %s: dd bs=64K throughput by block size"
                   % (s, res["profile"]))


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: plot.py RESULT.json OUT.png")
    with open(sys.argv[1]) as f:
        res = json.load(f)
    try:
        draw(res, sys.argv[2])
    except OSError as e:
        print("plot.py: %s: %s" % (sys.argv[2], e.strerror), file=sys.stderr)
        sys.exit(4)


if __name__ == "__main__":
    main()
