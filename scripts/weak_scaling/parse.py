"""Reading what the applications print (rank 0, on stdout, each line whole): the result
line, A2A's per-size lines and the `capbench:` summary line."""
import re

CAPBENCH_KEYS = ("app", "build", "ranks", "clusters", "class", "cycles", "seconds",
                 "comm_cycles", "bytes", "messages", "verified")
_INT_KEYS = ("ranks", "clusters", "cycles", "comm_cycles", "bytes", "messages")
_VERIFIED = ("yes", "no")

_A2A_LINE = re.compile(r"^a2a: size (\d+), iterations (\d+), cycles (\d+), seconds (\S+), verified (yes|no)$")


def _lines(text):
    # The serial console may end lines with \r\n.
    return [line.rstrip("\r") for line in text.splitlines()]


def _number(value, is_int):
    try:
        n = int(value) if is_int else float(value)
    except ValueError:
        return None
    return n if n >= 0 else None


def parse_capbench_line(line):
    """One `capbench: k=v ...` line (keys in the fixed order) -> dict, or None."""
    if not line.startswith("capbench: "):
        return None
    fields = line[len("capbench: "):].split(" ")
    if len(fields) != len(CAPBENCH_KEYS):
        return None
    out = {}
    for key, field in zip(CAPBENCH_KEYS, fields):
        k, sep, v = field.partition("=")
        if k != key or not sep or not v:
            return None
        if key in _INT_KEYS or key == "seconds":
            v = _number(v, key in _INT_KEYS)
            if v is None:
                return None
        out[key] = v
    if out["verified"] not in _VERIFIED:
        return None
    return out


def find_capbench(text):
    """The run's summary: the last well-formed `capbench:` line, or None."""
    found = None
    for line in _lines(text):
        parsed = parse_capbench_line(line)
        if parsed is not None:
            found = parsed
    return found


def find_result_line(text, app):
    """The application's result line (`fn: ...`), the last one printed, or ''."""
    prefix = app + ": "
    found = ""
    for line in _lines(text):
        if line.startswith(prefix):
            found = line
    return found


def parse_a2a_lines(text):
    """A2A's per-size lines -> [{size, iterations, cycles, seconds, verified}], in order."""
    rows = []
    for line in _lines(text):
        m = _A2A_LINE.match(line)
        if not m:
            continue
        seconds = _number(m.group(4), False)
        if seconds is None:
            continue
        rows.append({"size": int(m.group(1)), "iterations": int(m.group(2)), "cycles": int(m.group(3)),
                     "seconds": seconds, "verified": m.group(5)})
    return rows


def a2a_result_line(rows):
    """A2A's result without its times (which vary), so runs can be compared: sizes,
    iterations and whether every payload checked out."""
    if not rows:
        return ""
    sizes = [r["size"] for r in rows]
    iterations = sorted({r["iterations"] for r in rows})
    verified = "yes" if all(r["verified"] == "yes" for r in rows) else "no"
    return "a2a: sizes %s, iterations %s, verified %s" % (
        " ".join(str(s) for s in sizes), "/".join(str(i) for i in iterations), verified)
