#!/usr/bin/env python3
"""Times two commands side by side, alternating (A B A B ...), after one
warm-up run of each, and takes the ratio A/B pair by pair, so that a drift of
the machine's speed during the run moves both halves of a pair alike:
  pairs.py RUNS A_COMMAND... -- B_COMMAND...
Both commands run with standard input and output on /dev/null and no shell.
Prints one tab-separated line:
  A median s, B median s, ratio median, ratio min, ratio max,
  A peak RSS KB, B peak RSS KB, A median CPU s, B median CPU s,
  CPU ratio median (user + system, pair by pair: steadier than wall time on a
  loaded machine, and the same as the wall ratio on a quiet one for two
  single-threaded commands)
Each figure is the median of its RUNS values; min and max of the ratio show
the spread (a wide one says the machine was noisy). The peaks come from one
more run of each under GNU time: a child's own maximum RSS counts the memory
of the process it was forked from, so this script's would show instead."""
import os
import statistics
import subprocess
import sys
import tempfile
import time


def run(argv):
    """Wall seconds and user + system seconds of one run."""
    start = time.perf_counter_ns()
    child = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                             stderr=subprocess.DEVNULL)
    _, _, usage = os.wait4(child.pid, 0)
    wall = (time.perf_counter_ns() - start) / 1e9
    child.returncode = 0  # reaped by wait4; keeps Popen from waiting again
    return wall, usage.ru_utime + usage.ru_stime


def peak_kb(argv):
    """Peak RSS in KB of one run, as GNU time reports it (0 without it)."""
    with tempfile.NamedTemporaryFile("r") as out:
        try:
            subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out.name] + argv, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
            return int(out.read().split()[-1])
        except (OSError, ValueError, IndexError):
            return 0


def main():
    runs = int(sys.argv[1])
    cut = sys.argv.index("--")
    a, b = sys.argv[2:cut], sys.argv[cut + 1:]
    if runs < 1 or not a or not b:
        sys.exit("usage: pairs.py RUNS A_COMMAND... -- B_COMMAND...")
    run(a)
    run(b)
    ra, rb = [], []
    for _ in range(runs):
        ra.append(run(a))
        rb.append(run(b))
    ratios = [x[0] / y[0] for x, y in zip(ra, rb) if y[0] > 0]
    cpu_ratios = [x[1] / y[1] for x, y in zip(ra, rb) if y[1] > 0] or [0.0]
    med = statistics.median
    print("%.4f\t%.4f\t%.3f\t%.3f\t%.3f\t%d\t%d\t%.3f\t%.3f\t%.3f" % (
        med(x[0] for x in ra), med(y[0] for y in rb), med(ratios), min(ratios), max(ratios),
        peak_kb(a), peak_kb(b), med(x[1] for x in ra), med(y[1] for y in rb), med(cpu_ratios)))


main()
