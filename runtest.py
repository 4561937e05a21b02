#!/usr/bin/env python3
"""runtest.py: lkp-tests' will-it-scale command line over runtest.sh (docs/LKP.md).

    python3 ./runtest.py <test> <duration> <mode> <no_affinity> <smt> <tasks...>

Run in the directory holding the testcase binaries. Prints will-it-scale's CSV
on stdout and writes <test>.title. A thin wrapper: runtest.sh measures, the C
tools compute; this only maps the arguments and copies summary.csv's first
six columns in will-it-scale's number format.
"""
import csv
import os
import shutil
import subprocess
import sys
import tempfile

# make install rewrites the next line: where the installed runtest.sh is (relative to here, absolute).
SB_INSTALL = None

PROG = "runtest.py"
USAGE = "usage: runtest.py <testcase> <duration> <mode> <no_affinity> <smt> <tasks...>"
MODES = {"process": "processes", "thread": "threads", "both": "all"}
COLUMNS = ["tasks", "processes", "processes_idle", "threads", "threads_idle", "linear"]


def fail(code, msg):
    print("%s: %s" % (PROG, msg), file=sys.stderr)
    sys.exit(code)


def usage_error(msg):
    fail(2, "%s (try 'runtest.py --help')" % msg)


def find_runtest(here):
    """-> (runtest.sh, the build directory or None): installed, else the checkout above here."""
    if SB_INSTALL:
        for path in (os.path.join(here, SB_INSTALL[0]), SB_INSTALL[1]):
            if os.access(path, os.X_OK):
                return path, None
        fail(3, "the installed runtest.sh is missing (%s)" % SB_INSTALL[1])
    d = here
    while True:
        path = os.path.join(d, "runtest.sh")
        if os.access(path, os.X_OK):
            # here is <checkout>/<build>/bin: that build, unless SB_BUILD says otherwise
            build = None
            if os.path.basename(here) == "bin" and os.path.dirname(here) != d:
                build = os.path.dirname(here)
            return path, build
        up = os.path.dirname(d)
        if up == d:
            fail(3, "no runtest.sh in %s or above it" % here)
        d = up


def parse(argv):
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(USAGE)
        print("  mode: process, thread or both; no_affinity, smt: 0 or 1; tasks: task counts")
        sys.exit(0)
    if len(argv) < 7:
        usage_error("expected at least 6 arguments, got %d" % (len(argv) - 1))
    test, duration, mode, no_aff, smt = argv[1:6]
    tasks = argv[6:]
    if mode not in MODES:
        usage_error("mode '%s': process, thread or both" % mode)
    for name, v in (("no_affinity", no_aff), ("smt", smt)):
        if v not in ("0", "1"):
            usage_error("%s '%s': 0 or 1" % (name, v))
    for t in tasks:
        if not t.isdigit() or int(t) < 1:
            usage_error("task count '%s': a whole number >= 1" % t)
    return test, duration, MODES[mode], no_aff == "1", smt == "1", tasks


def number(v, fmt):
    """A summary.csv value in will-it-scale's format; 0 where none was measured."""
    if v == "":
        return fmt % 0
    return fmt % (int(float(v)) if fmt == "%d" else float(v))


def write_title(test, description):
    """<test>.title in the current directory, as will-it-scale writes it (the text and a newline)."""
    tmp = "%s.title.%d.tmp" % (test, os.getpid())
    try:
        with open(tmp, "w") as f:
            f.write(description + "\n")
        os.replace(tmp, test + ".title")
    except OSError as e:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        fail(3, "cannot write %s.title: %s" % (test, e.strerror))


def read_meta(path):
    meta = {}
    with open(path) as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition("=")
            meta[k] = v
    return meta


def print_csv(summary):
    with open(summary, newline="") as f:
        rows = list(csv.DictReader(f))
    print(",".join(COLUMNS))
    for r in rows:
        if r["tasks"] == "0":
            print("0,0,100,0,100,0")
            continue
        print(",".join([r["tasks"], number(r["processes"], "%d"), number(r["processes_idle"], "%0.2f"),
                        number(r["threads"], "%d"), number(r["threads_idle"], "%0.2f"),
                        number(r["linear"], "%d")]))


def main(argv):
    here = os.path.dirname(os.path.realpath(argv[0]))
    runtest, build = find_runtest(here)
    if len(argv) == 2 and argv[1] == "--version":
        out = subprocess.run([runtest, "--version"], stdout=subprocess.PIPE, universal_newlines=True)
        print(out.stdout.replace("runtest.sh", PROG, 1), end="")
        sys.exit(out.returncode)
    test, duration, mode, no_aff, smt, tasks = parse(argv)
    env = dict(os.environ)
    # The binaries of the current directory, as lkp-tests runs will-it-scale's.
    if os.path.exists("%s_processes" % test) or os.path.exists("%s_threads" % test):
        env["SB_TESTS_DIR"] = os.getcwd()
    if build and "SB_BUILD" not in env:
        env["SB_BUILD"] = build
    keep = env.get("SB_RESULTS")
    results = keep or tempfile.mkdtemp(prefix="runtest-py.")
    cmd = [runtest, test, "--points", ",".join(tasks), "--duration", duration, "--mode", mode,
           "--results", results, "--quiet"]
    # More runtest.sh options (e.g. "--warmup 1 --repeat 3"), for whoever runs lkp's jobs.
    cmd += env.get("SB_RUNTEST_OPTIONS", "").split()
    if no_aff:
        cmd.append("--no-affinity")
    if smt:
        cmd.append("--smt")
    try:
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, universal_newlines=True)
        run_dir = p.stdout.strip().splitlines()[-1] if p.stdout.strip() else ""
        summary = os.path.join(run_dir, "summary.csv")
        if not run_dir or not os.path.exists(summary):
            sys.exit(p.returncode or 1)
        meta = read_meta(os.path.join(run_dir, "meta"))
        write_title(test, meta.get("description", test))
        print_csv(summary)
        sys.stdout.flush()
        sys.exit(p.returncode)
    except KeyboardInterrupt:
        sys.exit(130)
    finally:
        if not keep:
            shutil.rmtree(results, ignore_errors=True)


if __name__ == "__main__":
    main(sys.argv)
