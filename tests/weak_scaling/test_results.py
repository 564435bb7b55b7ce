"""The CSV files and resume (scripts/weak_scaling/results.py)."""
import csv
import io
import os
import shutil
import tempfile
import unittest

from weak_scaling import results


def row(app="fn", ranks=1, status="ok", repeat=1, **extra):
    r = {c: "" for c in results.RESULT_COLUMNS}
    r.update(app=app, build="opt", board="small", ranks=str(ranks), clusters="1", mapping="compact", ppc="4",
             repeat=str(repeat), status=status, result="fn: x, y", log="logs/x.log")
    r["class"] = "test"
    r.update(extra)
    return r


def a2a_row(size, ranks=12):
    r = {c: "" for c in results.A2A_COLUMNS}
    r.update(build="opt", board="small", ranks=str(ranks), mapping="compact", ppc="4", repeat="1",
             size=str(size), seconds="0.1", verified="yes")
    r["class"] = "test"
    return r


class Store(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.dir)
        self.store = results.ResultsStore(self.dir)

    def test_empty(self):
        self.assertEqual(self.store.load(), ([], []))

    def test_rows_come_back_with_their_keys(self):
        self.store.append(row(ranks=1))
        self.store.append(row(ranks=4, result='quoted, "comma"'))
        rows, _ = self.store.load()
        self.assertEqual(rows, [row(ranks=1), row(ranks=4, result='quoted, "comma"')])
        self.assertEqual({results.run_key(r) for r in rows},
                         {("fn", "opt", "small", "1", "compact", "4", "test", "1"),
                          ("fn", "opt", "small", "4", "compact", "4", "test", "1")})

    def test_a_row_cut_short_is_dropped_and_the_file_repaired(self):
        self.store.append(row(ranks=1))
        self.store.append(row(ranks=4))
        with open(self.store.results_path, "a") as f:
            f.write("fn,opt,small,8,1,compact")  # the sweep was killed while writing
        rows, _ = self.store.load()
        self.assertEqual([r["ranks"] for r in rows], ["1", "4"])
        self.store.append(row(ranks=8))
        self.assertEqual([r["ranks"] for r in self.store.load()[0]], ["1", "4", "8"])

    def test_a_row_cut_in_its_last_field_is_dropped(self):
        self.store.append(row(ranks=1))
        text = io.StringIO()
        csv.writer(text).writerow(row(ranks=4)[c] for c in results.RESULT_COLUMNS)
        line = text.getvalue().rstrip("\r\n")
        with open(self.store.results_path, "a") as f:
            f.write(line[:-3])  # every column there, the log name cut short, no newline
        self.assertEqual([r["ranks"] for r in self.store.load()[0]], ["1"])

    def test_a_row_with_missing_fields_is_dropped(self):
        self.store.append(row(ranks=1))
        with open(self.store.results_path, "a") as f:
            f.write("fn,opt\n")
        self.assertEqual([r["ranks"] for r in self.store.load()[0]], ["1"])

    def test_other_columns_are_refused(self):
        with open(self.store.results_path, "w") as f:
            f.write("app,build\nfn,opt\n")
        with self.assertRaises(results.ResultsError):
            self.store.load()

    def test_retry_failed_forgets_failed_runs(self):
        self.store.append(row(ranks=1))
        self.store.append(row(ranks=4, status="timeout"))
        self.assertEqual(len(self.store.load()[0]), 2)
        self.assertEqual([r["ranks"] for r in self.store.load(retry_failed=True)[0]], ["1"])
        self.assertEqual([r["ranks"] for r in self.store.load()[0]], ["1"])

    def test_a2a_rows_go_with_their_run(self):
        self.store.append(row(app="a2a", ranks=12), [a2a_row(128), a2a_row(256)])
        rows, a2a = self.store.load()
        self.assertEqual(len(rows), 1)
        self.assertEqual([r["size"] for r in a2a], ["128", "256"])

    def test_runs_are_put_in_the_plan_order(self):
        # Runs of a parallel sweep end in any order.
        self.store.append(row(app="a2a", ranks=4), [a2a_row(128, ranks=4), a2a_row(256, ranks=4)])
        self.store.append(row(ranks=8))
        self.store.append(row(app="a2a", ranks=12), [a2a_row(128), a2a_row(256)])
        self.store.append(row(ranks=1))
        plan = [results.run_key(row(ranks=1)), results.run_key(row(app="a2a", ranks=12)),
                results.run_key(row(app="a2a", ranks=4))]
        self.store.order(plan)
        rows, a2a = self.store.load()
        self.assertEqual([(r["app"], r["ranks"]) for r in rows], [("fn", "1"), ("a2a", "12"), ("a2a", "4"), ("fn", "8")])
        self.assertEqual([(r["ranks"], r["size"]) for r in a2a], [("12", "128"), ("12", "256"), ("4", "128"), ("4", "256")])

    def test_row_files_are_merged_once(self):
        # Tasks of a Slurm job array each record their run in files of their own.
        self.store.append(row(ranks=1))
        self.store.write_row_file(row(app="a2a", ranks=12), [a2a_row(128), a2a_row(256)])
        self.store.write_row_file(row(ranks=4, status="timeout"))
        self.store.write_row_file(row(ranks=1))  # already in the CSV
        rows, a2a = self.store.load()
        self.assertEqual(sorted((r["app"], r["ranks"]) for r in rows), [("a2a", "12"), ("fn", "1"), ("fn", "4")])
        self.assertEqual([r["size"] for r in a2a], ["128", "256"])
        self.assertEqual(os.listdir(self.store.rows_dir), [])
        self.assertEqual(self.store.load(), (rows, a2a))

    def test_a_row_file_after_a_row_cut_short(self):
        with open(self.store.results_path, "w") as f:
            f.write(",".join(results.RESULT_COLUMNS) + "\nfn,opt,sm")
        self.store.write_row_file(row(ranks=4))
        rows, _ = self.store.load()
        self.assertEqual(rows, [row(ranks=4)])

    def test_a2a_rows_without_their_run_are_dropped(self):
        self.store.append(row(app="a2a", ranks=12), [a2a_row(128)])
        # Stopped after the A2A rows of a second run, before its results row.
        results._append(self.store.a2a_path, results.A2A_COLUMNS, [a2a_row(128, ranks=4)])
        _, a2a = self.store.load()
        self.assertEqual([r["ranks"] for r in a2a], ["12"])
        with open(self.store.a2a_path) as f:
            self.assertEqual(len(f.read().splitlines()), 2)


if __name__ == "__main__":
    unittest.main()
