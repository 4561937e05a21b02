#!/usr/bin/env python3
"""runtest.py: lkp-tests' and will-it-scale's command line over runtest.sh (docs/LKP.md).

    python3 ./runtest.py <test> <duration> <mode> <no_affinity> <smt> <tasks...>   (lkp-tests)
    python3 ./runtest.py <test>                                                     (will-it-scale)

Run in the directory holding the testcase binaries, or anywhere (it then runs
the binaries beside itself). Prints will-it-scale's CSV on stdout and writes
<test>.title before measuring. A thin wrapper: runtest.sh measures, the C tools
compute; this maps the arguments, plans each point's time as will-it-scale
spends it, and copies summary.csv's first six columns in will-it-scale's format.
"""
import csv
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

# make install rewrites the next line: where the installed runtest.sh is (relative to here, absolute).
SB_INSTALL = None

PROG = "runtest.py"
USAGE = ("usage: runtest.py <testcase> <duration> <mode> <no_affinity> <smt> <tasks...>\n"
         "       runtest.py <testcase>      (will-it-scale's: 5 s a point, 1 to every CPU, both modes)")
MODES = {"process": "processes", "thread": "threads", "both": "all"}
COLUMNS = ["tasks", "processes", "processes_idle", "threads", "threads_idle", "linear"]

# The time of a point (one mode at one task count), as will-it-scale spends it:
# main.c discards WARMUP_ITERATIONS (5) one-second samples and one more, then
# measures <duration> samples: duration + 6 s a point. runtest.py gives a point
# WARMUP_S of warmup and <duration> measured seconds, cut into RUNS independent
# runs (the interval is Student's t across them); the second left over pays
# for starting and stopping the runs.
WARMUP_S = 5
MIN_RUNS, MAX_RUNS = 2, 5	# runs a point: 2 at least for an interval; 5 keeps 1 s warmup a run
RUN_SAMPLES = 5			# samples a run, at least (its mean and its spread)
MIN_PERIOD_MS, MAX_PERIOD_MS = 100, 500
UPSTREAM_DURATION = 5		# will-it-scale's runtest.py: 5 s a point
# Options of runtest.sh that set their own stopping rule: runtest.py's --repeat then steps aside.
STOP_OPTIONS = ("--precision", "--min-runs", "--max-runs", "--point-budget", "--budget", "--quick")
GRACE_S = 10			# after passing a signal on: how long runtest.sh may take to stop
# Every catchable signal whose default ends the process: a terminal's, and any a CI job or
# timeout(1) may send (runtest.sh's SIGNALS). Each is passed on to runtest.sh.
SIGNALS = tuple(getattr(signal, "SIG" + n) for n in
                ("INT", "TERM", "HUP", "QUIT", "USR1", "USR2", "ALRM", "PIPE", "VTALRM", "PROF", "XCPU", "XFSZ")
                if hasattr(signal, "SIG" + n))

# The signal that interrupted us, and the sweep it must reach (the handler reads them).
state = {"signal": None, "child": None}


class Interrupted(Exception):
    """A signal came: runtest.py stops (after runtest.sh) with exit 130."""


def fail(code, msg):
    print("%s: %s" % (PROG, msg), file=sys.stderr)
    sys.exit(code)


def usage_error(msg):
    fail(2, "%s (try 'runtest.py --help')" % msg)


def on_signal(signum, _frame):
    """Note the signal; pass it on to runtest.sh (which stops its runner and keeps what it measured)."""
    state["signal"] = signum
    if state["child"] is not None:
        pass_on(state["child"], signum)


def pass_on(child, signum):
    if child.returncode is None:
        try:
            os.kill(child.pid, signum)
        except ProcessLookupError:
            pass


def check_interrupted():
    if state["signal"] is not None:
        raise Interrupted()


def find_runtest(here):
    """-> (runtest.sh, its checkout or None): installed, else the checkout above here."""
    if SB_INSTALL:
        for path in (os.path.join(here, SB_INSTALL[0]), SB_INSTALL[1]):
            if os.access(path, os.X_OK):
                return path, None
        fail(3, "the installed runtest.sh is missing (%s)" % SB_INSTALL[1])
    d = here
    while True:
        path = os.path.join(d, "runtest.sh")
        if os.access(path, os.X_OK):
            return path, d
        up = os.path.dirname(d)
        if up == d:
            fail(3, "no runtest.sh in %s or above it" % here)
        d = up


def ascii_digits(v):
    """A whole number in ASCII digits ("²" and "１" are digits to str.isdigit, not to us)."""
    return v != "" and all("0" <= c <= "9" for c in v)


def parse_duration(v):
    whole, _, frac = v.partition(".")
    s = float(v) if ascii_digits(whole) and (frac == "" or ascii_digits(frac)) else -1
    if not s >= 1 or s > 86400:
        usage_error("duration '%s': measured seconds of a point, 1 to 86400" % v)
    return int(round(s * 1000))


