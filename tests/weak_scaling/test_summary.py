"""summary.md and the plot data (scripts/weak_scaling/summary.py, plots.py)."""
import os
import shutil
import tempfile
import unittest

from weak_scaling import analysis, plots, summary


def row(app, build, ranks, seconds, status="ok", mapping="compact", result=None, wall="10"):
    clusters = max(1, ranks // 12)
    r = {"app": app, "build": build, "board": "mppa256", "ranks": str(ranks), "mapping": mapping,
         "ppc": "12" if mapping == "compact" else "0", "repeat": "1", "seconds": "" if seconds is None else str(seconds),
         "status": status, "clusters": str(clusters), "wall_seconds": wall, "exit_status": "0" if status == "ok" else "124",
         "log": "logs/%s-%s-%d.log" % (app, build, ranks),
         "result": result if result is not None else "%s: size %d" % (app, clusters)}
    r["class"] = "small"
    return r


ROWS = ([row("km", b, n, t * f) for b, f in (("ipc", 4), ("unopt", 2), ("opt", 1))
         for n, t in ((1, 1.0), (12, 1.0), (192, 2.0))] +
        [row("a2a", "opt", 12, 1.0, mapping=m) for m in ("compact", "scatter")])
A2A = [{"build": "opt", "board": "mppa256", "ranks": "12", "mapping": m, "ppc": "12" if m == "compact" else "0",
        "class": "small", "repeat": "1", "size": str(s), "seconds": str(t)}
       for m, f in (("compact", 1), ("scatter", 3)) for s, t in ((128, 0.5 * f), (256, 0.6 * f))]


class Render(unittest.TestCase):
    def test_tables(self):
        text = summary.render(ROWS, A2A, "mppa256", "small")
        self.assertIn("# Weak scaling on mppa256, class small", text)
        self.assertIn("11 runs: 11 ok, 0 not; host wall time of the runs 0:01:50.", text)
        self.assertIn("base is the largest rank count on the fewest clusters", text)
        self.assertIn("| ranks | clusters | ipc time (s) | unopt time (s) | opt time (s) | ipc efficiency | "
                      "unopt efficiency | opt efficiency | opt vs ipc | opt vs unopt |", text)
        self.assertIn("| 192 | 16 | 8 | 4 | 2 | 50.0 % | 50.0 % | 50.0 % | 4.00x | 2.00x |", text)
        self.assertIn("| 1 | 1 | 4 | 2 | 1 | 100.0 % | 100.0 % | 100.0 % | 4.00x | 2.00x |", text)
        self.assertIn("| 128 | 0.5 | 1.5 | 3.00x |", text)
        self.assertIn("printed the same result line", text)
        self.assertNotIn("did not succeed", text)

    def test_failures_and_different_results_are_reported(self):
        rows = ROWS + [row("km", "opt", 12, None, status="timeout", result=""),
                       row("km", "unopt", 12, 9.0, result="km: wrong")]
        text = summary.render(rows, A2A, "mppa256", "small")
        self.assertIn("**Different result lines for km, class small, 1 clusters**", text)
        self.assertIn("- `km: wrong`: unopt 12 ranks compact #1", text)
        self.assertIn("## Runs that did not succeed", text)
        self.assertIn("| km | opt | 12 | compact | 1 | timeout | 124 | logs/km-opt-12.log |", text)


class PlotData(unittest.TestCase):
    def test_series_data_and_script(self):
        rows = [r for r in ROWS if not (r["build"] == "ipc" and r["ranks"] == "1")]
        (s,) = analysis.all_series(rows)
        name, data, script, outputs = plots.series_files(s, "mppa256", "small")
        self.assertEqual(name, "km-compact")
        self.assertEqual(data, ["# ranks ipc_seconds ipc_efficiency unopt_seconds unopt_efficiency opt_seconds "
                                "opt_efficiency",
                                "1 ? ? 2 100 1 100", "12 4 100 2 100 1 100", "192 8 50 4 50 2 50"])
        self.assertEqual(outputs, ["km-compact-time.png", "km-compact-efficiency.png"])
        self.assertIn('set output "../km-compact-efficiency.png"', script)

    def test_builds_without_a_successful_run_get_no_curve(self):
        rows = [dict(r, status="failed", seconds="") if r["build"] == "ipc" else r for r in ROWS]
        (s,) = analysis.all_series(rows)
        _, _, script, outputs = plots.series_files(s, "mppa256", "small")
        self.assertEqual(outputs, ["km-compact-time.png", "km-compact-efficiency.png"])
        plots_ = [line for line in script if line.startswith("plot ")]
        self.assertEqual(len(plots_), 2)
        for line in plots_:
            self.assertNotIn('title "ipc"', line)
            self.assertIn('title "opt"', line)

    def test_a_series_without_any_successful_run_draws_nothing(self):
        out = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, out)
        rows = [dict(r, status="timeout", seconds="") for r in ROWS if r["app"] == "km"]
        (s,) = analysis.all_series(rows)
        self.assertEqual(plots.series_files(s, "mppa256", "small")[3], [])
        self.assertEqual(plots.write_all(out, rows, [], "mppa256", "small"), [])

    def test_files_and_pngs(self):
        out = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, out)
        try:
            pngs = plots.write_all(out, ROWS, A2A, "mppa256", "small")
        except plots.PlotError as e:
            self.fail(str(e))  # make deps installs gnuplot-nox
        self.assertEqual(sorted(os.path.basename(p) for p in pngs),
                         ["a2a-opt.png", "km-compact-efficiency.png", "km-compact-time.png"])
        for p in pngs:
            with open(p, "rb") as f:
                self.assertEqual(f.read(8), b"\x89PNG\r\n\x1a\n")
        with open(os.path.join(out, "plots", "a2a-opt.dat")) as f:
            self.assertEqual(f.read(), "# size compact_seconds scatter_seconds\n128 0.5 1.5\n256 0.6 1.8\n")

    def test_missing_gnuplot_is_an_error_after_the_data(self):
        out = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, out)
        with self.assertRaises(plots.PlotError):
            plots.write_all(out, ROWS, A2A, "mppa256", "small", gnuplot="no-such-gnuplot")
        self.assertTrue(os.path.exists(os.path.join(out, "plots", "km-compact.gp")))


