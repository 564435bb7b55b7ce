"""Builds and sweep points (scripts/weak_scaling/plan.py)."""
import unittest

from weak_scaling import plan


class Builds(unittest.TestCase):
    def test_base_builds(self):
        for name in ("ipc", "unopt", "opt"):
            self.assertEqual(plan.parse_build(name), plan.Build(name, name, "", ()))

    def test_kernel_options(self):
        self.assertEqual(plan.parse_build("opt+selftest"), plan.Build("opt+selftest", "opt", "selftest"))
        self.assertEqual(plan.parse_build("unopt+a+b=2"), plan.Build("unopt+a+b=2", "unopt", "a b=2"))
        self.assertEqual(plan.kernel_opts_build("a  b"), plan.Build("opt+a+b", "opt", "a b"))

    def test_bad_builds(self):
        for name in ("fast", "", "+x", "opt+", "opt++x", "opt+a/b", "opt+a\"b"):
            with self.assertRaises(plan.PlanError, msg=name):
                plan.parse_build(name)
        with self.assertRaises(plan.PlanError):
            plan.kernel_opts_build("  ")

    def test_lbm_configs(self):
        self.assertEqual(plan.parse_lbm_config("2:1"), plan.Build("depth2-ddr1", "ipc", "", ("--depth", "2", "--ddrs", "1")))
        self.assertEqual(plan.lbm_ddrs(plan.parse_lbm_config("4:2")), 2)
        self.assertEqual(plan.lbm_config_word(plan.parse_lbm_config("4:2")), "4:2")
        for text in ("2", "2:", ":1", "0:1", "1:0", "a:b", "2:1:3"):
            with self.assertRaises(plan.PlanError, msg=text):
                plan.parse_lbm_config(text)

    def test_program_path(self):
        self.assertEqual(plan.program_path("d", "km", plan.parse_build("opt+x")), "d/capbench/km_opt.elf")
        self.assertEqual(plan.program_path("d", "lbm", plan.parse_lbm_config("1:1")), "d/lbm/lbm_ipc.elf")


class Points(unittest.TestCase):
    def test_sweep(self):
        builds = [plan.parse_build(b) for b in ("ipc", "unopt", "opt")]
        points = plan.make_points(["fn", "a2a"], builds, [1, 12], ["compact"], 12, 2, 12, ["compact", "scatter"])
        # fn: 3 builds x 2 rank counts; a2a: 3 builds x 2 mappings at 12 ranks; twice.
        self.assertEqual(len(points), 2 * (3 * 2 + 3 * 2))
        self.assertEqual(len(set(points)), len(points))
        self.assertEqual({(p.build, p.mapping) for p in points if p.app == "a2a"},
                         {(b, m) for b in ("ipc", "unopt", "opt") for m in ("compact", "scatter")})
        self.assertEqual({p.ranks for p in points if p.app == "a2a"}, {12})
        self.assertEqual({p.ppc for p in points if p.mapping == "scatter"}, {0})
        self.assertEqual({p.ppc for p in points if p.mapping == "compact"}, {12})
        # A whole first pass comes before any second repeat.
        self.assertEqual([p.repeat for p in points], [1] * 12 + [2] * 12)
        self.assertEqual(points[0], plan.Point("fn", "ipc", 1, "compact", 12, 1))

    def test_lbm_points(self):
        builds = [plan.parse_build("opt")]
        configs = [plan.parse_lbm_config(c) for c in ("1:1", "2:2")]
        points = plan.make_points(["km", "lbm"], builds, [12], ["compact"], 12, 1, 12, ["compact"], configs, [1, 4])
        lbm = [p for p in points if p.app == "lbm"]
        # One rank per cluster (scatter), every configuration at every cluster count.
        self.assertEqual(lbm, [plan.Point("lbm", b, n, "scatter", 0, 1)
                               for b in ("depth1-ddr1", "depth2-ddr2") for n in (1, 4)])
        self.assertEqual([p.app for p in points], ["km"] + ["lbm"] * 4)


if __name__ == "__main__":
    unittest.main()