def parse(argv):
    """-> test, duration_ms, runtest.sh's mode, no_affinity, smt, task counts"""
    if len(argv) == 2 and argv[1] in ("-h", "--help"):
        print(USAGE)
        print("  mode: process, thread or both; no_affinity, smt: 0 or 1; tasks: task counts")
        sys.exit(0)
    if len(argv) == 2 and not argv[1].startswith("-"):
        # will-it-scale's own form: every count from 1 to the CPUs, both binaries, 5 s.
        ncpu = os.cpu_count() or 1
        return argv[1], UPSTREAM_DURATION * 1000, MODES["both"], False, False, \
            [str(n) for n in range(1, ncpu + 1)]
    if len(argv) < 7:
        usage_error("expected <testcase> alone or at least 6 arguments, got %d" % (len(argv) - 1))
    test, duration, mode, no_aff, smt = argv[1:6]
    tasks = argv[6:]
    if test.startswith("-") or "/" in test:
        usage_error("testcase '%s': a testcase name" % test)
    duration_ms = parse_duration(duration)
    if mode not in MODES:
        usage_error("mode '%s': process, thread or both" % mode)
    for name, v in (("no_affinity", no_aff), ("smt", smt)):
        if v not in ("0", "1"):
            usage_error("%s '%s': 0 or 1" % (name, v))
    for t in tasks:
        if not ascii_digits(t) or int(t) < 1:
            usage_error("task count '%s': a whole number >= 1" % t)
    return test, duration_ms, MODES[mode], no_aff == "1", smt == "1", tasks


