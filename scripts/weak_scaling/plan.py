"""What a sweep runs: builds, points (application x build x ranks x mapping x repeat) and
the program each point launches. LBM's "builds" are its pipeline configurations (depth and
DDRs) and its ranks are clusters, one rank each."""
import collections
import os
import re

CAPBENCH_APPS = ("fn", "gf", "km")
A2A_APP = "a2a"
LBM_APP = "lbm"
ALL_APPS = CAPBENCH_APPS + (A2A_APP, LBM_APP)
BASE_BUILDS = ("ipc", "unopt", "opt")
DEFAULT_BUILDS = BASE_BUILDS
MAPPINGS = ("compact", "scatter")
CLASSES = ("test", "small", "thesis")


class PlanError(Exception):
    pass


_BUILD_NAME = re.compile(r"^[A-Za-z0-9_.=+-]+$")
# args: what the program gets after --class (LBM's --depth and --ddrs).
Build = collections.namedtuple("Build", "name base kernel_opts args", defaults=((),))
# LBM is built over CAP Bench's raw-IKC layer only.
LBM_BASE = "ipc"
LBM_MAPPING = "scatter"


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


def parse_lbm_config(text):
    """'D:K' (pipeline depth D, K DDRs) -> the build 'depthD-ddrK'."""
    depth, sep, ddrs = text.partition(":")
    try:
        d, k = int(depth), int(ddrs)
    except ValueError:
        d = k = 0
    if not sep or d < 1 or k < 1:
        raise PlanError("LBM configuration %r: DEPTH:DDRS, two positive numbers (e.g. 2:1)" % text)
    return Build("depth%d-ddr%d" % (d, k), LBM_BASE, "", ("--depth", str(d), "--ddrs", str(k)))


def _lbm_arg(build, option):
    return build.args[build.args.index(option) + 1]


def lbm_ddrs(build):
    return int(_lbm_arg(build, "--ddrs"))


def lbm_config_word(build):
    """The 'D:K' that parse_lbm_config made `build` from."""
    return "%s:%s" % (_lbm_arg(build, "--depth"), _lbm_arg(build, "--ddrs"))


def program_path(user_dir, app, build):
    """build/user/capbench/APP_BUILD.elf, or build/user/lbm/lbm_ipc.elf."""
    folder = "lbm" if app == LBM_APP else "capbench"
    return os.path.join(user_dir, folder, "%s_%s.elf" % (app, build.base))


Point = collections.namedtuple("Point", "app build ranks mapping ppc repeat")


def make_points(apps, builds, rank_counts, mappings, ppc, repeats, a2a_ranks, a2a_mappings,
                lbm_configs=(), lbm_clusters=()):
    """Every point, in the order they run: repeat-major (a first pass over everything
    gives a whole picture early), then application, build, mapping, ranks."""
    points = []
    for repeat in range(1, repeats + 1):
        for app in apps:
            # A2A runs one rank count, compact and scatter (the thesis' figure 18); LBM one
            # rank per cluster, for each of its configurations.
            counts, maps, app_builds = rank_counts, mappings, builds
            if app == A2A_APP:
                counts, maps = [a2a_ranks], a2a_mappings
            elif app == LBM_APP:
                counts, maps, app_builds = lbm_clusters, [LBM_MAPPING], lbm_configs
            for build in app_builds:
                for mapping in maps:
                    for ranks in counts:
                        # Ranks per cluster only constrain a compact placement.
                        points.append(Point(app, build.name, ranks, mapping,
                                            ppc if mapping == "compact" else 0, repeat))
    return points
