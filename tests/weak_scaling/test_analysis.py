"""Efficiency, ratios, A2A tables and result consistency (scripts/weak_scaling/analysis.py)."""
import unittest

from weak_scaling import analysis


def row(app, build, ranks, seconds, status="ok", repeat=1, mapping="compact", result=None, clusters=None):
    r = {"app": app, "build": build, "board": "b", "ranks": str(ranks), "mapping": mapping, "ppc": "12",
         "class": "test", "repeat": str(repeat), "seconds": "" if seconds is None else str(seconds),
         "status": status, "clusters": str(clusters if clusters is not None else max(1, ranks // 12)),
         "result": result if result is not None else "%s: size %d" % (app, max(1, ranks // 12))}
    return r


class Math(unittest.TestCase):
    def test_efficiency(self):
        self.assertEqual(analysis.efficiency(2.0, 2.0), 1.0)
        self.assertEqual(analysis.efficiency(2.0, 4.0), 0.5)
        self.assertIsNone(analysis.efficiency(None, 4.0))
        self.assertIsNone(analysis.efficiency(2.0, None))
        self.assertIsNone(analysis.efficiency(2.0, 0.0))

    def test_speedup(self):
        self.assertEqual(analysis.speedup(6.0, 2.0), 3.0)
        self.assertIsNone(analysis.speedup(None, 2.0))
        self.assertIsNone(analysis.speedup(6.0, 0))

    def test_median_over_successful_repeats(self):
        rows = [row("fn", "opt", 12, 1.0, repeat=1), row("fn", "opt", 12, 5.0, repeat=2),
                row("fn", "opt", 12, 2.0, repeat=3), row("fn", "opt", 12, 0.1, status="timeout", repeat=4),
                row("fn", "opt", 12, None, status="failed", repeat=5)]
        self.assertEqual(analysis.median_times(rows), {("fn", "opt", "compact", 12): (2.0, 3)})

    def test_build_order(self):
        self.assertEqual(analysis.order_builds(["opt+x", "opt", "ipc", "unopt"]), ["ipc", "unopt", "opt", "opt+x"])


class SeriesTest(unittest.TestCase):
    ROWS = [row("gf", b, n, t * f) for b, f in (("opt", 1), ("unopt", 2), ("ipc", 3))
            for n, t in ((1, 10.0), (12, 10.0), (24, 12.5), (192, 20.0))]

    def series(self, rows):
        (s,) = analysis.all_series(rows)
        return s

    def test_efficiency_against_one_full_cluster(self):
        s = self.series(self.ROWS)
        self.assertEqual((s.app, s.mapping, s.builds, s.ranks, s.base_ranks),
                         ("gf", "compact", ["ipc", "unopt", "opt"], [1, 12, 24, 192], 12))
        self.assertEqual([s.efficiency("opt", n) for n in s.ranks], [1.0, 1.0, 0.8, 0.5])
        self.assertEqual(s.efficiency("ipc", 192), 0.5)

    def test_ratios_of_opt(self):
        s = self.series(self.ROWS)
        self.assertEqual(s.speedup_of_opt("unopt", 24), 2.0)
        self.assertEqual(s.speedup_of_opt("ipc", 192), 3.0)

    def test_a_failed_base_leaves_efficiency_undefined(self):
        rows = [r for r in self.ROWS if not (r["build"] == "opt" and r["ranks"] == "12")]
        rows.append(row("gf", "opt", 12, None, status="timeout"))
        s = self.series(rows)
        self.assertEqual(s.base_ranks, 12)
        self.assertIsNone(s.efficiency("opt", 24))
        self.assertEqual(s.efficiency("unopt", 24), 0.8)

    def test_base_is_the_most_ranks_on_the_fewest_clusters(self):
        self.assertEqual(analysis.base_ranks([1, 4, 8, 16], {1: "1", 4: "1", 8: "2", 16: "4"}), 4)
        self.assertEqual(analysis.base_ranks([2, 4], {2: "2", 4: "4"}), 2)
        self.assertEqual(analysis.base_ranks([1, 12], {}), 1)

    def test_without_opt_there_are_no_ratios(self):
        s = self.series([r for r in self.ROWS if r["build"] != "opt"])
        self.assertIsNone(s.speedup_of_opt("ipc", 12))

    def test_a2a_is_not_a_series(self):
        self.assertEqual(analysis.all_series([row("a2a", "opt", 12, 1.0)]), [])


class A2ATable(unittest.TestCase):
    def a2a(self, mapping, size, seconds, repeat=1):
        return {"build": "opt", "board": "b", "ranks": "12", "mapping": mapping, "ppc": "12" if mapping == "compact"
                else "0", "class": "test", "repeat": str(repeat), "size": str(size), "seconds": str(seconds)}

    def test_medians_from_successful_runs_only(self):
        runs = [dict(row("a2a", "opt", 12, 1.0, mapping="compact"), ppc="12"),
                dict(row("a2a", "opt", 12, 1.0, mapping="scatter"), ppc="0"),
                dict(row("a2a", "opt", 12, 1.0, mapping="scatter", repeat=2, status="failed"), ppc="0")]
        a2a = [self.a2a("compact", 128, 1.0), self.a2a("compact", 256, 2.0),
               self.a2a("scatter", 128, 3.0), self.a2a("scatter", 128, 99.0, repeat=2)]
        table, ranks = analysis.a2a_table(runs, a2a)
        self.assertEqual(ranks, [12])
        self.assertEqual(dict(table["opt"]), {128: {"compact": 1.0, "scatter": 3.0}, 256: {"compact": 2.0}})


class ResultConsistency(unittest.TestCase):
    def test_identical_lines_are_fine(self):
        rows = [row("fn", b, n, 1.0) for b in ("ipc", "opt") for n in (1, 12, 24)]
        self.assertEqual(analysis.result_differences(rows), [])

    def test_a_different_line_for_the_same_size_is_reported(self):
        rows = [row("fn", "opt", 12, 1.0), row("fn", "opt", 1, 1.0),
                row("fn", "unopt", 12, 1.0, result="fn: other"), row("fn", "opt", 24, 1.0)]
        diffs = analysis.result_differences(rows)
        self.assertEqual(len(diffs), 1)
        app, klass, clusters, lines = diffs[0]
        self.assertEqual((app, klass, clusters), ("fn", "test", "1"))
        self.assertEqual(dict(lines), {"fn: size 1": ["opt 12 ranks compact #1", "opt 1 ranks compact #1"],
                                       "fn: other": ["unopt 12 ranks compact #1"]})

    def test_different_sizes_may_differ_and_empty_lines_do_not_count(self):
        rows = [row("km", "opt", 12, 1.0), row("km", "opt", 24, 1.0), row("km", "opt", 12, None, "failed", 2, result="")]
        self.assertEqual(analysis.result_differences(rows), [])

    def test_a2a_compares_across_placements(self):
        rows = [row("a2a", "opt", 12, 1.0, mapping="compact", clusters=1, result="a2a: ok"),
                row("a2a", "opt", 12, 1.0, mapping="scatter", clusters=12, result="a2a: bad")]
        self.assertEqual(len(analysis.result_differences(rows)), 1)


if __name__ == "__main__":
    unittest.main()
