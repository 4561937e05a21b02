#!/usr/bin/env python3
"""Regenerates the plot selftests' result fixtures (the generated files are kept in git)."""
# Run from anywhere: ./selftest/data/plot/make_fixtures.py. The numbers are
# invented but shaped like real sweeps: every sample is the point's mean times
# a fixed spread factor, so the means (and the expected peak labels) are exact.

import math
import os
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
SPREAD = (0.99, 0.995, 1.0, 1.005, 1.01)   # measured samples, relative to the mean
WARMUP = (0.97, 0.98)
T_975_DF4 = 2.776                         # Student's t, 95% two-sided, 4 degrees of freedom

SUMMARY_HEADER = ("tasks,processes,processes_idle,threads,threads_idle,linear,"
                  "processes_stddev,processes_ci,processes_min,processes_max,processes_n,"
                  "threads_stddev,threads_ci,threads_min,threads_max,threads_n,lkp_linear")
SAMPLES_HEADER = ("mode,tasks,run,phase,sample,elapsed_s,ops,ops_per_s,"
                  "task_min,task_max,idle_pct,idle_all_pct")


def fmt(x):
    return "%.6f" % x


def point_stats(mean):
    vals = [mean * f for f in SPREAD]
    sd = math.sqrt(sum((v - mean) ** 2 for v in vals) / (len(vals) - 1))
    return vals, sd, T_975_DF4 * sd / math.sqrt(len(vals))


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def make_run(root, test, run_id, meta, points, series, cpus=96):
    """series: {mode: [ops/s per point or None]}; idle follows from tasks/cpus."""
    rdir = os.path.join(root, test, run_id)
    os.makedirs(rdir)
    one = [series[m][0] for m in ("processes", "threads") if series.get(m) and series[m][0]]
    base = max(one)
    summary = [SUMMARY_HEADER, "0,0,100,0,100,0" + "," * 10 + ",0"]
    samples = [SAMPLES_HEADER]
    for i, tasks in enumerate(points):
        cols = {}
        for mode in ("processes", "threads"):
            mean = series.get(mode, [None] * len(points))[i]
            if mean is None:
                cols[mode] = None
                continue
            vals, sd, ci = point_stats(mean)
            idle = max(0.5, 100.0 * (1 - tasks / cpus) - (3.0 if mode == "threads" else 0.0))
            cols[mode] = (mean, idle, sd, ci, min(vals), max(vals), len(vals))
            for phase, factors in (("warmup", WARMUP), ("measure", SPREAD)):
                for s, f in enumerate(factors, 1):
                    v = mean * f
                    samples.append(",".join([mode, str(tasks), "1", phase, str(s), "1.000000",
                                             "%d" % round(v), fmt(v), fmt(v / tasks * 0.97),
                                             fmt(v / tasks * 1.03), fmt(idle), fmt(idle)]))
        row = [str(tasks)]
        for mode in ("processes", "threads"):
            c = cols[mode]
            row += [fmt(c[0]), fmt(c[1])] if c else ["", ""]
        row.append(fmt(base * tasks))
        for mode in ("processes", "threads"):
            c = cols[mode]
            row += [fmt(c[2]), fmt(c[3]), fmt(c[4]), fmt(c[5]), str(c[6])] if c else [""] * 5
        row.append(fmt(base * tasks))
        summary.append(",".join(row))
    write(os.path.join(rdir, "summary.csv"), "\n".join(summary) + "\n")
    write(os.path.join(rdir, "samples.csv"), "\n".join(samples) + "\n")
    full = {
        "test": test, "run_id": run_id, "status": "complete",
        "host": "bench01", "kernel": "Linux %s #1 SMP PREEMPT_DYNAMIC x86_64" % meta["label"],
        "os": "Debian GNU/Linux 12 (bookworm)", "cpu_model": "Intel(R) Xeon(R) Gold 6248R CPU @ 3.00GHz",
        "topology": "packages=2 numa=2 cores=48 pus=96", "hwloc_version": "2.9.0",
        "placement": "cores", "aslr": "off", "modes": "processes,threads",
        "points": ",".join(str(p) for p in points), "duration": "5", "warmup": "2",
        "period_ms": "1000", "repeat": "1", "params": "",
        "command": "./runtest.sh %s --label %s" % (test, meta["label"]),
        "compiler": "gcc 12.2.0", "cflags": "-O2 -g", "git_revision": "0123abc",
    }
    full.update(meta)
    write(os.path.join(rdir, "meta"), "".join("%s=%s\n" % kv for kv in full.items()))
    return rdir


def collapse(points, one, peak_at, peak, tail):
    """Rises to `peak` at `peak_at` tasks, then decays towards tail*peak at the last point."""
    out = []
    last = points[-1]
    for p in points:
        if p < peak_at:
            out.append(one + (peak - one) * (p - 1) / (peak_at - 1))
        elif p == peak_at:
            out.append(peak)
        else:
            frac = math.log(p / peak_at) / math.log(last / peak_at)
            out.append(peak * (1 - (1 - tail) * frac))
    return out


