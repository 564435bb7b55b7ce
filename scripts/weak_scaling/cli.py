"""scripts/weak-scaling: options, the sweep loop with progress and resume, then the
summary and the plots."""
import argparse
import concurrent.futures
import datetime
import os
import shlex
import signal
import sys
import threading
import time

from . import board as boards
from . import plan, plots, results, runner, slurm, summary

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
# Per-run time limit by class (seconds): generous, the host is shared and QEMU is slow.
DEFAULT_TIMEOUT = {"test": 300, "small": 3600, "thesis": 6 * 3600}
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class UsageError(Exception):
    pass


def words(text):
    """'fn gf', 'fn,gf' or repeated options -> ['fn', 'gf']."""
    return [w for w in text.replace(",", " ").split() if w]


def positive(text, what):
    try:
        n = int(text)
    except ValueError:
        raise UsageError("%s must be a positive number, not %r" % (what, text))
    if n < 1:
        raise UsageError("%s must be a positive number, not %r" % (what, text))
    return n


def parser():
    p = argparse.ArgumentParser(
        prog="weak-scaling",
        description="Sweeps CAP Bench (fn gf km) and A2A over builds x rank counts x mappings x repeats, and "
                    "LBM over its pipeline configurations x clusters, through scripts/nvx-run; writes "
                    "results.csv, a2a.csv, PNG plots and summary.md. "
                    "Rerun the same command to resume an interrupted sweep.")
    p.add_argument("--board", default=os.environ.get("BOARD") or "small", help="board (default: $BOARD or small)")
    p.add_argument("--class", dest="klass", default="small", choices=plan.CLASSES,
                   help="problem class passed to every application (default small)")
    p.add_argument("--apps", default=" ".join(plan.ALL_APPS), help="applications (default: fn gf km a2a lbm)")
    p.add_argument("--builds", default=" ".join(plan.DEFAULT_BUILDS),
                   help="builds: ipc unopt opt, or BUILD+KERNEL_OPTION... (default: ipc unopt opt)")
    p.add_argument("--kernel-opts", action="append", default=[], metavar="OPTS",
                   help="also run the opt build with these kernel options (recorded as build opt+OPT...); repeatable")
    p.add_argument("--ranks", help="rank counts for fn gf km (default: 1, then ppc x 1, 2, 4, ... clusters "
                                   "up to the board's compute clusters)")
    p.add_argument("--short", action="store_true",
                   help="a short sweep: rank counts 1, one full cluster and every cluster (instead of the default list)")
    p.add_argument("--maps", default="compact", help="mappings for fn gf km: compact and/or scatter (default compact)")
    p.add_argument("--ppc", help="ranks per cluster with compact mapping (default: 12 or the board's PEs, the smaller)")
    p.add_argument("--a2a-ranks", help="A2A's rank count, run compact and scatter (default: 12 or what the board holds)")
    p.add_argument("--lbm-configs", metavar="DEPTH:DDRS...",
                   help="LBM's pipeline depths and DDR counts, recorded as builds depthD-ddrK (default: 1:1 2:1, "
                        "and 2:2 where the board has two I/O clusters)")
    p.add_argument("--lbm-clusters", help="LBM's cluster counts, one rank each (default: 1, 2, 4, ... and every "
                                          "compute cluster; with --short 1, 2 and every cluster)")
    p.add_argument("--repeats", default="1", help="runs of every point (default 1)")
    p.add_argument("--out", help="output directory (default build/weak-scaling/BOARD-CLASS)")
    p.add_argument("--timeout", help="seconds per run before it counts as timed out "
                                     "(default by class: test %(test)d, small %(small)d, thesis %(thesis)d)"
                                     % DEFAULT_TIMEOUT)
    p.add_argument("--jobs", default=str(os.cpu_count() or 1),
                   help="points run at once, each in its own QEMU, the largest first (default: the host's cores, "
                        "here %(default)s)")
    p.add_argument("--executor", default="local", choices=("local", "slurm"),
                   help="local: run the points on this host; slurm: submit them as a Slurm job array, one point "
                        "per task, and a job after it that merges the rows and writes the summary and plots "
                        "(--out must be on a filesystem every node shares)")
    p.add_argument("--partition", help="Slurm partition of the jobs (default: the cluster's)")
    p.add_argument("--time-per-point", metavar="MINUTES",
                   help="Slurm time limit of a task (sbatch --time; default: --timeout plus %d s, in minutes)"
                        % slurm.TIME_MARGIN_SECONDS)
    p.add_argument("--sbatch-args", default="", metavar="ARGS",
                   help="more sbatch arguments for every job, in one string (e.g. '--account=x --mem=4G')")
    p.add_argument("--slurm-task", metavar="POINTS", help=argparse.SUPPRESS)
    p.add_argument("--sbatch", default="sbatch", help=argparse.SUPPRESS)
    p.add_argument("--retry-failed", action="store_true", help="on resume, run again the points that did not succeed")
    p.add_argument("--dry-run", action="store_true", help="list the points still to run, run nothing")
    p.add_argument("--report-only", action="store_true", help="run nothing; redo summary and plots from the CSV")
    p.add_argument("--build-root", default=os.path.join(ROOT, "build"),
                   help="where board-info and the programs are (default: the tree's build/)")
    p.add_argument("--runner", default=os.path.join(ROOT, "scripts", "nvx-run"),
                   help="the launcher (default scripts/nvx-run; tests give a stand-in)")
    p.add_argument("--gnuplot", default="gnuplot", help=argparse.SUPPRESS)
    return p


