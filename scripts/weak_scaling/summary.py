"""summary.md: the sweep's tables in Markdown (efficiency per rank count, time ratios
between builds, A2A compact vs scatter, LBM's MLUPS per cluster count, result-line
consistency, failed runs)."""
from . import analysis

# The LWMPI thesis (Uller, UFSC 2021) on MPPA-256, 192 ranks, to set our figures against.
THESIS_NOTE = ("Thesis (MPPA-256, 192 ranks, compact, 12 per cluster): efficiency FN 77 %, GF 52 %, KM 57 %; "
               "LWMPI-opt up to 3.2x faster than unopt on GF and up to 2x on KM; A2A compact beats scatter.")


def seconds(t):
    return "-" if t is None else "%.4g" % t


def percent(e):
    return "-" if e is None else "%.1f %%" % (100.0 * e)


def times(x):
    return "-" if x is None else "%.2fx" % x


def clock(total):
    total = int(round(total))
    return "%d:%02d:%02d" % (total // 3600, total // 60 % 60, total % 60)


def _table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(r) + " |" for r in rows]
    return lines


def _series_section(s):
    others = [b for b in s.builds if b != "opt"] if "opt" in s.builds else []
    header = ["ranks", "clusters"] + ["%s time (s)" % b for b in s.builds] + \
             ["%s efficiency" % b for b in s.builds] + ["opt vs %s" % b for b in others]
    body = []
    for n in s.ranks:
        body.append([str(n), s.clusters.get(n, "-")] + [seconds(s.time[(b, n)]) for b in s.builds] +
                    [percent(s.efficiency(b, n)) for b in s.builds] +
                    [times(s.speedup_of_opt(b, n)) for b in others])
    return ["## %s (%s mapping)" % (s.app.upper(), s.mapping), ""] + _table(header, body) + [""]


def _a2a_section(table, ranks):
    out = ["## A2A (%s ranks): time per message size" % ", ".join(str(r) for r in ranks), ""]
    for build, sizes in table.items():
        body = []
        for size, by_map in sizes.items():
            c, s = by_map.get("compact"), by_map.get("scatter")
            body.append([str(size), seconds(c), seconds(s), times(analysis.speedup(s, c))])
        out += ["%s:" % build, ""] + _table(["size (B)", "compact (s)", "scatter (s)", "scatter / compact"], body) + [""]
    return out


def _lbm_section(t):
    n, steps = t.cavity
    out = ["## LBM (cavity %d^3, %d steps): MLUPS per compute cluster count" % (n, steps), "",
           "Lattice updates per second of virtual time, in millions (share of the clusters' time in DDR calls "
           "and step barriers); one rank per cluster; build depthD-ddrK = pipeline depth D, lattices on K DDRs.",
           ""]
    body = []
    for c in t.clusters:
        cells = []
        for config in t.configs:
            v = t.value.get((config, c))
            cells.append("-" if v is None else "%.2f (%.0f %%)" % (v[0], 100.0 * v[1]))
        body.append([str(c)] + cells)
    out += _table(["clusters"] + t.configs, body) + [""]
    if t.bounds:
        one, reads = t.bounds
        out += ["Bytes moved per lattice update: %.0f. DDR bound from the board table (its server's link, "
                "one transfer at a time): %.1f MLUPS per DDR with reads and writes sharing the link%s; K DDRs, "
                "K times that." % (t.bytes_per_update, one,
                                   ", %.1f if the reads alone bounded it" % reads if reads else ""), ""]
    return out


def render(rows, a2a_rows, board, klass, facts=None):
    ok = sum(1 for r in rows if r["status"] == analysis.OK)
    wall = sum(float(r["wall_seconds"] or 0) for r in rows)
    out = ["# Weak scaling on %s, class %s" % (board, klass), "",
           "%d runs: %d ok, %d not; host wall time of the runs %s." % (len(rows), ok, len(rows) - ok, clock(wall)),
           "",
           "Times are the board's per-hart virtual clock (nvx/clock.h: instructions retired at one "
           "cycle each on the modeled core, plus hand-offs between harts; each application's "
           "`capbench:` line: rank 0, from after start-up to the complete result), the median over the successful repeats. "
           "Efficiency = T(base) / T(n), where base is the largest rank count on the fewest "
           "clusters (one full cluster: the problem grows per cluster, so 1 rank and a full "
           "cluster solve the same problem); the problem grows with the clusters in use, so 100 % is "
           "perfect weak scaling. `opt vs B` = T(B) / T(opt): above 1, opt is faster.",
           "", THESIS_NOTE, ""]
    for s in analysis.all_series(rows):
        out += _series_section(s)
    table, ranks = analysis.a2a_table(rows, a2a_rows)
    if table:
        out += _a2a_section(table, ranks)
    lbm = analysis.LbmTable(rows, facts)
    if lbm:
        out += _lbm_section(lbm)
    out += ["## Result lines", ""]
    diffs = analysis.result_differences(rows)
    if not diffs:
        out += ["Every run of the same application and problem size printed the same result line.", ""]
    for app, kl, clusters, lines in diffs:
        where = "%s, class %s%s" % (app, kl, ", %s clusters" % clusters if clusters else "")
        out += ["**Different result lines for %s** (they must be identical):" % where, ""]
        for line, runs in lines.items():
            out.append("- `%s`: %s" % (line, "; ".join(runs)))
        out.append("")
    failed = [r for r in rows if r["status"] != analysis.OK]
    if failed:
        out += ["## Runs that did not succeed", ""]
        out += _table(["app", "build", "ranks", "mapping", "repeat", "status", "exit", "log"],
                      [[r["app"], r["build"], r["ranks"], r["mapping"], r["repeat"], r["status"],
                        r["exit_status"], r["log"]] for r in failed]) + [""]
    return "\n".join(out)