def good(root):
    pts = [1, 2, 4, 6, 8, 12, 16, 24, 32, 48, 64, 96]
    old = "6.1.0-old"
    new = "6.8.0-lock"
    desc = "AF_UNIX socketpair: write and read one byte"
    make_run(root, "unix1", old + "-20260101T100000",
             {"label": old, "description": desc, "date": "2026-01-01T10:00:00Z"},
             pts, {"processes": collapse(pts, 1.0e6, 6, 4.8e6, 0.3),
                   "threads": collapse(pts, 0.95e6, 8, 4.2e6, 0.3)})
    scal = [p * 1.02e6 * (1 - 0.002 * p) for p in pts]
    make_run(root, "unix1", new + "-20260102T090000",
             {"label": new, "description": desc, "date": "2026-01-02T09:00:00Z"},
             pts, {"processes": [v * 0.98 for v in scal], "threads": [v * 0.93 for v in scal]})
    make_run(root, "unix1", new + "-20260102T100000",
             {"label": new, "description": desc, "date": "2026-01-02T10:00:00Z"},
             pts, {"processes": scal, "threads": [v * 0.95 for v in scal]})
    os.symlink(new + "-20260102T100000", os.path.join(root, "unix1", "latest"))
    write(os.path.join(root, "unix1", "notes.txt"), "not a run: plot.py skips it\n")
    # A directory without meta (git keeps no empty directory, so it holds a file).
    os.makedirs(os.path.join(root, "unix1", "scratch"))
    write(os.path.join(root, "unix1", "scratch", "summary.csv"), "tasks,processes\n")

    p2 = [1, 2, 4, 8, 16]
    make_run(root, "pipe1", old + "-20260103T100000",
             {"label": old, "description": "pipe: write and read one byte", "date": "2026-01-03T10:00:00Z",
              "status": "failed", "failed_mode": "threads", "failed_tasks": "8",
              "error": "threads, 8 tasks: task 5 (tid 4242) stopped counting for 3 s"},
             p2, {"processes": [2.0e6, 3.9e6, 7.5e6, 14.0e6, 26.0e6],
                  "threads": [1.9e6, 3.6e6, 7.0e6, None, None]})
    os.symlink(old + "-20260103T100000", os.path.join(root, "pipe1", "latest"))

    p3 = list(range(1, 9))
    make_run(root, "futex_threads", new + "-20260104T100000",
             {"label": new, "modes": "threads", "date": "2026-01-04T10:00:00Z",
              "description": "FUTEX_WAKE & FUTEX_WAIT on a <shared> word",
              "host": "rack<7>&b"},
             p3, {"threads": [3.0e6, 5.8e6, 8.4e6, 10.9e6, 13.0e6, 14.8e6, 16.2e6, 17.0e6]}, cpus=8)
    os.symlink(new + "-20260104T100000", os.path.join(root, "futex_threads", "latest"))


def bad(root):
    pts = [1, 2, 4, 8]
    desc = "AF_UNIX socketpair: write and read one byte"
    make_run(root, "unix1", "good-20260105T100000",
             {"label": "good", "description": desc, "date": "2026-01-05T10:00:00Z"},
             pts, {"processes": [1e6, 2e6, 3.9e6, 7.6e6], "threads": [1e6, 1.9e6, 3.8e6, 7.3e6]})
    # Truncated in the middle of line 5 (the 4-task row), no newline at the end.
    rdir = make_run(root, "unix1", "trunc-20260105T110000",
                    {"label": "trunc", "description": desc, "date": "2026-01-05T11:00:00Z"},
                    pts, {"processes": [1e6, 2e6, 3.9e6, 7.6e6], "threads": [1e6, 1.9e6, 3.8e6, 7.3e6]})
    path = os.path.join(rdir, "summary.csv")
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    write(path, "\n".join(lines[:4]) + "\n" + lines[4][:25])
    # A non-number on line 9 of samples.csv.
    rdir = make_run(root, "pipe1", "garbled-20260105T120000",
                    {"label": "garbled", "description": "pipe: write and read one byte",
                     "date": "2026-01-05T12:00:00Z"},
                    pts, {"processes": [2e6, 4e6, 8e6, 15e6], "threads": [2e6, 4e6, 8e6, 15e6]})
    path = os.path.join(rdir, "samples.csv")
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    f9 = lines[8].split(",")
    f9[7] = "12x4"
    lines[8] = ",".join(f9)
    write(path, "\n".join(lines))


def main():
    for name, fill in (("good", good), ("bad", bad)):
        root = os.path.join(HERE, name)
        shutil.rmtree(root, ignore_errors=True)
        fill(root)


if __name__ == "__main__":
    main()