class Config:
    """The validated sweep: everything main() needs, derived from the options and the board."""

    def __init__(self, args):
        self.args = args
        self.board, self.klass = args.board, args.klass
        self.apps = words(args.apps)
        for a in self.apps:
            if a not in plan.ALL_APPS:
                raise UsageError("unknown application %r: choose from %s" % (a, " ".join(plan.ALL_APPS)))
        if not self.apps:
            raise UsageError("no applications given")
        try:
            self.builds = [plan.parse_build(b) for b in words(args.builds)]
            self.builds += [plan.kernel_opts_build(o) for o in args.kernel_opts]
        except plan.PlanError as e:
            raise UsageError(str(e))
        names = [b.name for b in self.builds]
        self.builds = [b for i, b in enumerate(self.builds) if b.name not in names[:i]]
        if not self.builds:
            raise UsageError("no builds given")
        self.maps = words(args.maps)
        for m in self.maps:
            if m not in plan.MAPPINGS:
                raise UsageError("unknown mapping %r: compact or scatter" % m)
        self.repeats = positive(args.repeats, "--repeats")
        self.jobs = positive(args.jobs, "--jobs")
        self.timeout = positive(args.timeout, "--timeout") if args.timeout else DEFAULT_TIMEOUT[self.klass]
        info = os.path.join(args.build_root, "tools", "board-info")
        try:
            self.facts = boards.read_facts(info, self.board)
        except boards.BoardError as e:
            raise UsageError(str(e))
        pes = self.facts["BOARD_COMPUTE_PES"]
        self.ppc = positive(args.ppc, "--ppc") if args.ppc else boards.default_ppc(self.facts)
        if self.ppc > pes:
            raise UsageError("--ppc %d: a compute cluster of %s has %d PEs" % (self.ppc, self.board, pes))
        if args.ranks and args.short:
            raise UsageError("--ranks and --short both choose the rank counts: give one")
        if args.ranks:
            self.ranks = sorted({positive(w, "a rank count") for w in words(args.ranks)})
        elif args.short:
            self.ranks = boards.short_rank_counts(self.facts, self.ppc)
        else:
            self.ranks = boards.default_rank_counts(self.facts, self.ppc)
        self.a2a_ranks = positive(args.a2a_ranks, "--a2a-ranks") if args.a2a_ranks else \
            boards.default_a2a_ranks(self.facts)
        self.lbm_configs, self.lbm_clusters = [], []
        if plan.LBM_APP in self.apps:
            try:
                self.lbm_configs = [plan.parse_lbm_config(w) for w in
                                    words(args.lbm_configs or " ".join(boards.default_lbm_configs(self.facts)))]
            except plan.PlanError as e:
                raise UsageError(str(e))
            if not self.lbm_configs:
                raise UsageError("no LBM configurations given")
            for b in self.lbm_configs:
                why = boards.check_lbm_ddrs(plan.lbm_ddrs(b), self.facts)
                if why:
                    raise UsageError(why)
            self.lbm_clusters = sorted({positive(w, "an LBM cluster count") for w in words(args.lbm_clusters)}) \
                if args.lbm_clusters else boards.lbm_cluster_counts(self.facts, args.short)
            if self.lbm_clusters[-1] > self.facts["BOARD_COMPUTE_CLUSTERS"]:
                raise UsageError("LBM on %d clusters: board %s has %d compute clusters" % (
                    self.lbm_clusters[-1], self.board, self.facts["BOARD_COMPUTE_CLUSTERS"]))
        checks = [(n, m) for n in self.ranks for m in self.maps] + \
                 [(self.a2a_ranks, m) for m in plan.MAPPINGS if plan.A2A_APP in self.apps]
        for n, m in checks:
            why = boards.check_fits(n, m, self.ppc, self.facts)
            if why:
                raise UsageError(why)
        self.out = os.path.abspath(args.out or os.path.join(args.build_root, "weak-scaling",
                                                            "%s-%s" % (self.board, self.klass)))
        try:
            self.sbatch_args = shlex.split(args.sbatch_args)
        except ValueError as e:
            raise UsageError("--sbatch-args: %s" % e)
        self.program_dir = os.path.join(args.build_root, "user")
        self.points = plan.make_points(self.apps, self.builds, self.ranks, self.maps, self.ppc, self.repeats,
                                       self.a2a_ranks, list(plan.MAPPINGS), self.lbm_configs, self.lbm_clusters)

    def task_argv(self):
        """The driver's options that give a Slurm task (or the report job) this sweep."""
        a = self.args
        argv = ["--board", self.board, "--class", self.klass, "--apps", " ".join(self.apps),
                "--builds", " ".join(b.name for b in self.builds), "--ranks", " ".join(map(str, self.ranks)),
                "--maps", " ".join(self.maps), "--ppc", str(self.ppc), "--repeats", str(self.repeats),
                "--timeout", str(self.timeout), "--out", self.out,
                "--build-root", os.path.abspath(a.build_root), "--runner", os.path.abspath(a.runner),
                "--gnuplot", a.gnuplot]
        if plan.A2A_APP in self.apps:
            argv += ["--a2a-ranks", str(self.a2a_ranks)]
        if plan.LBM_APP in self.apps:
            argv += ["--lbm-configs", " ".join(plan.lbm_config_word(b) for b in self.lbm_configs),
                     "--lbm-clusters", " ".join(map(str, self.lbm_clusters))]
        return argv

    def build(self, point):
        builds = self.lbm_configs if point.app == plan.LBM_APP else self.builds
        return next(b for b in builds if b.name == point.build)

    def clusters(self, point):
        return boards.clusters_used(point.ranks, point.mapping, point.ppc or self.ppc, self.facts)

    def key(self, point):
        return results.run_key({"app": point.app, "build": point.build, "board": self.board, "ranks": point.ranks,
                                "mapping": point.mapping, "ppc": point.ppc, "class": self.klass,
                                "repeat": point.repeat})


