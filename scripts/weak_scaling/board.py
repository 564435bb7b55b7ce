"""Board facts (from build/tools/board-info, which reads the board table) and the rank
counts and placements a sweep derives from them. No board size is written here."""
import math
import subprocess

# The thesis runs 12 ranks per cluster (of MPPA-256's 16 PEs); a smaller cluster gets all its PEs.
THESIS_RANKS_PER_CLUSTER = 12
# The A2A experiment of the thesis (figure 18) runs 12 ranks.
THESIS_A2A_RANKS = 12


class BoardError(Exception):
    pass


def parse_facts(text):
    """board-info's KEY=VALUE lines -> dict; the numbers the sweep needs become ints."""
    facts = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or "=" not in line:
            continue
        key, value = line.split("=", 1)
        facts[key] = value
    for key in ("BOARD_COMPUTE_CLUSTERS", "BOARD_COMPUTE_PES", "BOARD_IO_CLUSTERS"):
        if key not in facts:
            raise BoardError("board-info did not print %s" % key)
        try:
            facts[key] = int(facts[key])
        except ValueError:
            raise BoardError("board-info printed %s=%r, not a number" % (key, facts[key]))
        if facts[key] < 1:
            raise BoardError("board-info printed %s=%d" % (key, facts[key]))
    return facts


def read_facts(board_info, board):
    try:
        out = subprocess.run([board_info, board], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             universal_newlines=True)
    except OSError as e:
        raise BoardError("cannot run %s: %s (run 'make BOARD=%s' first)" % (board_info, e.strerror, board))
    if out.returncode != 0:
        raise BoardError(out.stderr.strip() or "board-info refused board %r" % board)
    return parse_facts(out.stdout)


def capacity(facts):
    return facts["BOARD_COMPUTE_CLUSTERS"] * facts["BOARD_COMPUTE_PES"]


def default_ppc(facts):
    return min(THESIS_RANKS_PER_CLUSTER, facts["BOARD_COMPUTE_PES"])


def default_rank_counts(facts, ppc):
    """1, then ppc ranks on 1, 2, 4, ... clusters, ending with every compute cluster
    (1 12 24 48 96 192 on mppa256)."""
    clusters = facts["BOARD_COMPUTE_CLUSTERS"]
    counts = [1]
    c = 1
    while c < clusters:
        counts.append(ppc * c)
        c *= 2
    counts.append(ppc * clusters)
    return sorted(set(counts))


def short_rank_counts(facts, ppc):
    """A short sweep (make run): one rank, one full cluster, every cluster."""
    return sorted({1, ppc, ppc * facts["BOARD_COMPUTE_CLUSTERS"]})


def lbm_cluster_counts(facts, short=False):
    """LBM's cluster counts (one rank each): 1, 2, 4, ... and every compute cluster; a short
    sweep runs 1, 2 and every cluster."""
    clusters = facts["BOARD_COMPUTE_CLUSTERS"]
    counts = [1]
    while counts[-1] * 2 < clusters and not (short and counts[-1] >= 2):
        counts.append(counts[-1] * 2)
    return sorted(set(counts + [clusters]))


def default_lbm_configs(facts):
    """Pipeline depth 1 and 2 on one DDR, and depth 2 on two where the board has two I/O
    clusters (the paper's figures): DEPTH:DDRS words."""
    return ["1:1", "2:1"] + (["2:2"] if facts["BOARD_IO_CLUSTERS"] >= 2 else [])


def check_lbm_ddrs(ddrs, facts):
    """None when the board has an I/O cluster for each DDR, else why not."""
    if ddrs > facts["BOARD_IO_CLUSTERS"]:
        return "%d DDRs need %d I/O clusters; board %s has %d" % (
            ddrs, ddrs, facts.get("BOARD_NAME", "?"), facts["BOARD_IO_CLUSTERS"])
    return None


def default_a2a_ranks(facts):
    return min(THESIS_A2A_RANKS, capacity(facts))


def clusters_used(ranks, mapping, ppc, facts):
    """Compute clusters that get ranks: compact fills ppc ranks per cluster, scatter deals
    ranks round-robin over every compute cluster."""
    if mapping == "compact":
        return math.ceil(ranks / ppc)
    return min(ranks, facts["BOARD_COMPUTE_CLUSTERS"])


def check_fits(ranks, mapping, ppc, facts):
    """None when the placement fits the board, else why not."""
    if ranks < 1:
        return "rank counts must be positive, not %d" % ranks
    if ranks > capacity(facts):
        return "%d ranks do not fit board %s (%d compute clusters x %d PEs)" % (
            ranks, facts.get("BOARD_NAME", "?"), facts["BOARD_COMPUTE_CLUSTERS"], facts["BOARD_COMPUTE_PES"])
    if mapping == "compact" and clusters_used(ranks, mapping, ppc, facts) > facts["BOARD_COMPUTE_CLUSTERS"]:
        return "%d ranks at %d per cluster need %d clusters; board %s has %d" % (
            ranks, ppc, clusters_used(ranks, mapping, ppc, facts), facts.get("BOARD_NAME", "?"),
            facts["BOARD_COMPUTE_CLUSTERS"])
    return None