def lbm_row(config, clusters, seconds, status="ok", result="lbm: cavity 10^3, steps 2, lattice hash 1"):
    # 2,000 updates; 100 bytes and a quarter of the time in transfers and barriers each.
    cycles = 1000 * clusters
    return {"app": "lbm", "build": config, "board": "mppa256", "ranks": str(clusters), "clusters": str(clusters),
            "mapping": "scatter", "ppc": "0", "class": "small", "repeat": "1", "seconds": str(seconds),
            "cycles": str(cycles), "comm_cycles": str(cycles // 4), "bytes": "200000", "status": status,
            "wall_seconds": "1", "exit_status": "0", "log": "l", "result": result}


LBM_FACTS = {"BOARD_CORE_HZ": "400000000", "BOARD_NOC_LINK_BYTES_PER_CYCLE": "4"}
LBM_ROWS = [lbm_row("depth1-ddr1", 1, 0.002), lbm_row("depth2-ddr1", 1, 0.001), lbm_row("depth2-ddr2", 1, 0.001),
            lbm_row("depth1-ddr1", 4, 0.0005), lbm_row("depth2-ddr2", 4, 0.0004), lbm_row("depth2-ddr1", 4, 1.0, "failed")]


class Lbm(unittest.TestCase):
    def test_table_in_mlups_with_the_bounds(self):
        t = analysis.LbmTable(LBM_ROWS, LBM_FACTS)
        self.assertEqual(t.cavity, (10, 2))
        self.assertEqual(t.configs, ["depth1-ddr1", "depth2-ddr1", "depth2-ddr2"])
        self.assertEqual(t.clusters, [1, 4])
        self.assertAlmostEqual(t.value[("depth2-ddr2", 4)][0], 5.0)
        self.assertAlmostEqual(t.value[("depth1-ddr1", 1)][1], 0.25)
        self.assertNotIn(("depth2-ddr1", 4), t.value)
        # 1.6 GB/s over 100 bytes an update; the reads alone: 24 bytes.
        self.assertAlmostEqual(t.bounds[0], 16.0)
        self.assertAlmostEqual(t.bounds[1], 1600 / 24)
        text = summary.render(LBM_ROWS, [], "mppa256", "small", LBM_FACTS)
        self.assertIn("## LBM (cavity 10^3, 2 steps): MLUPS per compute cluster count", text)
        self.assertIn("| clusters | depth1-ddr1 | depth2-ddr1 | depth2-ddr2 |", text)
        self.assertIn("| 1 | 1.00 (25 %) | 2.00 (25 %) | 2.00 (25 %) |", text)
        self.assertIn("| 4 | 4.00 (25 %) | - | 5.00 (25 %) |", text)
        self.assertIn("16.0 MLUPS per DDR", text)
        # Its result line is the same on any cluster count; a different one is reported.
        self.assertIn("printed the same result line", text)
        text = summary.render(LBM_ROWS + [lbm_row("depth1-ddr1", 2, 1.0, result="lbm: cavity 10^3, steps 2, "
                                                                              "lattice hash 2")],
                              [], "mppa256", "small", LBM_FACTS)
        self.assertIn("**Different result lines for lbm, class small**", text)

    def test_plot_data(self):
        name, data, script, outputs = plots.lbm_files(analysis.LbmTable(LBM_ROWS, LBM_FACTS), "mppa256", "small")
        self.assertEqual((name, outputs), ("lbm-mlups", ["lbm-mlups.png"]))
        self.assertEqual(data, ["# clusters depth1-ddr1 depth2-ddr1 depth2-ddr2 bound_1ddr bound_2ddr",
                                "1 1 2 2 16 32", "4 4 ? 5 16 32"])
        plot = [line for line in script if line.startswith("plot ")][0]
        self.assertIn('using 1:5 with lines dashtype 2 title "DDR bound, 1 DDR"', plot)
        self.assertIn('using 1:6 with lines dashtype 2 title "DDR bound, 2 DDRs"', plot)

    def test_no_bounds_without_the_board_facts(self):
        self.assertIsNone(analysis.LbmTable(LBM_ROWS).bounds)
        self.assertNotIn("bound", "\n".join(plots.lbm_files(analysis.LbmTable(LBM_ROWS), "b", "test")[2]))


if __name__ == "__main__":
    unittest.main()
