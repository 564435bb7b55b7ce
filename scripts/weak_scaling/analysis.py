"""From recorded runs to figures: median times per point, weak-scaling efficiency,
time ratios between builds, A2A per message size, LBM's MLUPS per cluster count, and
result-line consistency."""
import collections
import re
import statistics

OK = "ok"


def _float(value):
    try:
        return float(value)
    except (TypeError, ValueError):
        return None


def median_times(rows):
    """{(app, build, mapping, ranks): (median seconds, runs)} over the successful runs."""
    samples = collections.defaultdict(list)
    for r in rows:
        t = _float(r["seconds"])
        if r["status"] == OK and t is not None:
            samples[(r["app"], r["build"], r["mapping"], int(r["ranks"]))].append(t)
    return {k: (statistics.median(v), len(v)) for k, v in samples.items()}


def efficiency(base_time, time):
    """Weak-scaling efficiency T(base) / T(n): 1 when the time stays flat as the problem
    grows with the ranks."""
    if base_time is None or time is None or time <= 0:
        return None
    return base_time / time


def speedup(other_time, opt_time):
    """How many times faster opt ran than another build: T(other) / T(opt)."""
    if other_time is None or opt_time is None or opt_time <= 0:
        return None
    return other_time / opt_time


def series_keys(rows):
    """(app, mapping) pairs of the CAP Bench runs, with their builds and rank counts
    (failed runs included: they belong to the sweep), in the sweep's order."""
    out = collections.OrderedDict()
    for r in rows:
        if r["app"] in ("a2a", "lbm"):
            continue
        entry = out.setdefault((r["app"], r["mapping"]), {"builds": [], "ranks": set(), "clusters": {}})
        if r["build"] not in entry["builds"]:
            entry["builds"].append(r["build"])
        entry["ranks"].add(int(r["ranks"]))
        if r["clusters"]:
            entry["clusters"].setdefault(int(r["ranks"]), r["clusters"])
    for entry in out.values():
        entry["ranks"] = sorted(entry["ranks"])
        entry["builds"] = order_builds(entry["builds"])
    return out


def order_builds(builds):
    """ipc, unopt, opt (the thesis' order), then builds with kernel options."""
    rank = {"ipc": 0, "unopt": 1, "opt": 2}
    return sorted(builds, key=lambda b: (rank.get(b, 3), b))


def base_ranks(ranks, clusters):
    """The weak-scaling base: the most ranks on the fewest clusters (one full cluster). The
    problem grows per cluster, so 1 rank and a full cluster solve the same problem and the
    full cluster is the fair base; without cluster counts, the smallest rank count."""
    known = [n for n in ranks if clusters.get(n)]
    if not known:
        return ranks[0]
    fewest = min(int(clusters[n]) for n in known)
    return max(n for n in known if int(clusters[n]) == fewest)


class Series:
    """One application and mapping: time and efficiency per build and rank count."""

    def __init__(self, app, mapping, builds, ranks, clusters, times):
        self.app, self.mapping, self.builds, self.ranks, self.clusters = app, mapping, builds, ranks, clusters
        self.base_ranks = base_ranks(ranks, clusters)
        self.time = {}
        self.runs = {}
        for b in builds:
            for n in ranks:
                t = times.get((app, b, mapping, n))
                self.time[(b, n)] = t[0] if t else None
                self.runs[(b, n)] = t[1] if t else 0

    def efficiency(self, build, ranks):
        return efficiency(self.time[(build, self.base_ranks)], self.time[(build, ranks)])

    def speedup_of_opt(self, other, ranks):
        if "opt" not in self.builds:
            return None
        return speedup(self.time[(other, ranks)], self.time[("opt", ranks)])


def all_series(rows):
    times = median_times(rows)
    return [Series(app, mapping, e["builds"], e["ranks"], e["clusters"], times)
            for (app, mapping), e in series_keys(rows).items()]


