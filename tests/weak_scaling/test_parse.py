"""Reading the applications' output lines (scripts/weak_scaling/parse.py)."""
import unittest

from weak_scaling import parse

LINE = ("capbench: app=fn build=opt ranks=12 clusters=1 class=test cycles=123456 seconds=0.0123456 "
        "comm_cycles=789 bytes=4096 messages=33 verified=yes")


class CapbenchLine(unittest.TestCase):
    def test_every_field(self):
        self.assertEqual(parse.parse_capbench_line(LINE), {
            "app": "fn", "build": "opt", "ranks": 12, "clusters": 1, "class": "test", "cycles": 123456,
            "seconds": 0.0123456, "comm_cycles": 789, "bytes": 4096, "messages": 33, "verified": "yes"})

    def test_verified_no(self):
        self.assertEqual(parse.parse_capbench_line(LINE.replace("verified=yes", "verified=no"))["verified"], "no")

    def test_malformed_lines_are_refused(self):
        bad = [
            LINE.replace("verified=yes", "verified=maybe"),
            LINE.replace("ranks=12 clusters=1", "clusters=1 ranks=12"),  # the key order is fixed
            LINE.replace(" bytes=4096", ""),                               # a key missing
            LINE + " extra=1",                                             # a key too many
            LINE.replace("cycles=123456", "cycles=12x"),
            LINE.replace("ranks=12", "ranks=-12"),
            LINE.replace("seconds=0.0123456", "seconds="),
            LINE.replace("capbench: ", "capbench:"),
            "  " + LINE,
            "",
        ]
        for line in bad:
            self.assertIsNone(parse.parse_capbench_line(line), line)

    def test_found_among_other_output_with_crlf(self):
        text = "booting\r\nfn: numbers 1..2, sigma sum 3, friendly pairs 0\r\n" + LINE + "\r\nbye\r\n"
        self.assertEqual(parse.find_capbench(text)["cycles"], 123456)

    def test_the_last_well_formed_line_counts(self):
        text = LINE + "\n" + LINE.replace("cycles=123456", "cycles=5") + "\ncapbench: garbage\n"
        self.assertEqual(parse.find_capbench(text)["cycles"], 5)

    def test_absent(self):
        self.assertIsNone(parse.find_capbench("fn: numbers 1..2, sigma sum 3, friendly pairs 0\n"))


class ResultLine(unittest.TestCase):
    def test_the_applications_line(self):
        text = "gf: images 2, output hash 0x00000000000000ab\r\ncapbench: ...\n"
        self.assertEqual(parse.find_result_line(text, "gf"), "gf: images 2, output hash 0x00000000000000ab")

    def test_another_applications_line_is_not_taken(self):
        self.assertEqual(parse.find_result_line("km: points 1\n", "fn"), "")
        self.assertEqual(parse.find_result_line("fnx: numbers\n", "fn"), "")


class A2ALines(unittest.TestCase):
    TEXT = ("a2a: size 128, iterations 4, cycles 1000, seconds 0.0001, verified yes\n"
            "noise\n"
            "a2a: size 256, iterations 4, cycles 2000, seconds 2e-4, verified yes\r\n")

    def test_per_size(self):
        self.assertEqual(parse.parse_a2a_lines(self.TEXT), [
            {"size": 128, "iterations": 4, "cycles": 1000, "seconds": 0.0001, "verified": "yes"},
            {"size": 256, "iterations": 4, "cycles": 2000, "seconds": 0.0002, "verified": "yes"}])

    def test_malformed_lines_are_skipped(self):
        self.assertEqual(parse.parse_a2a_lines("a2a: size 128, iterations 4, cycles x, seconds 1, verified yes\n"
                                               "a2a: size 128, iterations 4, cycles 1, seconds -1, verified yes\n"), [])

    def test_result_line_has_no_times(self):
        rows = parse.parse_a2a_lines(self.TEXT)
        self.assertEqual(parse.a2a_result_line(rows), "a2a: sizes 128 256, iterations 4, verified yes")
        rows[1]["verified"] = "no"
        self.assertEqual(parse.a2a_result_line(rows), "a2a: sizes 128 256, iterations 4, verified no")
        self.assertEqual(parse.a2a_result_line([]), "")


if __name__ == "__main__":
    unittest.main()
