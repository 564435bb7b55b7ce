"""What a sweep runs: builds, points (application x build x ranks x mapping x repeat) and
the program each point launches."""
import collections
import os
import re

CAPBENCH_APPS = ("fn", "gf", "km")
A2A_APP = "a2a"
ALL_APPS = CAPBENCH_APPS + (A2A_APP,)
BASE_BUILDS = ("ipc", "unopt", "opt")
DEFAULT_BUILDS = BASE_BUILDS
MAPPINGS = ("compact", "scatter")
CLASSES = ("test", "small", "thesis")


class PlanError(Exception):
    pass


_BUILD_NAME = re.compile(r"^[A-Za-z0-9_.=+-]+$")
Build = collections.namedtuple("Build", "name base kernel_opts")


def parse_build(name):
    """'opt' or 'opt+OPT1+OPT2': a program build, plus kernel options for nvx-run's
    --kernel-opts (the kernel image stays the same; options are boot arguments)."""
    parts = name.split("+")
    if parts[0] not in BASE_BUILDS:
        raise PlanError("unknown build %r: a build is one of %s, optionally followed by +KERNEL_OPTION..."
                        % (name, ", ".join(BASE_BUILDS)))
    opts = parts[1:]
    if any(not o for o in opts):
        raise PlanError("empty kernel option in build %r" % name)
    # The name goes into file names, CSV cells and plot titles.
    if not _BUILD_NAME.match(name):
        raise PlanError("build %r: kernel options may use letters, digits and . _ = - only" % name)
    return Build(name, parts[0], " ".join(opts))


def kernel_opts_build(opts, base="opt"):
    """`--kernel-opts "a b"` is recorded as build 'opt+a+b'."""
    words = opts.split()
    if not words:
        raise PlanError("--kernel-opts needs at least one option")
    return parse_build("+".join([base] + words))


def program_path(program_dir, app, build):
    return os.path.join(program_dir, "%s_%s.elf" % (app, build.base))


Point = collections.namedtuple("Point", "app build ranks mapping ppc repeat")


def make_points(apps, builds, rank_counts, mappings, ppc, repeats, a2a_ranks, a2a_mappings):
    """Every point, in the order they run: repeat-major (a first pass over everything
    gives a whole picture early), then application, build, mapping, ranks."""
    points = []
    for repeat in range(1, repeats + 1):
        for app in apps:
            # A2A runs one rank count, compact and scatter (the thesis' figure 18).
            counts, maps = ([a2a_ranks], a2a_mappings) if app == A2A_APP else (rank_counts, mappings)
            for build in builds:
                for mapping in maps:
                    for ranks in counts:
                        # Ranks per cluster only constrain a compact placement.
                        points.append(Point(app, build.name, ranks, mapping,
                                            ppc if mapping == "compact" else 0, repeat))
    return points