def a2a_table(rows, a2a_rows):
    """{build: {size: {mapping: median seconds}}} from the A2A runs that succeeded, and the
    rank counts they ran at."""
    ok = {(r["build"], r["board"], r["ranks"], r["mapping"], r["ppc"], r["class"], r["repeat"])
          for r in rows if r["app"] == "a2a" and r["status"] == OK}
    samples = collections.defaultdict(list)
    ranks = set()
    for r in a2a_rows:
        key = (r["build"], r["board"], r["ranks"], r["mapping"], r["ppc"], r["class"], r["repeat"])
        t = _float(r["seconds"])
        if key in ok and t is not None:
            samples[(r["build"], int(r["size"]), r["mapping"])].append(t)
            ranks.add(int(r["ranks"]))
    table = collections.OrderedDict()
    for (build, size, mapping) in sorted(samples, key=lambda k: (order_builds([k[0]]), k[1])):
        table.setdefault(build, collections.OrderedDict()).setdefault(size, {})[mapping] = \
            statistics.median(samples[(build, size, mapping)])
    return collections.OrderedDict((b, table[b]) for b in order_builds(list(table))), sorted(ranks)


def result_differences(rows):
    """Groups of runs of the same application and problem size (class and clusters; A2A's
    size does not depend on its placement) that printed different result lines:
    [(app, class, clusters, {line: [runs]})]. There must be none."""
    groups = collections.OrderedDict()
    for r in rows:
        if not r["result"]:
            continue
        # A2A's size and LBM's cavity do not depend on the placement.
        clusters = "" if r["app"] in ("a2a", "lbm") else r["clusters"]
        run = "%s %s ranks %s #%s" % (r["build"], r["ranks"], r["mapping"], r["repeat"])
        groups.setdefault((r["app"], r["class"], clusters), collections.OrderedDict()) \
              .setdefault(r["result"], []).append(run)
    return [(app, klass, clusters, lines) for (app, klass, clusters), lines in groups.items() if len(lines) > 1]


_LBM_RESULT = re.compile(r"^lbm: cavity (\d+)\^3, steps (\d+),")
_LBM_CONFIG = re.compile(r"^depth(\d+)-ddr(\d+)$")
# lbm_d3q19.h: a node's 19 single-precision values, what a block puts back per update.
LBM_NODE_BYTES = 19 * 4


class LbmTable:
    """LBM's successful runs: MLUPS (lattice updates per second of virtual time, millions)
    and the share of time in DDR calls and step barriers, per configuration and cluster
    count (medians over repeats), and the board table's DDR bounds."""

    def __init__(self, rows, facts=None):
        samples = collections.defaultdict(list)
        self.cavity = None
        per_update = []
        for r in rows:
            m = _LBM_RESULT.match(r["result"]) if r["app"] == "lbm" and r["status"] == OK else None
            if not m:
                continue
            t, cycles, comm = _float(r["seconds"]), _float(r["cycles"]), _float(r["comm_cycles"])
            if not t or not cycles or comm is None:
                continue
            n, steps = int(m.group(1)), int(m.group(2))
            self.cavity = (n, steps)
            updates = n ** 3 * steps
            samples[(r["build"], int(r["clusters"]))].append((updates / t / 1e6, comm / cycles))
            if _float(r["bytes"]):
                per_update.append(float(r["bytes"]) / updates)
        self.value = {k: (statistics.median(v[0] for v in vs), statistics.median(v[1] for v in vs))
                      for k, vs in samples.items()}
        self.configs = sorted({c for c, _ in self.value}, key=_config_order)
        self.clusters = sorted({n for _, n in self.value})
        self.bytes_per_update = statistics.median(per_update) if per_update else None
        self.bounds = None
        if facts and self.bytes_per_update and "BOARD_CORE_HZ" in facts and "BOARD_NOC_LINK_BYTES_PER_CYCLE" in facts:
            rate = float(facts["BOARD_CORE_HZ"]) * float(facts["BOARD_NOC_LINK_BYTES_PER_CYCLE"])
            # A DDR is its server's link: one transfer at a time, reads and writes sharing
            # it; if a write's data could arrive while the server sends, the reads alone
            # would bound it.
            reads = self.bytes_per_update - LBM_NODE_BYTES
            self.bounds = (rate / self.bytes_per_update / 1e6, rate / reads / 1e6 if reads > 0 else None)

    def __bool__(self):
        return bool(self.value)


def _config_order(name):
    m = _LBM_CONFIG.match(name)
    return (int(m.group(2)), int(m.group(1)), name) if m else (99, 99, name)


def lbm_ddrs(name):
    m = _LBM_CONFIG.match(name)
    return int(m.group(2)) if m else 1
