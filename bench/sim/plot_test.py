#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-only
"""This file checks the figures bench/sim/plot.py draws from real `squashlab
bench --json` results against what makes them readable: text of 10 pt or
more, "simulated" in the title, size ticks as 4K..1024K (no 2^n), MB/s as
the only throughput unit and no raw byte counts in titles, measured series
apart from simulated ones (black, hatched bars), legends outside the data,
histograms drawn as steps.

usage: plot_test.py PLOT_PY RESULT.json...
"""
import importlib.util
import json
import sys

import matplotlib
matplotlib.use("Agg")
import matplotlib.colors as mcolors
from matplotlib.legend import Legend
from matplotlib.patches import StepPatch
from matplotlib.text import Text


def load_plot(path):
    spec = importlib.util.spec_from_file_location("plot", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def overlaps(a, b):
    return a.x0 < b.x1 and b.x0 < a.x1 and a.y0 < b.y1 and b.y0 < a.y1


def check(fig, scenario):
    problems = []
    fig.canvas.draw()
    texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text().strip()]
    for t in texts:
        if t.get_fontsize() < 10:
            problems.append("%r is %.1f pt" % (t.get_text()[:40], t.get_fontsize()))
        if "^" in t.get_text():
            problems.append("a power-of-two label %r" % t.get_text())
        if "MiB/s" in t.get_text() and "converted" not in t.get_text():
            problems.append("MiB/s in %r" % t.get_text()[:60])
        if " bytes" in t.get_text():
            problems.append("raw bytes in %r" % t.get_text()[:60])
    titles = [fig._suptitle.get_text() if fig._suptitle else ""]
    titles += [ax.get_title() for ax in fig.axes]
    if not any("simulated" in t for t in titles):
        problems.append("no title says 'simulated': %r" % titles)
    data_axes = [ax for ax in fig.axes if ax.axison]
    for legend in fig.findobj(Legend):
        box = legend.get_window_extent()
        for ax in data_axes:
            if overlaps(box, ax.get_window_extent()):
                problems.append("a legend covers the data of %r" % ax.get_title())
    measured, simulated = [], []
    for ax in fig.axes:
        # A bar's label is its container's.
        container_label = {id(p): c.get_label() for c in ax.containers for p in c}
        for artist in list(ax.lines) + list(ax.patches):
            label = container_label.get(id(artist), artist.get_label()) or ""
            (measured if label.startswith("measured") else simulated).append(artist)
        if "histogram" in ax.get_title():
            if not any(isinstance(p, StepPatch) for p in ax.patches):
                problems.append("histogram %r not drawn as steps" % ax.get_title())
            if any(len(line.get_xdata()) > 2 for line in ax.lines):
                problems.append("histogram %r drawn as connected lines" % ax.get_title())
    black = mcolors.to_rgb("black")
    for artist in measured:
        colour = artist.get_edgecolor() if hasattr(artist, "get_hatch") else artist.get_color()
        if mcolors.to_rgb(colour) != black:
            problems.append("a measured series is not black")
        if hasattr(artist, "get_hatch") and not artist.get_hatch():
            problems.append("a measured bar is not hatched")
    for artist in simulated:
        if hasattr(artist, "get_hatch") and artist.get_hatch():
            problems.append("a simulated bar is hatched")
    return ["%s: %s" % (scenario, p) for p in problems]


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    plot = load_plot(argv[1])
    figures = []
    plot.save = lambda fig, out: figures.append(fig)
    problems = []
    for path in argv[2:]:
        with open(path) as f:
            res = json.load(f)
        del figures[:]
        plot.draw(res, "unused.png")
        if len(figures) != 1:
            problems.append("%s: %d figures" % (res["scenario"], len(figures)))
            continue
        problems += check(figures[0], res["scenario"])
    for p in problems:
        print("FAIL:", p)
    print("%d figures, %d problems" % (len(argv) - 2, len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
