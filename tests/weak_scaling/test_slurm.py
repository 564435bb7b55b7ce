"""Submitting a sweep to Slurm: the sbatch commands and the points file
(scripts/weak_scaling/slurm.py; tests/slurm/slurm_test.sh runs a real cluster)."""
import os
import shutil
import tempfile
import unittest

from weak_scaling import plan, slurm


class Sbatch(unittest.TestCase):
    def test_the_job_array(self):
        cmd = slurm.sbatch_command("sbatch", "ws", "o/point-%A_%a.out", "12", "gpu", ["--mem=4G", "--account=x"],
                                   ["scripts/weak-scaling", "--apps", "fn gf", "--slurm-task", "p.json"], array=9)
        self.assertEqual(cmd, ["sbatch", "--parsable", "--job-name", "ws", "--output", "o/point-%A_%a.out",
                               "--time", "12", "--array", "0-8", "--partition", "gpu", "--mem=4G", "--account=x",
                               "--wrap", "scripts/weak-scaling --apps 'fn gf' --slurm-task p.json"])

    def test_the_report_job_waits_for_every_task(self):
        cmd = slurm.sbatch_command("sbatch", "r", "o", "30", None, [], ["x", "--report-only"], after="77")
        self.assertEqual(cmd, ["sbatch", "--parsable", "--job-name", "r", "--output", "o", "--time", "30",
                               "--dependency", "afterany:77", "--kill-on-invalid-dep=yes", "--wrap", "x --report-only"])

    def test_time_per_point_covers_the_run_and_a_margin(self):
        self.assertEqual(slurm.minutes_per_point(300), "7")
        self.assertEqual(slurm.minutes_per_point(3600), "62")

    def test_a_missing_sbatch(self):
        with self.assertRaises(slurm.SlurmError):
            slurm.submit(["/nonexistent/sbatch"])

    def test_a_refused_job(self):
        with self.assertRaisesRegex(slurm.SlurmError, r"status 1\): no partition"):
            slurm.submit(["sh", "-c", "echo no partition >&2; exit 1"])

    def test_the_job_id_of_a_federation(self):
        self.assertEqual(slurm.submit(["echo", "123;cluster"]), "123")


class Points(unittest.TestCase):
    def test_each_task_reads_its_point(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        path = os.path.join(tmp, "points.json")
        points = [plan.Point("fn", "opt", 1, "compact", 4, 1), plan.Point("a2a", "opt+x", 12, "scatter", 0, 2)]
        slurm.write_points(path, points)
        self.assertEqual([slurm.read_point(path, i) for i in (0, 1)], points)
        with self.assertRaisesRegex(slurm.SlurmError, "no task 2"):
            slurm.read_point(path, 2)


if __name__ == "__main__":
    unittest.main()
