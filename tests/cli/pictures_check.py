#!/usr/bin/env python3
"""Independent readers of build/replay's pictures, for tests/cli/cli.sh.

columns CSV SVG: recompute, from the exact timeline CSV (read with the csv module), each pixel
    column's time-weighted mean, least and largest busy processors and queued jobs over the
    window the SVG's subtitle names, and compare them with the SVG's paths (busy-mean, busy-band,
    queued-mean, queued-band). Prints what differs, nothing when all agree.
ticks SVG EPOCH ZONE: every calendar tick (class="tick", data-t the local time) placed by Python's
    zoneinfo (the system's tz database, not trace/tz.c) must sit at its x; its label must be the
    end of data-t. Prints what differs.
window SVG: print the window's simulated seconds "FROM TO" from the subtitle.
"""
import csv
import re
import sys
from datetime import datetime
from zoneinfo import ZoneInfo

LEFT, TOP, PLOT_W, PH = 80, 56, 1400, 420  # sim_host/pictures.c's plot area (the timeline's height)


def window(svg):
    m = re.search(r'window [^<]*?\(simulated seconds (-?\d+) to (-?\d+)\)', svg) or \
        re.search(r'window (-?\d+) s to (-?\d+) s', svg)
    return int(m.group(1)), int(m.group(2))


def path(svg, pid):
    m = re.search(r'<path id="%s"[^>]*d="([^"]*)"' % pid, svg)
    return m.group(1) if m else ''


def axis_max(svg, anchor):
    """The largest label of a value axis (text-anchor start: the right one, the queue's, whose top is labelled)."""
    vals = [float(v) for v in re.findall(r'<text x="[\d.]+" y="[\d.]+" text-anchor="%s">([\d.]+)</text>' % anchor, svg)]
    return max(vals)


def expected(rows, col, lo, hi):
    """Per column [lo + c w, lo + (c + 1) w): (mean, min, max) of column col of the rows, or None."""
    w = (hi - lo) / PLOT_W
    out = []
    for c in range(PLOT_W):
        a, b = lo + c * w, lo + (c + 1) * w
        s = cover = 0.0
        vals = []
        for k in range(len(rows) - 1):
            x, y = max(rows[k][0], a), min(rows[k + 1][0], b)
            if y > x:
                s += rows[k][col] * (y - x)
                cover += y - x
                vals.append(rows[k][col])
        out.append((s / cover, min(vals), max(vals)) if cover > 0 else None)
    return out


def columns(csv_path, svg_path):
    svg = open(svg_path).read()
    with open(csv_path, newline='') as f:
        rows = [[float(v) for v in r] for r in list(csv.reader(f))[1:]]
    lo, hi = window(svg)
    bad = []
    procs = float(re.search(r', (\d+) processors</text>', svg).group(1))  # space sharing: the busy axis is the machine
    for name, col, vmax in (('busy', 1, procs), ('queued', 2, axis_max(svg, 'start'))):
        want = expected(rows, col, lo, hi)
        y = lambda v: TOP + PH - v * PH / vmax
        # The mean: an area (busy: pairs "L x y L x+1 y" per column) or a line (queued: one point per column).
        pts = [(int(x), float(v)) for x, v in re.findall(r'[ML](\d+) ([\d.]+)', path(svg, name + '-mean'))]
        if name == 'busy':
            pts = pts[1:-1:2]  # from the axis and back to it; a column is "L x y L x+1 y"
        got = {}
        for x, v in pts:
            got.setdefault(x - LEFT, v)
        for c, e in enumerate(want):
            if e is None:
                continue
            if c not in got or abs(got[c] - y(e[0])) > 0.051:
                bad.append('%s mean column %d: y %s, want %.2f' % (name, c, got.get(c), y(e[0])))
        # The band: per run of columns, the top edge left to right, then the bottom edge back.
        for sub in path(svg, name + '-band').split('Z'):
            p = [(int(x), float(v)) for x, v in re.findall(r'[ML](\d+) ([\d.]+)', sub)]
            half = len(p) // 2
            for (x, v) in p[:half:2]:
                e = want[x - LEFT]
                if e is None or abs(v - y(e[2])) > 0.051:
                    bad.append('%s band top column %d: y %.1f, want %s' % (name, x - LEFT, v, e and round(y(e[2]), 2)))
            for (x, v) in p[half + 1::2]:
                e = want[x - LEFT]
                if e is None or abs(v - y(e[1])) > 0.051:
                    bad.append('%s band bottom column %d: y %.1f, want %s' % (name, x - LEFT, v, e and round(y(e[1]), 2)))
    print('\n'.join(bad[:5]))


def ticks(svg_path, epoch, zone):
    svg = open(svg_path).read()
    lo, hi = window(svg)
    z = ZoneInfo(zone)
    found = re.findall(r'<text class="tick" data-t="([^"]+)" x="([\d.]+)"[^>]*>([^<]*)</text>', svg)
    bad = [] if len(found) >= 3 else ['only %d ticks' % len(found)]
    for t, x, label in found:
        fmt = '%Y-%m-%d %H:%M:%S' if t.count(':') == 2 else '%Y-%m-%d %H:%M'
        sim = datetime.strptime(t, fmt).replace(tzinfo=z).timestamp() - epoch
        want = LEFT + (sim - lo) * PLOT_W / (hi - lo)
        if abs(float(x) - want) > 0.06:
            bad.append('tick %s at x %s, want %.2f' % (t, x, want))
        if not (t.endswith(label) or t.startswith(label)) or not label:
            bad.append('tick %s labelled %r' % (t, label))
    print('\n'.join(bad[:5]))


if __name__ == '__main__':
    if sys.argv[1] == 'columns':
        columns(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == 'ticks':
        ticks(sys.argv[2], int(sys.argv[3]), sys.argv[4])
    else:
        print('%d %d' % window(open(sys.argv[2]).read()))
