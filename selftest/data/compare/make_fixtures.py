#!/usr/bin/env python3
"""Write the run-directory fixtures of selftest/compare_runs.t into results/ next to this script.

Every run has points processes and threads at 1, 2 and 4 tasks. With
--repeat 3 each run r of a point measures three samples m-10, m, m+10, so the
per-run means are exactly m, and m is base + (-10, 0, +10) over the runs: the
means compared have standard deviation 10. "new" is "base" with processes at
2 tasks 10% slower (2000 -> 1800 ops/s).
"""
import os
import shutil

HEADER = ("mode,tasks,run,phase,sample,elapsed_s,ops,ops_per_s,"
          "task_min,task_max,idle_pct,idle_all_pct")

BASE = {("processes", 1): 1000, ("processes", 2): 2000, ("processes", 4): 3000,
        ("threads", 1): 1000, ("threads", 2): 1900, ("threads", 4): 1800}


def meta(test, label, run_id, status="complete", repeat=3, kernel=None):
    return "\n".join([
        "test=%s" % test,
        "description=fixture for compare",
        "label=%s" % label,
        "run_id=%s" % run_id,
        "status=%s" % status,
        "date=2026-01-01T00:00:00Z",
        "host=box1",
        "kernel=%s" % (kernel or "Linux 6.1.0-%s #1 SMP x86_64" % label),
        "modes=processes,threads",
        "points=1,2,4",
        "repeat=%d" % repeat,
    ]) + "\n"


def rows_repeat(means):
    out = []
    for run in (1, 2, 3):
        for (mode, tasks), m in sorted(means.items()):
            pm = m + (run - 2) * 10
            out.append("%s,%d,%d,warmup,1,1.000000,1,1.000000,,,," % (mode, tasks, run))
            for k, v in enumerate((pm - 10, pm, pm + 10), 1):
                out.append("%s,%d,%d,measure,%d,1.000000,%d,%.6f,%.6f,%.6f,50.000000,60.000000"
                           % (mode, tasks, run, k, v, v, v / tasks, v / tasks))
    return out


def rows_single(means):
    out = []
    for (mode, tasks), m in sorted(means.items()):
        for k, v in enumerate((m - 20, m - 10, m, m + 10, m + 20), 1):
            out.append("%s,%d,1,measure,%d,1.000000,%d,%.6f,,,," % (mode, tasks, k, v, v))
    return out


def run(test, run_id, label, rows, **kw):
    d = os.path.join("results", test, run_id)
    os.makedirs(d)
    with open(os.path.join(d, "meta"), "w") as f:
        f.write(meta(test, label, run_id, **kw))
    with open(os.path.join(d, "samples.csv"), "w") as f:
        f.write(HEADER + "\n" + "\n".join(rows) + "\n")


def main():
    # Always next to this script: never the checkout's own results/.
    os.chdir(os.path.dirname(os.path.abspath(__file__)))
    shutil.rmtree("results", ignore_errors=True)
    new = dict(BASE)
    new[("processes", 2)] = 1800
    run("unix1", "base-20260101T000000", "base", rows_repeat(BASE))
    run("unix1", "new-20260102T000000", "new", rows_repeat(new))
    run("unix1", "single-20260103T000000", "single", rows_single(new), repeat=1)
    run("unix1", "failed-20260104T000000", "failed", rows_repeat(BASE), status="failed")
    run("unix1", "wide-20260105T000000", "wide",
        rows_repeat({("processes", 8): 5000, ("processes", 16): 6000}))
    run("pipe1", "other-20260101T000000", "other", rows_repeat(BASE))
    os.symlink("new-20260102T000000", os.path.join("results", "unix1", "latest"))
    os.symlink("other-20260101T000000", os.path.join("results", "pipe1", "latest"))


if __name__ == "__main__":
    main()
