"""PNG plots with gnuplot: execution time and weak-scaling efficiency per application,
one curve per build (the thesis' figures 19-21), A2A time per message size, compact
vs scatter (figure 18), and LBM's MLUPS against clusters, one curve per pipeline
configuration, with the DDR bounds (the LBM paper's figures). The data (.dat) and gnuplot scripts (.gp) stay in OUT/plots/, so
a figure can be redrawn or restyled by hand."""
import os
import shutil
import subprocess

from . import analysis

MISSING = "?"
_TERMINAL = ('if (strstrt(GPVAL_TERMINALS, "pngcairo") > 0) { set terminal pngcairo size 800,500 } '
             'else { set terminal png size 800,500 }')


class PlotError(Exception):
    pass


def _value(x, scale=1.0):
    return MISSING if x is None else "%.9g" % (x * scale)


def _xaxis(values):
    """A log2 axis with a tick at every value, and room around the first and the last."""
    return ["set logscale x 2", "set xrange [%g:%g]" % (min(values) / 1.25, max(values) * 1.25),
            "set xtics (%s)" % ", ".join('"%d" %d' % (v, v) for v in values)]


def _plot(name, columns, values):
    """A gnuplot plot command over the columns (index, title) that hold at least one value;
    None when none does (gnuplot refuses a plot without points)."""
    curves = ['"%s.dat" using 1:%d with linespoints title "%s"' % (name, column, title)
              for (column, title), has_data in zip(columns, values) if has_data]
    return "plot " + ", ".join(curves) if curves else None


def series_files(s, board, klass):
    """(name, data, script, PNG names) for one application and mapping; a figure without
    any successful run is left out."""
    name = "%s-%s" % (s.app, s.mapping)
    header = "# ranks " + " ".join("%s_seconds %s_efficiency" % (b, b) for b in s.builds)
    data = [header]
    for n in s.ranks:
        data.append(" ".join([str(n)] + ["%s %s" % (_value(s.time[(b, n)]), _value(s.efficiency(b, n), 100.0))
                                          for b in s.builds]))
    title = "%s on %s, class %s, %s mapping" % (s.app.upper(), board, klass, s.mapping)
    script = [_TERMINAL, 'set datafile missing "%s"' % MISSING, "set key bottom left box opaque", "set grid"] + \
        _xaxis(s.ranks) + ['set xlabel "MPI ranks"', "set yrange [0:*]"]
    outputs = []
    figures = (("time", "execution time", "time (s, virtual clock)", 0, lambda b, n: s.time[(b, n)]),
               ("efficiency", "weak-scaling efficiency (base: %d ranks)" % s.base_ranks, "efficiency (%)", 1,
                s.efficiency))
    for suffix, what, ylabel, offset, value in figures:
        columns = [(2 + 2 * i + offset, b) for i, b in enumerate(s.builds)]
        plot = _plot(name, columns, [any(value(b, n) is not None for n in s.ranks) for b in s.builds])
        if plot is None:
            continue
        png = "%s-%s.png" % (name, suffix)
        script += ['set output "../%s"' % png, 'set title "%s: %s"' % (title, what), 'set ylabel "%s"' % ylabel, plot]
        outputs.append(png)
    return name, data, script, outputs


def a2a_files(build, sizes, ranks, board, klass):
    name = "a2a-%s" % build
    data = ["# size compact_seconds scatter_seconds"]
    for size, by_map in sizes.items():
        data.append("%d %s %s" % (size, _value(by_map.get("compact")), _value(by_map.get("scatter"))))
    plot = _plot(name, [(2, "compact"), (3, "scatter")],
                 [any(m in by_map for by_map in sizes.values()) for m in ("compact", "scatter")])
    script = [_TERMINAL, 'set datafile missing "%s"' % MISSING, "set key top left box opaque", "set grid"] + \
        _xaxis(list(sizes)) + ['set xlabel "message size (bytes)"',
                               'set ylabel "time (s, virtual clock)"', "set yrange [0:*]",
                               'set output "../%s.png"' % name,
                               'set title "A2A (%s) on %s, class %s, %s ranks"'
                               % (build, board, klass, "/".join(str(r) for r in ranks)), plot]
    return name, data, script, ["%s.png" % name]


def lbm_files(t, board, klass):
    name = "lbm-mlups"
    ddr_counts = sorted({analysis.lbm_ddrs(c) for c in t.configs})
    header = "# clusters " + " ".join(t.configs) + "".join(" bound_%dddr" % k for k in ddr_counts if t.bounds)
    data = [header]
    for c in t.clusters:
        cells = [_value(t.value[(cfg, c)][0] if (cfg, c) in t.value else None) for cfg in t.configs]
        cells += ["%.6g" % (t.bounds[0] * k) for k in ddr_counts if t.bounds]
        data.append(" ".join([str(c)] + cells))
    columns = [(2 + i, cfg) for i, cfg in enumerate(t.configs)]
    plot = _plot(name, columns, [True] * len(columns))
    if t.bounds:
        plot += ", " + ", ".join('"%s.dat" using 1:%d with lines dashtype 2 title "DDR bound, %d DDR%s"'
                                 % (name, 2 + len(t.configs) + i, k, "s" if k > 1 else "")
                                 for i, k in enumerate(ddr_counts))
    n, steps = t.cavity
    script = [_TERMINAL, 'set datafile missing "%s"' % MISSING, "set key top left box opaque", "set grid"] + \
        _xaxis(t.clusters) + ['set xlabel "compute clusters"', 'set ylabel "MLUPS (virtual time)"',
                              "set yrange [0:*]", 'set output "../%s.png"' % name,
                              'set title "LBM D3Q19 %d^3, %d steps, on %s (class %s)"' % (n, steps, board, klass),
                              plot]
    return name, data, script, ["%s.png" % name]


def write_all(out_dir, rows, a2a_rows, board, klass, gnuplot="gnuplot", facts=None):
    """Writes every plot; returns the PNG paths. Raises PlotError when gnuplot is missing
    or fails (the data and scripts are written first either way)."""
    plot_dir = os.path.join(out_dir, "plots")
    os.makedirs(plot_dir, exist_ok=True)
    jobs = [series_files(s, board, klass) for s in analysis.all_series(rows)]
    table, ranks = analysis.a2a_table(rows, a2a_rows)
    jobs += [a2a_files(b, sizes, ranks, board, klass) for b, sizes in table.items()]
    lbm = analysis.LbmTable(rows, facts)
    if lbm:
        jobs.append(lbm_files(lbm, board, klass))
    for name, data, script, _ in jobs:
        with open(os.path.join(plot_dir, name + ".dat"), "w") as f:
            f.write("\n".join(data) + "\n")
        with open(os.path.join(plot_dir, name + ".gp"), "w") as f:
            f.write("\n".join(script) + "\n")
    jobs = [j for j in jobs if j[3]]
    if not jobs:
        return []
    if shutil.which(gnuplot) is None:
        raise PlotError("%s not found: plots not drawn (make deps installs gnuplot-nox; the scripts are in %s)"
                        % (gnuplot, plot_dir))
    pngs = []
    for name, _, _, outputs in jobs:
        done = subprocess.run([gnuplot, name + ".gp"], cwd=plot_dir, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, universal_newlines=True)
        if done.returncode != 0:
            raise PlotError("gnuplot failed on %s:\n%s" % (os.path.join(plot_dir, name + ".gp"), done.stdout))
        pngs += [os.path.join(out_dir, o) for o in outputs]
    return pngs
