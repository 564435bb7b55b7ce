"""Rank counts and placements derived from the board facts (scripts/weak_scaling/board.py)."""
import unittest

from weak_scaling import board


def facts(clusters, pes, name="b", io=1):
    # board-info's output format (only some of its keys).
    return board.parse_facts("BOARD_NAME=%s\nBOARD_HARTS=99\nBOARD_COMPUTE_CLUSTERS=%d\nBOARD_COMPUTE_PES=%d\n"
                             "BOARD_IO_CLUSTERS=%d\nBOARD_IMAGE_BASE=0x1000\n" % (name, clusters, pes, io))


class Facts(unittest.TestCase):
    def test_parse(self):
        f = facts(16, 16, "mppa256")
        self.assertEqual((f["BOARD_NAME"], f["BOARD_COMPUTE_CLUSTERS"], f["BOARD_COMPUTE_PES"]), ("mppa256", 16, 16))
        self.assertEqual(f["BOARD_IMAGE_BASE"], "0x1000")

    def test_missing_or_bad_numbers_are_refused(self):
        for text in ("BOARD_COMPUTE_PES=4\nBOARD_IO_CLUSTERS=1\n",
                     "BOARD_COMPUTE_CLUSTERS=x\nBOARD_COMPUTE_PES=4\nBOARD_IO_CLUSTERS=1\n",
                     "BOARD_COMPUTE_CLUSTERS=0\nBOARD_COMPUTE_PES=4\nBOARD_IO_CLUSTERS=1\n",
                     "BOARD_COMPUTE_CLUSTERS=4\nBOARD_COMPUTE_PES=4\n"):
            with self.assertRaises(board.BoardError):
                board.parse_facts(text)

    def test_board_info_that_cannot_run(self):
        with self.assertRaises(board.BoardError):
            board.read_facts("/nonexistent/board-info", "small")


class RankCounts(unittest.TestCase):
    def counts(self, clusters, pes):
        f = facts(clusters, pes)
        return board.default_rank_counts(f, board.default_ppc(f))

    def test_thesis_sweep_on_16_clusters_of_16_pes(self):
        self.assertEqual(self.counts(16, 16), [1, 12, 24, 48, 96, 192])

    def test_small_clusters_use_all_their_pes(self):
        self.assertEqual(self.counts(4, 4), [1, 4, 8, 16])
        self.assertEqual(self.counts(2, 2), [1, 2, 4])

    def test_a_cluster_count_that_is_no_power_of_two_ends_with_every_cluster(self):
        self.assertEqual(self.counts(6, 4), [1, 4, 8, 16, 24])

    def test_one_pe_per_cluster_has_no_duplicates(self):
        self.assertEqual(self.counts(3, 1), [1, 2, 3])
        self.assertEqual(self.counts(1, 1), [1])

    def test_short_sweep(self):
        f = facts(16, 16)
        self.assertEqual(board.short_rank_counts(f, board.default_ppc(f)), [1, 12, 192])
        f = facts(4, 4)
        self.assertEqual(board.short_rank_counts(f, board.default_ppc(f)), [1, 4, 16])
        self.assertEqual(board.short_rank_counts(facts(1, 1), 1), [1])

    def test_lbm_cluster_counts(self):
        self.assertEqual(board.lbm_cluster_counts(facts(16, 16)), [1, 2, 4, 8, 16])
        self.assertEqual(board.lbm_cluster_counts(facts(16, 16), short=True), [1, 2, 16])
        self.assertEqual(board.lbm_cluster_counts(facts(6, 4)), [1, 2, 4, 6])
        self.assertEqual(board.lbm_cluster_counts(facts(4, 4), short=True), [1, 2, 4])
        self.assertEqual(board.lbm_cluster_counts(facts(1, 1)), [1])

    def test_lbm_configs_follow_the_io_clusters(self):
        self.assertEqual(board.default_lbm_configs(facts(16, 16, io=4)), ["1:1", "2:1", "2:2"])
        self.assertEqual(board.default_lbm_configs(facts(4, 4, io=1)), ["1:1", "2:1"])
        self.assertIsNone(board.check_lbm_ddrs(2, facts(16, 16, io=4)))
        self.assertIn("2 DDRs need 2 I/O clusters; board b has 1", board.check_lbm_ddrs(2, facts(4, 4)))

    def test_a2a_ranks(self):
        self.assertEqual(board.default_a2a_ranks(facts(16, 16)), 12)
        self.assertEqual(board.default_a2a_ranks(facts(2, 2)), 4)


class Placement(unittest.TestCase):
    def test_clusters_used(self):
        f = facts(16, 16)
        self.assertEqual(board.clusters_used(1, "compact", 12, f), 1)
        self.assertEqual(board.clusters_used(12, "compact", 12, f), 1)
        self.assertEqual(board.clusters_used(13, "compact", 12, f), 2)
        self.assertEqual(board.clusters_used(192, "compact", 12, f), 16)
        self.assertEqual(board.clusters_used(12, "scatter", 12, f), 12)
        self.assertEqual(board.clusters_used(40, "scatter", 12, f), 16)

    def test_fits(self):
        f = facts(16, 16)
        self.assertIsNone(board.check_fits(192, "compact", 12, f))
        self.assertIsNone(board.check_fits(256, "scatter", 12, f))
        self.assertIn("do not fit", board.check_fits(257, "scatter", 16, f))
        self.assertIn("need 17 clusters", board.check_fits(204, "compact", 12, f))
        self.assertIn("positive", board.check_fits(0, "compact", 12, f))


if __name__ == "__main__":
    unittest.main()
