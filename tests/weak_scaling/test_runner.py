"""One run: the command, the time limit and the status of what came back
(scripts/weak_scaling/runner.py)."""
import os
import shutil
import tempfile
import threading
import time
import unittest

from weak_scaling import plan, runner

KM = plan.Point("km", "unopt", 24, "compact", 12, 1)
UNOPT = plan.parse_build("unopt")
OK_OUT = ("km: points 26880, centroids 128, iterations 5, centroid hash 0x1\n"
          "capbench: app=km build=unopt ranks=24 clusters=2 class=small cycles=100 seconds=0.5 comm_cycles=10 "
          "bytes=5 messages=2 verified=yes\n")


def classify(status, out, point=KM, build=UNOPT, clusters=2):
    return runner.classify(point, build, "small", clusters, status, out)[0]


class Command(unittest.TestCase):
    def test_compact_with_ranks_per_cluster(self):
        self.assertEqual(runner.command("nvx-run", "mppa256", KM, UNOPT, "p.elf", "small", 600),
                         ["nvx-run", "--board", "mppa256", "-np", "24", "--map-by", "compact", "--ppc", "12",
                          "--timeout", "600", "p.elf", "--class", "small"])

    def test_scatter_with_kernel_options(self):
        point = plan.Point("a2a", "opt+selftest", 12, "scatter", 0, 2)
        self.assertEqual(runner.command("r", "small", point, plan.parse_build("opt+selftest"), "a.elf", "test", 0),
                         ["r", "--board", "small", "-np", "12", "--map-by", "scatter", "--kernel-opts", "selftest",
                          "a.elf", "--class", "test"])

    def test_lbm_gets_its_configuration_after_the_class(self):
        point = plan.Point("lbm", "depth2-ddr1", 4, "scatter", 0, 1)
        self.assertEqual(runner.command("r", "small", point, plan.parse_lbm_config("2:1"), "lbm.elf", "test", 0),
                         ["r", "--board", "small", "-np", "4", "--map-by", "scatter", "lbm.elf", "--class", "test",
                          "--depth", "2", "--ddrs", "1"])


class Classify(unittest.TestCase):
    def test_ok(self):
        word, summary, result, a2a = runner.classify(KM, UNOPT, "small", 2, 0, OK_OUT)
        self.assertEqual((word, summary["seconds"], a2a), ("ok", 0.5, []))
        self.assertEqual(result, "km: points 26880, centroids 128, iterations 5, centroid hash 0x1")

    def test_timeouts(self):
        self.assertEqual(classify(124, ""), "timeout")
        self.assertEqual(classify(None, OK_OUT), "timeout")

    def test_mismatch(self):
        self.assertEqual(classify(3, OK_OUT.replace("verified=yes", "verified=no")), "mismatch")
        self.assertEqual(classify(0, OK_OUT.replace("verified=yes", "verified=no")), "mismatch")
        self.assertEqual(classify(3, ""), "mismatch")

    def test_failed(self):
        self.assertEqual(classify(2, OK_OUT), "failed")
        self.assertEqual(classify(139, ""), "failed")

    def test_success_without_a_summary(self):
        self.assertEqual(classify(0, "km: points 1\n"), "no-summary")

    def test_a_summary_of_another_run(self):
        self.assertEqual(classify(0, OK_OUT.replace("ranks=24", "ranks=12")), "wrong-summary")
        self.assertEqual(classify(0, OK_OUT.replace("build=unopt", "build=opt")), "wrong-summary")
        self.assertEqual(classify(0, OK_OUT.replace("class=small", "class=test")), "wrong-summary")
        self.assertEqual(classify(0, OK_OUT, clusters=3), "wrong-summary")

    def test_kernel_options_keep_the_programs_build(self):
        self.assertEqual(classify(0, OK_OUT, build=plan.parse_build("unopt+selftest")), "ok")

    def test_a2a_needs_its_lines(self):
        point = plan.Point("a2a", "opt", 12, "scatter", 0, 1)
        summary = ("capbench: app=a2a build=opt ranks=12 clusters=12 class=small cycles=1 seconds=1 comm_cycles=1 "
                   "bytes=1 messages=1 verified=yes\n")
        line = "a2a: size 128, iterations 2, cycles 5, seconds 0.5, verified yes\n"
        opt = plan.parse_build("opt")
        self.assertEqual(runner.classify(point, opt, "small", 12, 0, summary)[0], "incomplete")
        word, _, result, rows = runner.classify(point, opt, "small", 12, 0, line + summary)
        self.assertEqual((word, result, len(rows)), ("ok", "a2a: sizes 128, iterations 2, verified yes", 1))
        bad = line.replace("verified yes", "verified no")
        self.assertEqual(runner.classify(point, opt, "small", 12, 0, bad + summary)[0], "incomplete")


def alive(pid):
    try:
        with open("/proc/%d/stat" % pid) as f:
            return f.read().split(") ")[1][0] != "Z"
    except FileNotFoundError:
        return False


class RunCommand(unittest.TestCase):
    def test_status_and_output(self):
        status, out, err, wall = runner.run_command(["sh", "-c", "echo out; echo err >&2; exit 7"], 30)
        self.assertEqual((status, out, err), (7, "out\n", "err\n"))
        self.assertGreaterEqual(wall, 0)

    def test_an_overstaying_run_is_stopped_with_its_children(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        pid_file = os.path.join(tmp, "pid")
        # A runner that ignores its own time limit and leaves a child (as QEMU would be).
        cmd = ["sh", "-c", "trap '' TERM; sleep 600 & echo $! > %s; echo started; wait" % pid_file]
        status, out, _, _ = runner.run_command(cmd, 1, grace=0.5)
        self.assertIsNone(status)
        self.assertEqual(out, "started\n")
        with open(pid_file) as f:
            child = int(f.read())
        # SIGKILL went to the whole group; the child dies when the host next runs it.
        deadline = time.monotonic() + 5
        while alive(child) and time.monotonic() < deadline:
            time.sleep(0.05)
        self.assertFalse(alive(child))

    def test_stopping_a_sweep_stops_its_runs_and_starts_no_more(self):
        launches = runner.Launches()
        ran = []
        worker = threading.Thread(target=lambda: ran.append(runner.run_command(["sleep", "600"], 0, launches=launches)))
        worker.start()
        deadline = time.monotonic() + 5
        while not launches._procs and time.monotonic() < deadline:
            time.sleep(0.01)
        launches.stop_all()
        worker.join(10)
        self.assertFalse(worker.is_alive())
        self.assertEqual(ran[0][0], -15)
        self.assertIsNone(runner.run_command(["true"], 0, launches=launches))

    def test_the_log(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        path = os.path.join(tmp, "logs", "x.log")
        runner.write_log(path, ["nvx-run", "-np", "2"], None, "o\n", "e\n")
        with open(path) as f:
            self.assertEqual(f.read(), "$ nvx-run -np 2\nexit status: stopped after the time limit\n"
                                       "--- stdout ---\no\n--- stderr ---\ne\n")


if __name__ == "__main__":
    unittest.main()