def describe(point):
    ppc = ", %d per cluster" % point.ppc if point.ppc else ""
    return "%s %s, %d rank%s %s%s, repeat %d" % (point.app, point.build, point.ranks,
                                                  "" if point.ranks == 1 else "s", point.mapping, ppc, point.repeat)


def run_point(cfg, point, launches=None):
    """(results row, A2A rows, wall seconds), or None when the sweep stopped meanwhile."""
    build = cfg.build(point)
    program = plan.program_path(cfg.program_dir, point.app, build)
    cmd = runner.command(cfg.args.runner, cfg.board, point, build, program, cfg.klass, cfg.timeout)
    started = datetime.datetime.now().isoformat(timespec="seconds")
    # nvx-run finds the board image and board-info where the programs came from.
    env = dict(os.environ, NVX_BUILD_ROOT=os.path.abspath(cfg.args.build_root))
    ran = runner.run_command(cmd, cfg.timeout, env=env, launches=launches)
    if ran is None or (launches and launches.closed):
        return None
    status, out, err, wall = ran
    clusters = cfg.clusters(point)
    word, s, result, a2a = runner.classify(point, build, cfg.klass, clusters, status, out)
    log = os.path.join("logs", "%s-%s-%d-%s-%d.log" % (point.app, point.build, point.ranks, point.mapping,
                                                       point.repeat))
    runner.write_log(os.path.join(cfg.out, log), cmd, status, out, err)
    s = s or {}
    row = {"app": point.app, "build": point.build, "board": cfg.board, "ranks": point.ranks,
           "clusters": s.get("clusters", clusters), "mapping": point.mapping, "ppc": point.ppc,
           "class": cfg.klass, "repeat": point.repeat, "cycles": s.get("cycles", ""),
           "seconds": s.get("seconds", ""), "wall_seconds": "%.3f" % wall, "comm_cycles": s.get("comm_cycles", ""),
           "bytes": s.get("bytes", ""), "messages": s.get("messages", ""), "result": result,
           "verified": "yes" if word == "ok" else "no", "status": word,
           "exit_status": "stopped" if status is None else status, "started": started, "log": log}
    a2a_rows = [{"build": point.build, "board": cfg.board, "ranks": point.ranks, "mapping": point.mapping,
                 "ppc": point.ppc, "class": cfg.klass, "repeat": point.repeat, "size": r["size"],
                 "iterations": r["iterations"], "cycles": r["cycles"], "seconds": r["seconds"],
                 "verified": r["verified"]} for r in a2a]
    return row, a2a_rows, wall


