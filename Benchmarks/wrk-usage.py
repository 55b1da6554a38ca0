#!/usr/bin/env python3
"""Runs a command (wrk) and writes its resource use to a file, for the benchmark scripts.

    python3 Benchmarks/wrk-usage.py OUT wrk -t1 -c16 -d5s URL

OUT gets one line: wall seconds, user seconds, system seconds, and voluntary context switches
(how many times the command slept: a client that sleeps is waiting for answers). The
command's output goes to this script's standard output, as if run directly.
"""
import resource
import subprocess
import sys
import time

if len(sys.argv) < 3:
    sys.exit("usage: wrk-usage.py OUT COMMAND [ARGUMENT...]")
start, before = time.monotonic(), resource.getrusage(resource.RUSAGE_CHILDREN)
subprocess.run(sys.argv[2:], check=False)
after = resource.getrusage(resource.RUSAGE_CHILDREN)
with open(sys.argv[1], "w") as out:
    out.write("%.3f %.3f %.3f %d\n" % (time.monotonic() - start, after.ru_utime - before.ru_utime,
                                       after.ru_stime - before.ru_stime, after.ru_nvcsw - before.ru_nvcsw))
