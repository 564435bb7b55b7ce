"""The sweep's CSV files: results.csv (one row per run) and a2a.csv (one row per A2A run
and message size). Rows are appended as runs finish; a restarted sweep reads them back
and skips the points already there (resume). Runs on other machines (a Slurm job array)
each write row files under rows/ instead, which the next load merges into the CSV."""
import csv
import glob
import io
import os

RESULT_COLUMNS = ("app", "build", "board", "ranks", "clusters", "mapping", "ppc", "class", "repeat",
                  "cycles", "seconds", "wall_seconds", "comm_cycles", "bytes", "messages",
                  "result", "verified", "status", "exit_status", "started", "log")
A2A_COLUMNS = ("build", "board", "ranks", "mapping", "ppc", "class", "repeat",
               "size", "iterations", "cycles", "seconds", "verified")
# What identifies a run: a restarted sweep skips a point whose key is already recorded.
KEY_COLUMNS = ("app", "build", "board", "ranks", "mapping", "ppc", "class", "repeat")


class ResultsError(Exception):
    pass


def run_key(row):
    return tuple(str(row[c]) for c in KEY_COLUMNS)


def a2a_run_key(row):
    return tuple("a2a" if c == "app" else str(row[c]) for c in KEY_COLUMNS)


def _read(path, columns):
    """(rows, complete): rows whose every column is present; complete is False when a
    row was cut short (a sweep killed while writing) and was dropped."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return [], True
    with open(path, newline="") as f:
        text = f.read()
    complete = True
    if not text.endswith("\n"):
        # The last line was being written when the sweep stopped.
        text = text[:text.rfind("\n") + 1]
        complete = False
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if header is None:
        return [], False
    if tuple(header) != columns:
        raise ResultsError("%s has columns %s, not those of this driver (%s): use another output directory"
                           % (path, ",".join(header), ",".join(columns)))
    rows = []
    for fields in reader:
        if len(fields) != len(columns):
            complete = False
            continue
        rows.append(dict(zip(columns, fields)))
    return rows, complete


def _rewrite(path, columns, rows):
    """A file that appears complete or not at all (written aside, then renamed)."""
    tmp = path + ".tmp"
    with open(tmp, "w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def _append(path, columns, rows):
    new = not os.path.exists(path) or os.path.getsize(path) == 0
    with open(path, "a", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns, lineterminator="\n")
        if new:
            writer.writeheader()
        writer.writerows(rows)
        f.flush()
        os.fsync(f.fileno())


class ResultsStore:
    def __init__(self, out_dir):
        self.results_path = os.path.join(out_dir, "results.csv")
        self.a2a_path = os.path.join(out_dir, "a2a.csv")
        self.rows_dir = os.path.join(out_dir, "rows")

    def write_row_file(self, row, a2a_rows=()):
        """Records one run in files of its own (rows/NAME.csv, its A2A rows in
        rows/NAME.a2a.csv, written first): runs on many hosts never write one file."""
        os.makedirs(self.rows_dir, exist_ok=True)
        name = os.path.join(self.rows_dir, "-".join(run_key(row)))
        if a2a_rows:
            _rewrite(name + ".a2a.csv", A2A_COLUMNS, a2a_rows)
        _rewrite(name + ".csv", RESULT_COLUMNS, [row])

    def _merge_row_files(self):
        """Appends the runs of rows/ not yet in the CSV, then removes their files."""
        paths = sorted(p for p in glob.glob(os.path.join(self.rows_dir, "*.csv")) if not p.endswith(".a2a.csv"))
        if not paths:
            return
        rows, complete = _read(self.results_path, RESULT_COLUMNS)
        if not complete:
            _rewrite(self.results_path, RESULT_COLUMNS, rows)
        keys = {run_key(r) for r in rows}
        for path in paths:
            a2a_path = path[:-len(".csv")] + ".a2a.csv"
            new, _ = _read(path, RESULT_COLUMNS)
            for row in new:
                if run_key(row) not in keys:
                    keys.add(run_key(row))
                    self.append(row, _read(a2a_path, A2A_COLUMNS)[0] if os.path.exists(a2a_path) else ())
            for p in (a2a_path, path):
                if os.path.exists(p):
                    os.remove(p)

    def load(self, retry_failed=False):
        """The recorded runs, tidied for a resume: rows cut short are dropped, failed runs
        too when retry_failed, and A2A rows whose run has no results row (the sweep
        stopped between the two files) are dropped so the rerun does not double them.
        Row files come into the CSV first."""
        self._merge_row_files()
        rows, complete = _read(self.results_path, RESULT_COLUMNS)
        kept = [r for r in rows if not (retry_failed and r["status"] != "ok")]
        if not complete or len(kept) != len(rows):
            _rewrite(self.results_path, RESULT_COLUMNS, kept)
        keys = {run_key(r) for r in kept}
        a2a_rows, a2a_complete = _read(self.a2a_path, A2A_COLUMNS)
        a2a_kept = [r for r in a2a_rows if a2a_run_key(r) in keys]
        if not a2a_complete or len(a2a_kept) != len(a2a_rows):
            _rewrite(self.a2a_path, A2A_COLUMNS, a2a_kept)
        return kept, a2a_kept

    def append(self, row, a2a_rows=()):
        """Records one finished run; its A2A rows go first, so a results row never
        exists without them."""
        if a2a_rows:
            _append(self.a2a_path, A2A_COLUMNS, a2a_rows)
        _append(self.results_path, RESULT_COLUMNS, [row])

    def order(self, keys):
        """Rewrites both files with the runs in the order of keys (the plan's), runs not
        among them last: a sweep's files do not depend on which run ended first."""
        rank = {k: i for i, k in enumerate(keys)}
        rows, _ = _read(self.results_path, RESULT_COLUMNS)
        a2a_rows, _ = _read(self.a2a_path, A2A_COLUMNS)
        ordered = sorted(rows, key=lambda r: rank.get(run_key(r), len(rank)))
        if ordered != rows:
            _rewrite(self.results_path, RESULT_COLUMNS, ordered)
        a2a_ordered = sorted(a2a_rows, key=lambda r: rank.get(a2a_run_key(r), len(rank)))
        if a2a_ordered != a2a_rows:
            _rewrite(self.a2a_path, A2A_COLUMNS, a2a_ordered)