def clock(seconds):
    return summary.clock(seconds)


def longest_first(cfg, todo):
    """The points in the order several jobs should start them: the most work first, so
    that no long run starts last with the other cores idle (a point's work grows with the
    clusters its problem spans; A2A's is small). Ties keep the plan's order."""
    def work(point):
        return 0 if point.app == plan.A2A_APP else cfg.clusters(point)
    return sorted(todo, key=lambda p: -work(p))


def sweep(cfg, store, todo, jobs):
    """Runs the points, up to jobs at once (each run is one QEMU on one host core under
    deterministic execution), recording each as it ends. On a signal every run stops."""
    if jobs > 1:
        todo = longest_first(cfg, todo)
    start = time.monotonic()
    walls = []
    launches = runner.Launches()
    say = threading.Lock()

    def progress(line):
        with say:
            print(line, file=sys.stderr, flush=True)

    def one(k, point):
        if launches.closed:
            return None
        progress("[%d/%d] %s ..." % (k, len(todo), describe(point)))
        return run_point(cfg, point, launches)

    pool = concurrent.futures.ThreadPoolExecutor(max_workers=jobs)
    try:
        running = {pool.submit(one, k, p): p for k, p in enumerate(todo, 1)}
        while running:
            done, _ = concurrent.futures.wait(running, return_when=concurrent.futures.FIRST_COMPLETED)
            for future in done:
                point = running.pop(future)
                row, a2a_rows, wall = future.result()
                store.append(row, a2a_rows)
                walls.append(wall)
                elapsed = time.monotonic() - start
                left = sum(walls) / len(walls) * (len(todo) - len(walls)) / min(jobs, len(todo))
                note = "" if row["status"] == "ok" else " (exit status %s, see %s)" % (
                    row["exit_status"], os.path.join(cfg.out, row["log"]))
                progress("[%d/%d] %s: %s in %.1f s%s; elapsed %s, about %s left" % (
                    len(walls), len(todo), describe(point), row["status"], wall, note, clock(elapsed), clock(left)))
    except BaseException:
        launches.stop_all()
        raise
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


def report(cfg, rows, a2a_rows):
    """Writes summary.md and the plots; prints the summary. True when the plots were drawn."""
    text = summary.render(rows, a2a_rows, cfg.board, cfg.klass, cfg.facts)
    path = os.path.join(cfg.out, "summary.md")
    with open(path, "w") as f:
        f.write(text + "\n")
    print(text)
    try:
        pngs = plots.write_all(cfg.out, rows, a2a_rows, cfg.board, cfg.klass, cfg.args.gnuplot, cfg.facts)
    except plots.PlotError as e:
        print("weak-scaling: %s" % e, file=sys.stderr)
        return False
    print("weak-scaling: %d runs in %s; summary %s; plots %s" % (
        len(rows), os.path.join(cfg.out, "results.csv"), path,
        " ".join(os.path.basename(p) for p in pngs) or "none"), file=sys.stderr)
    return True


def run_task(cfg, points_path):
    """One task of a Slurm job array: the point of SLURM_ARRAY_TASK_ID, into its row file."""
    try:
        point = slurm.read_point(points_path, int(os.environ.get("SLURM_ARRAY_TASK_ID", "")))
    except (OSError, ValueError, TypeError, slurm.SlurmError) as e:
        print("weak-scaling: no point to run: %s" % e, file=sys.stderr)
        return EXIT_USAGE
    print("%s ..." % describe(point), file=sys.stderr, flush=True)
    # scancel and the task's time limit stop the run's QEMU too (it has a session of its own).
    for sig in (signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, runner.raise_stopped)
    try:
        row, a2a_rows, wall = run_point(cfg, point)
    except runner.Stopped as e:
        print("%s: stopped" % describe(point), file=sys.stderr)
        return 128 + e.signum
    results.ResultsStore(cfg.out).write_row_file(row, a2a_rows)
    print("%s: %s in %.1f s" % (describe(point), row["status"], wall), file=sys.stderr)
    return 0 if row["status"] == "ok" else 1


