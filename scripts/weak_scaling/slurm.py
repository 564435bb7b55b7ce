"""The Slurm executor: the points become a job array (one point per task, each writing its
own row file under the output directory), and a job that depends on the array merges the
row files into the CSV and writes the summary and plots (the driver's --report-only)."""
import json
import math
import os
import shlex
import subprocess

from . import plan

# Slurm's own start-up and the driver's backstop on top of a run's time limit.
TIME_MARGIN_SECONDS = 120
REPORT_TIME = "30"


class SlurmError(Exception):
    pass


def minutes_per_point(timeout):
    """sbatch --time (minutes) for one point whose run may last timeout seconds."""
    return str(math.ceil((timeout + TIME_MARGIN_SECONDS) / 60))


def write_points(path, points):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump([p._asdict() for p in points], f, indent=1)
    os.replace(tmp, path)


def read_point(path, index):
    with open(path) as f:
        points = json.load(f)
    if not 0 <= index < len(points):
        raise SlurmError("%s has %d points: no task %d" % (path, len(points), index))
    return plan.Point(**points[index])


def sbatch_command(sbatch, name, output, time, partition, extra, command, array=None, after=None):
    cmd = [sbatch, "--parsable", "--job-name", name, "--output", output, "--time", time]
    if array is not None:
        cmd += ["--array", "0-%d" % (array - 1)]
    if after is not None:
        # afterany: the report covers failed points too, as a local sweep's does.
        cmd += ["--dependency", "afterany:%s" % after, "--kill-on-invalid-dep=yes"]
    if partition:
        cmd += ["--partition", partition]
    return cmd + list(extra) + ["--wrap", shlex.join(command)]


def submit(cmd):
    """The job id sbatch printed (--parsable: 'id' or 'id;cluster')."""
    try:
        done = subprocess.run(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              universal_newlines=True)
    except OSError as e:
        raise SlurmError("cannot run %s: %s" % (cmd[0], e))
    if done.returncode != 0:
        raise SlurmError("%s refused the job (status %d): %s" % (cmd[0], done.returncode, done.stderr.strip()))
    job = done.stdout.strip().split(";")[0]
    if not job:
        raise SlurmError("%s printed no job id" % cmd[0])
    return job