def time_plan(duration_ms):
    """-> (runs, warmup_ms, measured_ms, period_ms) of each run of a point.

    runs x (warmup + measured) = WARMUP_S + duration: the point takes
    will-it-scale's time. As many runs as keep RUN_SAMPLES samples of at
    least MIN_PERIOD_MS in each, MIN_RUNS to MAX_RUNS; whole sample periods,
    the warmup rounded down: what is left of WARMUP_S pays for starting and
    stopping the runs (rounded to the nearest period, 2 s made 4 runs of
    1.3 s warmup, and lkp's two-point job took 1.22x will-it-scale's time)."""
    runs = max(MIN_RUNS, min(MAX_RUNS, duration_ms // (RUN_SAMPLES * MIN_PERIOD_MS)))
    run_ms = duration_ms // runs
    period = max(MIN_PERIOD_MS, min(MAX_PERIOD_MS, run_ms // RUN_SAMPLES // 10 * 10))
    measured = max(1, run_ms // period) * period
    warmup = max(1, WARMUP_S * 1000 // runs // period) * period
    return runs, warmup, measured, period


def seconds(ms):
    return "%d.%03d" % (ms // 1000, ms % 1000)


def binary_dirs(env, checkout, here):
    """Where runtest.sh will find the testcase binaries, most specific first."""
    dirs = []
    if env.get("SB_TESTS_DIR"):
        dirs.append(env["SB_TESTS_DIR"])
    if checkout:
        dirs.append(os.path.join(checkout, env.get("SB_BUILD") or "build", "bin"))
    dirs.append(here)
    return dirs


def description(test, dirs):
    """The testcase's description from its binary's --info, or None."""
    for d in dirs:
        for m in ("processes", "threads"):
            b = os.path.join(d, "%s_%s" % (test, m))
            if not os.access(b, os.X_OK):
                continue
            try:
                p = subprocess.run([b, "--info"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                   universal_newlines=True, timeout=30)
            except (OSError, subprocess.TimeoutExpired):
                continue
            for line in p.stdout.splitlines():
                if line.startswith("description="):
                    return line[len("description="):]
    return None


def write_title(path, text):
    """<test>.title as will-it-scale writes it (the text and a newline); an OSError names the problem."""
    tmp = "%s.%d.tmp" % (path, os.getpid())
    try:
        with open(tmp, "w") as f:
            f.write(text + "\n")
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def read_meta(path):
    meta = {}
    with open(path) as f:
        for line in f:
            k, _, v = line.rstrip("\n").partition("=")
            meta[k] = v
    return meta


def number(v, fmt):
    """A summary.csv value in will-it-scale's format; 0 where none was measured."""
    if v == "":
        return fmt % 0
    return fmt % (int(float(v)) if fmt == "%d" else float(v))


def print_csv(summary):
    with open(summary, newline="") as f:
        rows = list(csv.DictReader(f))
    lines = [",".join(COLUMNS)]
    for r in rows:
        if r["tasks"] == "0":
            lines.append("0,0,100,0,100,0")
            continue
        lines.append(",".join([r["tasks"], number(r["processes"], "%d"), number(r["processes_idle"], "%0.2f"),
                               number(r["threads"], "%d"), number(r["threads_idle"], "%0.2f"),
                               number(r["linear"], "%d")]))
    print("\n".join(lines))


def sweep_command(runtest, test, duration_ms, mode, no_aff, smt, tasks, results, extra):
    runs, warmup, measured, period = time_plan(duration_ms)
    cmd = [runtest, test, "--points", ",".join(tasks), "--mode", mode, "--duration", seconds(measured),
           "--warmup", seconds(warmup), "--period-ms", str(period)]
    if not any(o.split("=")[0] in STOP_OPTIONS for o in extra):
        cmd += ["--repeat", str(runs)]
    cmd += ["--results", results, "--quiet"]
    if no_aff:
        cmd.append("--no-affinity")
    if smt:
        cmd.append("--smt")
    # More runtest.sh options last (a later option wins), for whoever runs lkp's jobs.
    return cmd + extra


def wait_sweep(child):
    """runtest.sh's exit status; after a signal, SIGKILL once the grace period is over."""
    deadline = None
    try:
        grace = float(os.environ.get("SB_RUNTEST_PY_GRACE", GRACE_S))
    except ValueError:
        grace = GRACE_S
    while True:
        if state["signal"] is not None and deadline is None:
            deadline = time.monotonic() + grace
        try:
            return child.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            if deadline is not None and time.monotonic() >= deadline:
                print("%s: runtest.sh did not stop within %g s of the signal: killed" % (PROG, grace),
                      file=sys.stderr)
                child.kill()
                return child.wait()


def measure(argv, tmp):
    here = os.path.dirname(os.path.realpath(argv[0]))
    runtest, checkout = find_runtest(here)
    if len(argv) == 2 and argv[1] == "--version":
        out = subprocess.run([runtest, "--version"], stdout=subprocess.PIPE, universal_newlines=True)
        print(out.stdout.replace("runtest.sh", PROG, 1), end="")
        return out.returncode
    test, duration_ms, mode, no_aff, smt, tasks = parse(argv)
    check_interrupted()
    env = dict(os.environ)
    # The binaries of the current directory, as lkp-tests runs will-it-scale's.
    if os.path.exists("%s_processes" % test) or os.path.exists("%s_threads" % test):
        env["SB_TESTS_DIR"] = os.getcwd()
    if checkout and os.path.basename(here) == "bin" and os.path.dirname(here) != checkout \
            and "SB_BUILD" not in env:
        env["SB_BUILD"] = os.path.dirname(here)	# here is <checkout>/<build>/bin: that build

    # The title first: a directory we cannot write is said before anything is measured.
    title_dir = env.get("SB_TITLE_DIR") or os.getcwd()
    title = os.path.join(title_dir, test + ".title")
    desc = description(test, binary_dirs(env, checkout, here))
    try:
        write_title(title, desc or test)
    except OSError as e:
        fail(3, "cannot write %s: %s (run from a directory you can write, or set SB_TITLE_DIR)"
             % (title, e.strerror))

    keep = env.get("SB_RESULTS")
    results = keep or os.path.join(tmp, "results")
    cmd = sweep_command(runtest, test, duration_ms, mode, no_aff, smt, tasks, results,
                        env.get("SB_RUNTEST_OPTIONS", "").split())
    check_interrupted()
    with open(os.path.join(tmp, "stdout"), "w+") as out:
        child = state["child"] = subprocess.Popen(cmd, env=env, stdout=out)
        if state["signal"] is not None:	# it came while runtest.sh started
            pass_on(child, state["signal"])
        rc = wait_sweep(child)
        check_interrupted()
        out.seek(0)
        lines = out.read().strip().splitlines()	# the run directory is the last line
    run_dir = lines[-1] if lines else ""
    summary = os.path.join(run_dir, "summary.csv")
    if not run_dir or not os.path.exists(summary):
        return rc or 1
    # The description a run records is the one its testcase_prepare settled on.
    final = read_meta(os.path.join(run_dir, "meta")).get("description") or test
    if final != desc:
        try:
            write_title(title, final)
        except OSError as e:
            fail(3, "cannot write %s: %s" % (title, e.strerror))
    print_csv(summary)
    sys.stdout.flush()
    return rc


def main(argv):
    for s in SIGNALS:
        signal.signal(s, on_signal)
    tmp = None
    try:
        try:
            tmp = tempfile.mkdtemp(prefix="runtest-py.")
        except OSError as e:
            fail(3, "cannot make a temporary directory in %s: %s (set TMPDIR)" % (tempfile.gettempdir(), e.strerror))
        rc = measure(argv, tmp)
    except Interrupted:
        sig = state["signal"]
        by = "" if sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP) else " by " + signal.Signals(sig).name
        try:
            print("%s: interrupted%s" % (PROG, by), file=sys.stderr)
        except OSError:
            pass	# a closed stderr (SIGPIPE's cause, often): the exit status says it
        rc = 130
    finally:
        if tmp:
            shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(rc)


if __name__ == "__main__":
    main(sys.argv)