def submit_sweep(cfg, todo):
    """Submits the points as a job array and the report job after it."""
    jobs_dir = os.path.join(cfg.out, "slurm")
    os.makedirs(jobs_dir, exist_ok=True)
    stamp = datetime.datetime.now().strftime("%Y%m%d-%H%M%S-%f")
    points_path = os.path.join(jobs_dir, "points-%s.json" % stamp)
    slurm.write_points(points_path, todo)
    driver = os.path.join(ROOT, "scripts", "weak-scaling")
    argv = cfg.task_argv()
    args = cfg.args
    per_point = args.time_per_point or slurm.minutes_per_point(cfg.timeout)
    try:
        array = slurm.submit(slurm.sbatch_command(
            args.sbatch, "weak-scaling", os.path.join(jobs_dir, "point-%A_%a.out"), per_point, args.partition,
            cfg.sbatch_args, [driver] + argv + ["--slurm-task", points_path], array=len(todo)))
        report_job = slurm.submit(slurm.sbatch_command(
            args.sbatch, "weak-scaling-report", os.path.join(jobs_dir, "report-%j.out"), slurm.REPORT_TIME,
            args.partition, cfg.sbatch_args, [driver] + argv + ["--report-only"], after=array))
    except slurm.SlurmError as e:
        print("weak-scaling: %s" % e, file=sys.stderr)
        return 1
    print("weak-scaling: submitted job array %s (%d points) and report job %s; the summary will be %s "
          "(follow with: squeue -j %s,%s)" % (array, len(todo), report_job, os.path.join(cfg.out, "summary.md"),
                                              array, report_job), file=sys.stderr)
    print("%s %s" % (array, report_job))
    return 0


def main(argv=None):
    args = parser().parse_args(argv)
    try:
        cfg = Config(args)
        if args.slurm_task:
            return run_task(cfg, args.slurm_task)
        store = results.ResultsStore(cfg.out)
        rows, _ = store.load(retry_failed=args.retry_failed and not args.dry_run and not args.report_only)
        foreign = {(r["board"], r["class"]) for r in rows} - {(cfg.board, cfg.klass)}
        if foreign:
            raise UsageError("%s holds runs of %s: use another --out" % (
                cfg.out, ", ".join("board %s class %s" % f for f in sorted(foreign))))
        # The summary compares rank counts of one placement: no mixing ranks per cluster.
        other_ppc = {r["ppc"] for r in rows if r["mapping"] == "compact"} - {str(cfg.ppc)}
        if other_ppc:
            raise UsageError("%s holds compact runs with --ppc %s: give that, or use another --out" % (
                cfg.out, " ".join(sorted(other_ppc))))
    except (UsageError, results.ResultsError) as e:
        print("weak-scaling: %s" % e, file=sys.stderr)
        return EXIT_USAGE
    done = {results.run_key(r) for r in rows}
    todo = [p for p in cfg.points if cfg.key(p) not in done]
    if len(todo) < len(cfg.points):
        print("weak-scaling: resuming in %s: %d of %d points already recorded" % (
            cfg.out, len(cfg.points) - len(todo), len(cfg.points)), file=sys.stderr)
    if args.dry_run:
        for p in todo:
            print(describe(p))
        return 0
    if not args.report_only and todo:
        needed = {plan.program_path(cfg.program_dir, p.app, cfg.build(p)) for p in todo}
        missing = sorted(path for path in needed if not os.path.isfile(path))
        if missing:
            print("weak-scaling: missing programs (run 'make BOARD=%s' first): %s" % (cfg.board, " ".join(missing)),
                  file=sys.stderr)
            return EXIT_USAGE
        if args.executor == "slurm":
            return submit_sweep(cfg, todo)
        print("weak-scaling: %d runs on %s, class %s, into %s" % (len(todo), cfg.board, cfg.klass, cfg.out),
              file=sys.stderr)
        os.makedirs(cfg.out, exist_ok=True)
        for sig in (signal.SIGTERM, signal.SIGHUP):
            signal.signal(sig, runner.raise_stopped)
        try:
            sweep(cfg, store, todo, cfg.jobs)
        except (KeyboardInterrupt, runner.Stopped) as e:
            print("\nweak-scaling: interrupted; the finished runs are in %s: rerun the same command to resume"
                  % os.path.join(cfg.out, "results.csv"), file=sys.stderr)
            return 128 + e.signum if isinstance(e, runner.Stopped) else EXIT_INTERRUPTED
    os.makedirs(cfg.out, exist_ok=True)
    store.order([cfg.key(p) for p in cfg.points])
    rows, a2a_rows = store.load()
    plotted = report(cfg, rows, a2a_rows)
    all_ok = all(r["status"] == "ok" for r in rows)
    return 0 if plotted and all_ok and rows else 1
