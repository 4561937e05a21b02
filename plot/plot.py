#!/usr/bin/env python3
"""Draws scalebench's scaling curves, comparisons and results/index.html with gnuplot."""

# Python lays out what the C tools give (units, axes, labels): a run's meta,
# means and intervals from sb-summary --format plot (which reads and checks the
# files), relative changes and their intervals from sb-compare --format csv;
# gnuplot draws everything from plot/*.gp.

import argparse
import html
import math
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import urllib.parse

import flame            # flame graphs of profiled points (plot/flame.py, issue 14)
import history          # ops/s against kernel from the history (plot/history.py, issue 33)

PROG = "plot.py"
PLOT_DIR = os.path.dirname(os.path.abspath(__file__))
REPO_DIR = os.path.dirname(PLOT_DIR)
MODES = ("processes", "threads")
RUN_PLOTS = ("scaling.png", "scaling.svg", "per_task.png", "per_task.svg")
LATEST_COMPARE = "compare-latest"      # make plot's chart of the latest run of each label
INSTALL_HINT = "install gnuplot-nox (Debian/Ubuntu) or gnuplot (Fedora, FreeBSD)"

EXIT_OK, EXIT_INPUT, EXIT_ENV, EXIT_INTR = 0, 2, 3, 130

# Temporary files not yet renamed into place, removed if we are interrupted.
_pending = set()
_UMASK = os.umask(0)
os.umask(_UMASK)


class InputError(Exception):
    """A problem with the results: the message names the file and line."""


class EnvError(Exception):
    """Something missing from the machine (gnuplot, a terminal type)."""


def note(msg):
    print("%s: %s" % (PROG, msg), file=sys.stderr)


# ---------------------------------------------------------------- reading

_built = set()


def tool(name):
    """Path of the C tool sb-NAME ($SB_BUILD, default build/), made first when stale."""
    tools = os.environ.get("SB_TOOLS_DIR")  # installed tools (make install): nothing to build
    if tools:
        path = os.path.join(tools, "sb-" + name)
        if not os.access(path, os.X_OK):
            raise EnvError("%s is not installed" % path)
        return path
    build = os.environ.get("SB_BUILD", "build")
    path = os.path.join(build if os.path.isabs(build) else os.path.join(REPO_DIR, build), "bin", "sb-" + name)
    if name not in _built and shutil.which("make"):
        target = os.path.join(build, "bin", "sb-" + name)
        res = subprocess.run(["make", "-s", "-C", REPO_DIR, "BUILD=" + build, target],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if res.returncode != 0:
            raise EnvError("cannot build %s: make failed: %s" % (path, " ".join(res.stderr.split())[-300:]))
        _built.add(name)
    if not os.access(path, os.X_OK):
        raise EnvError("%s is not built and make is not installed" % path)
    return path


def run_tool(name, args):
    """stdout of sb-NAME ARGS; its one-line message as InputError (exit 2) or EnvError."""
    exe = tool(name)
    try:
        res = subprocess.run([exe] + args, capture_output=True, text=True)
    except OSError as e:
        raise EnvError("cannot run %s: %s" % (exe, e.strerror))
    if res.returncode not in (0, 1):
        msg = (res.stderr.strip().splitlines() or ["exit %d" % res.returncode])[-1]
        prefix = "sb-%s: " % name
        msg = msg[len(prefix):] if msg.startswith(prefix) else msg
        raise (InputError if res.returncode == 2 else EnvError)(msg)
    return res.stdout


def read_marks(f, marks):
    """The records of sb-summary --format plot that say what a point is (issue 23) into marks:
    'peaks' {mode: {tasks, mean, lo, hi, label}}, 'unmet' {(mode, tasks): (reached, target)},
    'origin' {(mode, tasks): (origin, reason)}. Other records are not marks: False."""
    if f[0] == "peak" and len(f) >= 7:
        marks["peaks"][f[1]] = {"tasks": int(f[2]), "mean": float(f[3]), "lo": int(f[4]),
                                "hi": int(f[5]), "label": f[6]}
    elif f[0] == "unmet":
        marks["unmet"][(f[1], int(f[2]))] = tuple(float(x) if x else None for x in f[3:5])
    elif f[0] == "origin":
        marks["origin"][(f[1], int(f[2]))] = (f[3], f[4] if len(f) > 4 else "")
    else:
        return False
    return True


def read_run(path):
    """(meta, rows, empty, marks) of a run directory from sb-summary --format plot, which reads
    and checks meta, summary.csv and samples.csv. rows: {'tasks', 'linear', mode: None or
    {mean, idle, sd, ci, n}}; empty: why there is nothing to draw, or None; marks: read_marks."""
    def num(text, integer=False):
        return None if text == "" else int(text) if integer else float(text)

    meta, rows, empty = {}, [], None
    marks = {"peaks": {}, "unmet": {}, "origin": {}}
    for line in run_tool("summary", ["--format", "plot", path]).splitlines():
        f = line.split("\t")
        if f[0] == "meta":
            meta[f[1].strip()] = "\t".join(f[2:])
        elif f[0] == "empty":
            empty = f[1]
        elif f[0] == "row":
            row = {"tasks": int(f[1]), "linear": num(f[2])}
            for i, mode in enumerate(MODES):
                mean, idle, sd, ci, n = f[3 + 5 * i: 8 + 5 * i]
                row[mode] = None if mean == "" else {
                    "mean": num(mean), "idle": num(idle), "sd": num(sd), "ci": num(ci),
                    "n": num(n, integer=True)}
            rows.append(row)
        else:
            read_marks(f, marks)
    return meta, rows, empty, marks


class Run:
    """One results/<test>/<run-id> directory."""

    def __init__(self, path):
        self.path = path
        self.run_id = os.path.basename(os.path.abspath(path))
        self.test = os.path.basename(os.path.dirname(os.path.abspath(path)))
        self.meta = {}
        self.rows = []
        self.error = None       # why it cannot be drawn (an input error)
        self.empty = None       # why there is nothing to draw (not an error)
        self.marks = {"peaks": {}, "unmet": {}, "origin": {}}
        try:
            self.meta, self.rows, self.empty, self.marks = read_run(path)
        except InputError as e:
            self.error = str(e)

    status = property(lambda self: self.meta.get("status", "") or "unknown")
    label = property(lambda self: self.meta.get("label", "") or self.run_id)
    date = property(lambda self: self.meta.get("date", "") or self.run_id)
    description = property(lambda self: self.meta.get("description", "") or self.test)

    def modes(self):
        return [m for m in MODES if any(r[m] for r in self.rows)]

    def series(self, mode):
        return [(r["tasks"], r[mode]) for r in self.rows if r[mode]]

    def points(self):
        return [r["tasks"] for r in self.rows if any(r[m] for m in MODES)]

    def failure(self):
        """'(failed at 8 tasks)' and the like, or '' for a complete run."""
        if self.status == "failed":
            tasks = self.meta.get("failed_tasks", "")
            return "(failed at %s)" % n_tasks(tasks) if tasks else "(failed)"
        if self.status in ("interrupted", "abandoned"):
            return "(%s)" % self.status
        return ""

    def sources_mtime(self):
        return max(os.stat(os.path.join(self.path, f)).st_mtime_ns
                   for f in ("summary.csv", "meta", "points.csv") if os.path.exists(os.path.join(self.path, f)))


def resolve_run(arg, results):
    """A run directory from a path, a test directory (its latest run) or test[/run] under results."""
    for base in (arg, os.path.join(results, arg)):
        if os.path.isdir(base) and not os.path.isfile(os.path.join(base, "meta")):
            latest = os.path.join(base, "latest")
            if os.path.isdir(latest):
                base = latest
        if os.path.isfile(os.path.join(base, "meta")):
            return rel(os.path.realpath(base))
    raise InputError("%s: not a run directory (no meta file), nor a test directory with a latest run" % arg)


def scan(results, foreign_dirs=None):
    """[(test, test_dir, [Run], latest_run_id)], sorted; anything that is not a run is skipped, and
    so is a test or run directory of another user (named in foreign_dirs): plots are drawn into them."""
    tests = []
    if not os.path.isdir(results):
        return tests
    for name in sorted(os.listdir(results)):
        tdir = os.path.join(results, name)
        if name.startswith(".") or os.path.islink(tdir) or not os.path.isdir(tdir):
            continue
        if foreign(tdir):
            if foreign_dirs is not None:
                foreign_dirs.append(tdir)
            continue
        runs = []
        for rid in sorted(os.listdir(tdir)):
            rdir = os.path.join(tdir, rid)
            if (rid.startswith(".") or os.path.islink(rdir) or not os.path.isdir(rdir)
                    or not os.path.isfile(os.path.join(rdir, "meta"))):
                continue
            if foreign(rdir):
                if foreign_dirs is not None:
                    foreign_dirs.append(rdir)
                continue
            runs.append(Run(rdir))
        if runs:
            latest = os.path.join(tdir, "latest")
            latest_id = os.path.basename(os.readlink(latest).rstrip("/")) if os.path.islink(latest) else ""
            tests.append((name, tdir, runs, latest_id))
    return tests


# ---------------------------------------------------------------- numbers

def scale_of(value):
    """(divisor, suffix) that brings value into 1..999: K, M, G."""
    for div, suffix in ((1e9, "G"), (1e6, "M"), (1e3, "K")):
        if value >= div * 0.9995:
            return div, suffix
    return 1.0, ""


def fmt_rate(value):
    """4800000 -> '4.8M', three significant digits."""
    div, suffix = scale_of(abs(value))
    return "%s%s" % ("%.3g" % (value / div), suffix)


def n_tasks(n):
    return "%s task%s" % (n, "" if str(n) == "1" else "s")


def want_logx(points, override):
    if override is not None:
        return override
    if len(points) < 2:
        return False
    powers_of_two = all(p & (p - 1) == 0 for p in points)
    return powers_of_two or max(points) / min(points) > 32


def x_axis(points, logx):
    """(xmin, xmax, explicit tics) with a little room around the outer points."""
    lo, hi = min(points), max(points)
    if logx:
        xmin, xmax = lo / 1.25, hi * 1.25
    else:
        pad = max(0.5, 0.04 * (hi - lo))
        xmin, xmax = max(0.0, lo - pad), hi + pad
    tics = ",".join(str(p) for p in points) if len(points) <= 16 else ""
    return xmin, xmax, tics


def x_fraction(x, xmin, xmax, logx):
    if logx:
        return math.log(x / xmin) / math.log(xmax / xmin)
    return (x - xmin) / (xmax - xmin)


def compare_changes(base, run):
    """{(mode, tasks): (change %, half-width %, across runs)} of run against base:
    sb-compare's own figures (--format csv, never gating), so the plot shows what
    compare prints; across runs is False where it compared one run's samples."""
    lines = run_tool("compare", ["--format", "csv", "--force", "--fail-on", "never",
                                 base.path, run.path]).splitlines()
    if not lines:
        return {}
    col = {name: i for i, name in enumerate(lines[0].split(","))}
    changes = {}
    for line in lines[1:]:
        f = line.split(",")
        if f[col["change_pct"]] == "" or f[col["change_pm_pct"]] == "":
            continue
        changes[(f[col["mode"]], int(f[col["tasks"]]))] = (
            float(f[col["change_pct"]]), float(f[col["change_pm_pct"]]), f[col["values"]] == "runs")
    return changes


# ---------------------------------------------------------------- gnuplot

def gp_str(text):
    """A gnuplot double-quoted string; control characters become spaces."""
    text = re.sub(r"[\x00-\x09\x0b-\x1f\x7f]", " ", text)
    return '"%s"' % text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def gp_num(value):
    return repr(float(value))


def shorten(text, width):
    return text if len(text) <= width else text[:width - 1] + "…"


def find_gnuplot():
    exe = os.environ.get("GNUPLOT") or shutil.which("gnuplot")
    if not exe or not shutil.which(exe):
        raise EnvError("gnuplot not found in PATH: " + INSTALL_HINT)
    return exe


def check_gnuplot(exe, terminals):
    """gnuplot 5 or newer with the terminals we draw on."""
    cmds = "".join("set terminal %s;" % t for t in terminals) + "set print '-'; print GPVAL_VERSION"
    try:
        res = subprocess.run([exe, "-e", cmds], capture_output=True, text=True, timeout=60)
    except OSError as e:
        raise EnvError("cannot run %s: %s: %s" % (exe, e.strerror, INSTALL_HINT))
    except subprocess.TimeoutExpired:
        raise EnvError("%s did not answer within 60 s" % exe)
    if res.returncode != 0:
        raise EnvError("%s lacks the %s terminal: %s"
                       % (exe, " or ".join(terminals), INSTALL_HINT))
    version = res.stdout.strip()
    if re.fullmatch(r"\d+\.\d+", version) and float(version) < 5.0:
        raise EnvError("gnuplot %s is too old, 5.0 or newer is needed: %s" % (version, INSTALL_HINT))


def run_gnuplot(exe, prelude, script, what):
    """Runs prelude + common.gp + script; raises InputError with gnuplot's message on failure."""
    with tempfile.TemporaryDirectory(prefix="sb-plot.") as tmp:
        pre = os.path.join(tmp, "prelude.gp")
        with open(pre, "w", encoding="utf-8") as f:
            f.write("plot_dir = %s\n" % gp_str(PLOT_DIR))
            f.write(prelude)
        res = subprocess.run([exe, pre, os.path.join(PLOT_DIR, "common.gp"),
                              os.path.join(PLOT_DIR, script)],
                             capture_output=True, text=True)
    if res.returncode != 0:
        msg = " ".join(res.stderr.split())[-400:]
        raise InputError("%s: gnuplot failed: %s" % (what, msg or "exit %d" % res.returncode))
    for line in res.stderr.splitlines():
        if line.strip():
            note("%s: gnuplot: %s" % (what, line.strip()))
    return res.stdout


def datablock(name, rows):
    return "$%s << EOD\n%sEOD\n" % (name, "".join(" ".join(gp_num(v) for v in r) + "\n" for r in rows))


def tmp_name(final):
    """A new file beside final for gnuplot or write_if_changed to fill, then commit's rename: made
    O_EXCL under a random name, so that nothing planted at a predictable name (a link) is written
    through; the final file's mode is the umask's, as a plain create's."""
    try:
        fd, path = tempfile.mkstemp(prefix=".%s." % os.path.basename(final), suffix=".tmp",
                                    dir=os.path.dirname(final) or ".")
    except OSError as e:
        raise InputError("%s: cannot write: %s" % (rel(final), e.strerror))
    _pending.add(path)
    try:
        os.fchmod(fd, 0o666 & ~_UMASK)
    finally:
        os.close(fd)
    return path


def foreign(path):
    """True when path (not followed) belongs to another user than this one or root: in a shared
    results directory its owner could plant links in it (or swap a file) that a write would follow."""
    return os.lstat(path).st_uid not in (os.geteuid(), 0)


def commit(pairs):
    """Renames each finished temp file onto its final name, or removes them all."""
    for tmp, final in pairs:
        if not os.path.isfile(tmp) or os.path.getsize(tmp) == 0:
            raise InputError("%s: gnuplot wrote nothing" % final)
    for tmp, final in pairs:
        os.replace(tmp, final)
        _pending.discard(tmp)


def discard(pairs):
    for tmp, _ in pairs:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        _pending.discard(tmp)


def write_if_changed(path, text):
    """Atomic write, skipped when the file already holds exactly this text. True if written."""
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return False
    except (OSError, UnicodeDecodeError):
        pass
    tmp = tmp_name(path)
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)
    _pending.discard(tmp)
    return True


# ---------------------------------------------------------------- one run

def subtitle(run, width=150):
    m = run.meta
    first = " · ".join(x for x in (
        "label " + run.label,
        "host " + m["host"] if m.get("host") else "",
        m.get("date", ""),
        "status " + run.status if run.status != "complete" else "") if x)
    second = " · ".join(x for x in (m.get("kernel", ""), m.get("cpu_model", "")) if x)
    return "\n".join(shorten(s, width) for s in (first, second) if s)


def run_title(run):
    return " ".join(x for x in (run.description, run.failure()) if x)


def peak_of(run, mode):
    """(tasks, mean, label) of a mode's peak as sb-summary found it, with its plateau, in two
    lines: 'peak 6 tasks (5-7 within the 95% interval)\\n4.8M ops/s'."""
    p = run.marks["peaks"].get(mode)
    if p is None:       # sb-summary gives every mode with a point a peak: not reached
        tasks, v = max(run.series(mode), key=lambda q: (q[1]["mean"], -q[0]))
        return tasks, v["mean"], "peak %s ops/s at %s" % (fmt_rate(v["mean"]), n_tasks(tasks))
    return p["tasks"], p["mean"], "%s\n%s ops/s" % (p["label"], fmt_rate(p["mean"]))


def marks_prelude(run, modes):
    """Data blocks of what the points are (issue 23), for scaling.gp: $plateau_<mode>
    (best mean lo hi) when the plateau spans more than the best, $added_<mode> (tasks mean)
    the counts auto points added to the seeds, $unmet_<mode> (tasks mean) the points short
    of the precision target; the strings plateau_modes, added_modes, unmet_modes name the
    modes that have such a block."""
    out, have = [], {"plateau": [], "added": [], "unmet": []}
    for m in modes:
        p = run.marks["peaks"].get(m)
        series = run.series(m)
        blocks = {
            "plateau": [(p["tasks"], p["mean"], p["lo"], p["hi"])] if p and p["lo"] < p["hi"] else [],
            "added": [(t, v["mean"]) for t, v in series
                      if run.marks["origin"].get((m, t), ("",))[0] == "added"],
            "unmet": [(t, v["mean"]) for t, v in series if (m, t) in run.marks["unmet"]],
        }
        for kind, rows in blocks.items():
            if rows:
                out.append(datablock("%s_%s" % (kind, m), rows))
                have[kind].append(m)
    out += ["%s_modes = %s\n" % (kind, gp_str(" ".join(ms))) for kind, ms in have.items()]
    return "".join(out)


def peak_placement(run, modes, ymax, xmin, xmax, logx):
    """Where each mode's peak label goes: above its point, pushed inwards near the edges,
    and below the point for the lower of two peaks that would otherwise collide."""
    peaks = {}
    for m in modes:
        tasks, mean, text = peak_of(run, m)
        # gnuplot centres a label of several lines on its place: the offset grows with them
        peaks[m] = {"x": tasks, "y": mean, "fx": x_fraction(tasks, xmin, xmax, logx),
                    "fy": mean / ymax, "dy": 1.0 + 0.6 * (text.count("\n") + 1), "text": text}
    if len(peaks) == 2:
        a, b = peaks["processes"], peaks["threads"]
        if abs(a["fx"] - b["fx"]) < 0.3 and abs(a["fy"] - b["fy"]) < 0.12:
            low, high = (a, b) if a["fy"] < b["fy"] else (b, a)
            if low["fy"] > 0.15:
                low["dy"] = -low["dy"]
            else:                       # no room below: stack the labels above
                high["dy"] = 2 * high["dy"]
    for p in peaks.values():
        if p["fx"] > 0.78:
            p["align"], p["dx"] = "right", 1.0
        elif p["fx"] < 0.22:
            p["align"], p["dx"] = "left", -1.0
        else:
            p["align"], p["dx"] = "center", 0.0
    return peaks


def oversubscription(run, points):
    """(capacity, unit) when the run has task counts above the places its tasks were
    bound to: the cores of meta's topology, or its PUs with placement pus (--smt) or
    none (what runtest.sh warns about); None otherwise or when meta does not say."""
    topo = dict(kv.split("=", 1) for kv in run.meta.get("topology", "").split() if "=" in kv)
    unit = "PUs" if run.meta.get("placement", "") in ("pus", "none") else "cores"
    cap = topo.get(unit.lower(), "")
    if not cap.isdigit() or int(cap) < 1 or not points or max(points) <= int(cap):
        return None
    return int(cap), unit


def oversub_prelude(runs, points, xmin, xmax, logx):
    """plot/oversub.gp's variables: oversub_x (0: none), its label and where the label goes
    (inside the region when it is wide enough, else against the right edge). Several runs
    (a comparison) get a region only when they agree on it."""
    found = {oversubscription(r, points) for r in runs}
    o = found.pop() if len(found) == 1 else None
    if o is None:
        return "oversub_x = 0\noversub_text = ''\noversub_inside = 1\n"
    cap, unit = o
    inside = 1 - x_fraction(cap, xmin, xmax, logx) >= 0.3
    return "oversub_x = %d\noversub_text = %s\noversub_inside = %d\n" % (
        cap, gp_str("oversubscribed: more tasks than the %d %s" % (cap, unit)), inside)


def run_prelude(run, logx_override, extra=""):
    """Data blocks and variables shared by scaling.gp and terminal.gp."""
    modes = run.modes()
    points = run.points()
    failed_x = 0
    if run.status == "failed" and re.fullmatch(r"[1-9]\d*", run.meta.get("failed_tasks", "")):
        failed_x = int(run.meta["failed_tasks"])
        points = sorted(set(points + [failed_x]))     # the axis reaches the point that failed
    logx = want_logx(points, logx_override)
    xmin, xmax, tics = x_axis(points, logx)
    top = max(v["mean"] + (v["ci"] or 0) for m in modes for _, v in run.series(m))
    ymax = 1.2 * top if top > 0 else 1.0
    unit, suffix = scale_of(top)
    per_task = [(v["mean"] + (v["ci"] or 0)) / t for m in modes for t, v in run.series(m)]
    per_task += [r["linear"] / r["tasks"] for r in run.rows if r["linear"]]
    top_pt = max(per_task)
    unit_pt, suffix_pt = scale_of(top_pt)
    out = [
        "title_text = %s\n" % gp_str(run_title(run)),
        "subtitle_text = %s\n" % gp_str(subtitle(run)),
        "modes = %s\n" % gp_str(" ".join(modes)),
        "idle_modes = %s\n" % gp_str(" ".join(m for m in modes if any(v["idle"] is not None
                                                                   for _, v in run.series(m)))),
        "has_linear = %d\n" % any(r["linear"] is not None for r in run.rows),
        "unit = %s\nunit_suffix = %s\n" % (gp_num(unit), gp_str(suffix)),
        "unit_pt = %s\nunit_suffix_pt = %s\n" % (gp_num(unit_pt), gp_str(suffix_pt)),
        "logx = %d\nxmin = %s\nxmax = %s\nxtics_list = %s\nxmax_point = %d\n"
        % (logx, gp_num(xmin), gp_num(xmax), gp_str(tics), max(points)),
        "ymax = %s\nymax_pt = %s\n" % (gp_num(ymax), gp_num(1.2 * top_pt if top_pt > 0 else 1.0)),
        datablock("linear", [(r["tasks"], r["linear"]) for r in run.rows if r["linear"] is not None]),
    ]
    for m in modes:
        out.append(datablock(m, [(t, v["mean"], v["ci"] or 0, v["idle"] if v["idle"] is not None else "nan")
                                 for t, v in run.series(m)]))
    out.append(oversub_prelude([run], points, xmin, xmax, logx))
    out.append("failed_x = %d\nfailed_text = %s\n" % (failed_x, gp_str(" ".join(
        x for x in (run.meta.get("failed_mode", ""), "failed at " + n_tasks(failed_x)) if x))))
    peaks = peak_placement(run, modes, ymax, xmin, xmax, logx)
    for m, p in peaks.items():
        out.append(datablock("peak_" + m, [(p["x"], p["y"])]))
        out.append("peak_x_%s = %s\npeak_y_%s = %s\npeak_text_%s = %s\npeak_align_%s = %s\n"
                   "peak_dx_%s = %s\npeak_dy_%s = %s\n"
                   % (m, gp_num(p["x"]), m, gp_num(p["y"]), m, gp_str(p["text"]), m, gp_str(p["align"]),
                      m, gp_num(p["dx"]), m, gp_num(p["dy"])))
    out.append(marks_prelude(run, modes))
    return "".join(out) + extra, peaks


def run_is_stale(run):
    try:
        made = min(os.stat(os.path.join(run.path, f)).st_mtime_ns for f in RUN_PLOTS)
    except FileNotFoundError:
        return True
    return made < run.sources_mtime()


def draw_run(exe, run, logx_override):
    finals = [os.path.join(run.path, f) for f in RUN_PLOTS]
    pairs = [(tmp_name(f), f) for f in finals]
    names = ("out_scaling_png", "out_scaling_svg", "out_pertask_png", "out_pertask_svg")
    outputs = "".join("%s = %s\n" % (n, gp_str(t)) for n, (t, _) in zip(names, pairs))
    try:
        prelude, _ = run_prelude(run, logx_override, outputs)
        run_gnuplot(exe, prelude, "scaling.gp", run.path)
        commit(pairs)
    finally:
        discard(pairs)
    return finals


def draw_terminal(exe, run, logx_override):
    size = shutil.get_terminal_size((100, 30))
    cols = max(60, min(size.columns - 1, 200))
    rows = max(20, min(size.lines - 6, 45))
    prelude, peaks = run_prelude(run, logx_override, "cols = %d\nrows = %d\n" % (cols, rows))
    prelude = prelude.replace("…", "...")
    sys.stdout.write(run_gnuplot(exe, prelude, "terminal.gp", run.path))
    for m, p in peaks.items():
        print("%s: %s" % (m, p["text"].replace("\n", ", ")))
    if run.failure():
        print("%s %s" % (run.failure(), run.meta.get("error", "")))
    sys.stdout.flush()


# ---------------------------------------------------------------- comparisons

def compare_prelude(runs, logx_override, total=None):
    """total: how many runs there were when runs is capped (cap_runs), else None."""
    several_tests = len({r.test for r in runs}) > 1
    names = [(r.test + " " if several_tests else "") + r.label for r in runs]
    if len(set(names)) < len(names):
        names = [(r.test + " " if several_tests else "") + r.run_id for r in runs]
    names = [shorten(n, 40) for n in names]
    base = runs[0]
    points = sorted({p for r in runs for p in r.points()})
    logx = want_logx(points, logx_override)
    xmin, xmax, tics = x_axis(points, logx)
    out = []
    n_series = 0
    top = 0.0
    titles = []
    modes = []
    for i, run in enumerate(runs, 1):
        # the legend: one entry a run (its dashes and points), one a mode (its colour)
        title = " ".join(x for x in (names[i - 1], "(baseline)" if i == 1 else "", run.failure()) if x)
        titles.append(title)
        out.append("r_title_%d = %s\n" % (i, gp_str(title)))
        for m in run.modes():
            n_series += 1
            if m not in modes:
                modes.append(m)
            series = run.series(m)
            top = max([top] + [v["mean"] + (v["ci"] or 0) for _, v in series])
            out.append(datablock("s%d" % n_series, [(t, v["mean"], v["ci"] or 0) for t, v in series]))
            out.append("s_mode_%d = %s\ns_run_%d = %d\n" % (n_series, gp_str(m), n_series, i))
    n_rel = 0
    single = False  # some band comes from one run's samples: not a 95% interval
    lows, highs = [0.0], [0.0]
    for i, run in enumerate(runs[1:], 2):
        changes = compare_changes(base, run)
        for m in run.modes():
            rel = []
            for t, _ in run.series(m):
                change = changes.get((m, t))
                if change:
                    rel.append((t, change[0], change[0] - change[1], change[0] + change[1]))
                    single = single or not change[2]
            if rel:
                n_rel += 1
                lows += [r[2] for r in rel]
                highs += [r[3] for r in rel]
                out.append(datablock("rel%d" % n_rel, rel))
                out.append("rel_mode_%d = %s\nrel_run_%d = %d\n" % (n_rel, gp_str(m), n_rel, i))
    span = max(highs) - min(lows) or 2.0
    unit, suffix = scale_of(top)
    # The legend sits right of the panels, its right edge 1.5% from the canvas's (compare.gp):
    # room for what gnuplot reserves, about 10 px a character of the longest title at 11 pt
    # and the line sample (samplen 4) with its gaps, within 1200 px.
    key_w = min(0.45, max(0.16, (max(len(t) for t in titles) + 8) * 10.0 / 1200 + 0.015))
    lines = []
    for i, run in enumerate(runs):
        m = run.meta
        lines.append(shorten("%s%s: %s" % (names[i], " (baseline)" if i == 0 else "", " · ".join(
            m[k] for k in ("kernel", "host", "date") if m.get(k)) or run.run_id), 170))
    if len(lines) > 4:
        lines = lines[:3] + ["and %d more runs" % (len(lines) - 3)]
    if total is not None and total > len(runs):
        lines[-1] = ("%d runs: the first and the %d newest drawn; every run: history/%s.png (make plot), "
                     "sb-history show %s" % (total, len(runs) - 1, base.test, base.test))
    top_frac = 0.90 - 0.025 * len(lines)
    tests = []
    for r in runs:
        if r.test not in tests:
            tests.append(r.test)
    if len(tests) == 1:
        title = base.description + (" (%s)" % base.test if base.description != base.test else "")
    else:
        title = shorten(" vs ".join(tests), 90)
    out += [
        "n_series = %d\nn_rel = %d\nn_runs = %d\nmodes_list = %s\n" % (n_series, n_rel, len(runs),
                                                                     gp_str(" ".join(modes))),
        "title_text = %s\n" % gp_str(title),
        "subtitle_text = %s\n" % gp_str("\n".join(lines)),
        "rel_text = %s\n" % gp_str(
            "change of each run against %s, shaded: 95%% CI across runs" % names[0] if not single else
            "change of each run against %s, shaded: spread of single-run samples (not a 95%% CI)"
            % names[0]),
        "unit = %s\nunit_suffix = %s\n" % (gp_num(unit), gp_str(suffix)),
        "logx = %d\nxmin = %s\nxmax = %s\nxtics_list = %s\nxmax_point = %d\n"
        % (logx, gp_num(xmin), gp_num(xmax), gp_str(tics), max(points)),
        "ymax = %s\n" % gp_num(1.15 * top if top > 0 else 1.0),
        "rel_ymin = %s\nrel_ymax = %s\n" % (gp_num(min(lows) - 0.1 * span), gp_num(max(highs) + 0.25 * span)),
        "key_x = %s\ntop = %s\n" % (gp_num(1.0 - key_w), gp_num(top_frac)),
        oversub_prelude(runs, points, xmin, xmax, logx),
    ]
    return "".join(out)


def draw_compare(exe, runs, base_path, logx_override, total=None):
    """Writes base_path.png and base_path.svg."""
    finals = [base_path + ".png", base_path + ".svg"]
    pairs = [(tmp_name(f), f) for f in finals]
    try:
        prelude = compare_prelude(runs, logx_override, total)
        if os.environ.get("SB_PLOT_KEY_PROBE"):    # testing: the legend boxed in magenta (selftest/plot_legend.t)
            prelude += "key_probe = 1\n"
        prelude += "out_png = %s\nout_svg = %s\n" % (gp_str(pairs[0][0]), gp_str(pairs[1][0]))
        run_gnuplot(exe, prelude, "compare.gp", base_path)
        commit(pairs)
    finally:
        discard(pairs)
    return finals


# compare-latest draws at most this many runs: a CI matrix gives tens, and past eight dash
# patterns repeat and the lines cannot be told apart (the history chart has every run)
LATEST_CAP = 8


def cap_runs(chosen):
    """The first run (the baseline) and the newest LATEST_CAP - 1, when there are more."""
    return chosen if len(chosen) <= LATEST_CAP else chosen[:1] + chosen[-(LATEST_CAP - 1):]


def latest_per_label(runs):
    """The newest drawable run of each label (a complete one when there is one), oldest first."""
    best = {}
    for r in runs:
        if r.error or r.empty:
            continue
        key = (r.status == "complete", r.date, r.run_id)
        if r.label not in best or key > best[r.label][0]:
            best[r.label] = (key, r)
    chosen = [v[1] for v in best.values()]
    return sorted(chosen, key=lambda r: (r.date, r.run_id))


def compare_is_stale(tdir, chosen):
    listing = os.path.join(tdir, LATEST_COMPARE + ".runs")
    try:
        with open(listing, encoding="utf-8") as f:
            if f.read().split() != [r.run_id for r in chosen]:
                return True
        made = min(os.stat(os.path.join(tdir, LATEST_COMPARE + ext)).st_mtime_ns for ext in (".png", ".svg"))
    except (OSError, UnicodeDecodeError):
        return True
    return made < max(r.sources_mtime() for r in chosen)


# ---------------------------------------------------------------- index.html

def url(*parts):
    return "/".join(urllib.parse.quote(p) for p in parts)


def esc(text):
    return html.escape(str(text), quote=True)


INDEX_STYLE = """
body { font-family: sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; margin: 0.5em 0 1em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
td.n { text-align: right; font-variant-numeric: tabular-nums; }
th { background: #f0f0f0; }
.failed, .unreadable, .interrupted { color: #b00020; font-weight: bold; }
img { max-width: 100%; border: 1px solid #ddd; margin: 0.3em 0.3em 0 0; }
img.half { width: 48%; }
details { margin: 0.4em 0; }
summary { cursor: pointer; }
code { font-size: 0.95em; }
"""


def summary_table(run):
    modes = run.modes()
    head = ["tasks"]
    for m in modes:
        head += ["%s ops/s" % m, "± 95% CI", "%s idle %%" % m]
    head += ["linear ops/s", "best / linear"]
    out = ["<table>\n<tr>%s</tr>\n" % "".join("<th>%s</th>" % esc(h) for h in head)]
    for r in run.rows:
        cells = [str(r["tasks"])]
        best = 0.0
        for m in modes:
            v = r[m]
            if v:
                best = max(best, v["mean"])
                cells += [fmt_rate(v["mean"]), fmt_rate(v["ci"]) if v["ci"] is not None else "",
                          "%.1f" % v["idle"] if v["idle"] is not None else ""]
            else:
                cells += ["", "", ""]
        lin = r["linear"]
        cells += [fmt_rate(lin) if lin is not None else "",
                  "%.0f%%" % (100.0 * best / lin) if lin else ""]
        out.append("<tr>%s</tr>\n" % "".join('<td class="n">%s</td>' % esc(c) for c in cells))
    out.append("</table>\n")
    return "".join(out)


def history_html(charts):
    """The history section of index.html: a chart per testcase with two or more kernels."""
    if not charts:
        return ""
    out = ["<h2 id=\"history\">History: ops/s against kernel</h2>\n<p>From <code>results/history.db</code> "
           "(<code>sb-history show</code>, <code>sb-history changes</code>: docs/COMPARE.md).</p>\n"]
    for test, testbed, base in charts:
        name = os.path.basename(base)
        out.append('<p>%s on %s: <a href="%s">SVG</a><br><a href="%s"><img src="%s" alt="%s"></a></p>\n'
                   % (esc(test), esc(testbed), esc(url("history", name + ".svg")), esc(url("history", name + ".png")),
                      esc(url("history", name + ".png")), esc("history of " + test)))
    return "".join(out)


def index_html(tests, charts=()):
    out = ["<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n",
           "<title>scalebench results</title>\n<style>%s</style>\n</head>\n<body>\n" % INDEX_STYLE,
           "<h1>scalebench results</h1>\n",
           "<p>%d tests, %d runs. Drawn by <code>make plot</code>; see docs/PLOT.md for how to read the charts.</p>\n"
           % (len(tests), sum(len(t[2]) for t in tests)),
           "<ul>\n"]
    for test, _, runs, _ in tests:
        out.append('<li><a href="#%s">%s</a> (%d run%s)</li>\n'
                   % (esc(url("t-" + test)), esc(test), len(runs), "" if len(runs) == 1 else "s"))
    out.append("</ul>\n")
    out.append(history_html(charts))
    for test, tdir, runs, latest_id in tests:
        desc = next((r.description for r in runs if r.meta.get("description")), "")
        out.append('<h2 id="%s">%s</h2>\n' % (esc(url("t-" + test)), esc(test)))
        if desc:
            out.append("<p>%s</p>\n" % esc(desc))
        for base, what in ((LATEST_COMPARE, "latest run of each label"), ("compare", "make plot COMPARE=...")):
            if os.path.exists(os.path.join(tdir, base + ".png")):
                out.append('<p>Comparison (%s): <a href="%s">SVG</a><br><a href="%s"><img src="%s" alt="%s"></a></p>\n'
                           % (esc(what), esc(url(test, base + ".svg")), esc(url(test, base + ".png")),
                              esc(url(test, base + ".png")), esc("comparison of " + test)))
        out.append("<table>\n<tr><th>run</th><th>label</th><th>kernel</th><th>host</th>"
                   "<th>date</th><th>status</th><th>peak</th><th>plots</th></tr>\n")
        ordered = sorted(runs, key=lambda r: (r.date, r.run_id), reverse=True)
        for r in ordered:
            status = "unreadable" if r.error else r.status
            detail = r.error or r.meta.get("error", "") or r.empty or ""
            if r.status == "failed" and not r.error:
                detail = " ".join(x for x in (r.failure(), detail) if x)
            links = " ".join('<a href="%s">%s</a>' % (esc(url(test, r.run_id, f)), esc(f))
                             for f in RUN_PLOTS if os.path.exists(os.path.join(r.path, f)))
            peaks = []
            if not r.error:
                for m in r.modes():
                    peaks.append("%s: %s" % (m, peak_of(r, m)[2].replace("\n", ", ")))
            out.append("<tr><td><a href=\"#%s\">%s</a>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td>"
                       "<td class=\"%s\">%s%s</td><td>%s</td><td>%s</td></tr>\n" % (
                           esc(url("r-" + test + "-" + r.run_id)), esc(r.run_id),
                           " (latest)" if r.run_id == latest_id else "",
                           esc(r.label), esc(r.meta.get("kernel", "")), esc(r.meta.get("host", "")),
                           esc(r.meta.get("date", "")), esc(status), esc(status),
                           "<br>" + esc(detail) if detail else "", "<br>".join(esc(p) for p in peaks), links))
        out.append("</table>\n")
        for r in ordered:
            opened = " open" if r is ordered[0] else ""
            out.append('<details id="%s"%s><summary>%s · %s · %s</summary>\n'
                       % (esc(url("r-" + test + "-" + r.run_id)), opened, esc(r.run_id),
                          esc(r.meta.get("cpu_model", "")), esc(r.meta.get("topology", ""))))
            for f in ("scaling.png", "per_task.png"):
                if os.path.exists(os.path.join(r.path, f)):
                    out.append('<a href="%s"><img class="half" src="%s" alt="%s"></a>'
                               % (esc(url(test, r.run_id, f.replace(".png", ".svg"))),
                                  esc(url(test, r.run_id, f)), esc(f + " of " + r.run_id)))
            if r.rows and not r.error:
                out.append(summary_table(r))
            out.append(flame.index_links(r.path, lambda f, r=r: url(test, r.run_id, *f.split("/"))))
            cmd = r.meta.get("command", "")
            if cmd:
                out.append("<p>Command: <code>%s</code></p>\n" % esc(cmd))
            out.append("</details>\n")
    out.append("</body>\n</html>\n")
    return "".join(out)


# ---------------------------------------------------------------- commands

def rel(path):
    """path relative to the current directory when it is below it, else absolute."""
    try:
        r = os.path.relpath(path)
    except ValueError:
        return path
    return os.path.abspath(path) if r == ".." or r.startswith("../") else r


def cmd_all(args, results):
    foreign_dirs = []
    tests = scan(results, foreign_dirs)
    for d in foreign_dirs:
        note("%s: owned by another user (not this user or root): not drawn (skipped)" % rel(d))
    if not tests:
        print("%s: no results in %s/: run ./runtest.sh first" % (PROG, rel(results).rstrip("/")))
        return EXIT_INPUT if foreign_dirs else EXIT_OK
    status = EXIT_INPUT if foreign_dirs else EXIT_OK
    todo_runs, todo_cmp = [], []
    for test, tdir, runs, _ in tests:
        for r in runs:
            if r.error:
                note("%s (skipped)" % r.error)
                status = EXIT_INPUT
            elif r.empty:
                note("%s: %s, nothing to draw (status %s)" % (rel(r.path), r.empty, r.status))
            elif args.force or args.logx is not None or run_is_stale(r):
                todo_runs.append(r)
        every = latest_per_label(runs)
        chosen = cap_runs(every)
        if len(chosen) >= 2 and (args.force or args.logx is not None or compare_is_stale(tdir, chosen)):
            todo_cmp.append((tdir, chosen, len(every)))
    if todo_runs or todo_cmp:
        exe = find_gnuplot()
        check_gnuplot(exe, ("pngcairo", "svg"))
    drawn = 0
    for r in todo_runs:
        try:
            for f in draw_run(exe, r, args.logx):
                drawn += 1
                if not args.quiet:
                    print("drew %s" % rel(f))
        except InputError as e:
            note("%s (skipped)" % e)
            status = EXIT_INPUT
    for tdir, chosen, total in todo_cmp:
        try:
            for f in draw_compare(exe, chosen, os.path.join(tdir, LATEST_COMPARE), args.logx, total):
                drawn += 1
                if not args.quiet:
                    print("drew %s" % rel(f))
            write_if_changed(os.path.join(tdir, LATEST_COMPARE + ".runs"),
                             "".join(r.run_id + "\n" for r in chosen))
        except InputError as e:
            note("%s (skipped)" % e)
            status = EXIT_INPUT
    for test, _, runs, _ in tests:     # flame graphs: profile/*/folded.txt -> flame.svg
        for r in runs:
            try:
                for f in flame.draw_run(r.path, test, args.force):
                    drawn += 1
                    if not args.quiet:
                        print("drew %s" % rel(f))
            except flame.InputError as e:
                note("%s (skipped)" % e)
                status = EXIT_INPUT
    charts, drew, hstatus = draw_history(args, results)
    drawn += drew
    status = status if hstatus == EXIT_OK else hstatus
    if write_if_changed(os.path.join(results, "index.html"), index_html(tests, charts)) and not args.quiet:
        print("wrote %s" % rel(os.path.join(results, "index.html")))
    if not args.quiet and drawn == 0:
        print("%s: all plots up to date" % PROG)
    return status


def draw_history(args, results):
    """results/history/<test>.png and .svg for each testcase with 2 or more kernels in results/history.db,
    redrawn when the database is newer. -> ([(test, testbed, base)], files drawn, status)."""
    db = os.path.join(results, "history.db")
    done, drawn = [], 0
    try:
        charts = history.charts(results, run_tool)
    except InputError as e:
        note("%s: %s (no history charts)" % (rel(db), e))
        return [], 0, EXIT_INPUT
    exe = None
    hdir = os.path.join(results, "history")
    if charts and os.path.lexists(hdir) and foreign(hdir):
        note("%s: owned by another user (not this user or root): no history charts (skipped)" % rel(hdir))
        return [], 0, EXIT_INPUT
    for test, testbed, cols, rows, changes, base in charts:
        finals = [base + ".png", base + ".svg"]
        done.append((test, testbed, base))
        if not (args.force or history.stale(finals, db)):
            continue
        if exe is None:
            exe = find_gnuplot()
            check_gnuplot(exe, ("pngcairo", "svg"))
        os.makedirs(os.path.dirname(base), exist_ok=True)
        pairs = [(tmp_name(f), f) for f in finals]
        try:
            prelude = history.prelude(test, testbed, cols, rows, changes, (gp_str, gp_num, datablock, scale_of))
            prelude += "out_png = %s\nout_svg = %s\n" % (gp_str(pairs[0][0]), gp_str(pairs[1][0]))
            run_gnuplot(exe, prelude, "history.gp", base)
            commit(pairs)
        except InputError as e:
            note("%s (skipped)" % e)
            return done, drawn, EXIT_INPUT
        finally:
            discard(pairs)
        for f in finals:
            drawn += 1
            if not args.quiet:
                print("drew %s" % rel(f))
    return done, drawn, EXIT_OK


def load_runs(names, results):
    runs = []
    for name in names:
        run = Run(resolve_run(name, results))
        if run.error:
            raise InputError(run.error)
        if run.empty:
            raise InputError("%s: %s, nothing to draw" % (rel(run.path), run.empty))
        runs.append(run)
    return runs


def cmd_compare(args, results):
    if len(args.compare) < 2:
        raise InputError("--compare needs two runs or more")
    runs = load_runs(args.compare, results)
    if len({r.path for r in runs}) < len(runs):
        raise InputError("--compare: the same run is named twice")
    tests = sorted({r.test for r in runs})
    if len(tests) > 1 and not args.out:
        raise InputError("--compare: the runs are of different tests (%s); give --out FILE to draw them together"
                         % ", ".join(tests))
    if args.out:
        base = re.sub(r"\.(png|svg)$", "", args.out)
        if not os.path.isdir(os.path.dirname(os.path.abspath(base))):
            raise InputError("--out %s: no such directory" % args.out)
    else:
        base = os.path.join(os.path.dirname(runs[0].path), "compare")
    exe = find_gnuplot()
    check_gnuplot(exe, ("pngcairo", "svg"))
    for f in draw_compare(exe, runs, base, args.logx):
        print("drew %s" % rel(f))
    return EXIT_OK


def cmd_terminal(args, results):
    run = Run(resolve_run(args.terminal, results))
    if run.error:
        raise InputError(run.error)
    if run.empty:
        print("%s: %s %s: %s, nothing to draw" % (PROG, rel(run.path), run.failure(), run.empty))
        return EXIT_OK
    exe = find_gnuplot()
    check_gnuplot(exe, ("dumb",))
    draw_terminal(exe, run, args.logx)
    return EXIT_OK


def parse_args(argv):
    p = argparse.ArgumentParser(
        prog=PROG,
        description="Draw scalebench results with gnuplot: each run's scaling.png/svg and "
                    "per_task.png/svg, comparisons, and results/index.html.")
    p.add_argument("--results", metavar="DIR",
                   help="the results directory (default: results/ in the scalebench tree)")
    p.add_argument("--compare", nargs="+", metavar="RUN",
                   help="draw these runs together into compare.png/.svg in the test's directory")
    p.add_argument("--out", metavar="FILE",
                   help="with --compare: write FILE.png and FILE.svg instead")
    p.add_argument("--terminal", metavar="RUN", help="draw one run's curve as text on stdout")
    x = p.add_mutually_exclusive_group()
    x.add_argument("--logx", dest="logx", action="store_const", const=True,
                   help="logarithmic task axis (default: when the points are powers of two or span more than 32x)")
    x.add_argument("--linx", dest="logx", action="store_const", const=False, help="linear task axis")
    p.add_argument("--force", action="store_true", help="redraw every plot, even those up to date")
    p.add_argument("-q", "--quiet", action="store_true", help="do not list what was drawn")
    args = p.parse_args(argv)
    if args.compare and args.terminal:
        p.error("--compare and --terminal do not go together")
    if args.out and not args.compare:
        p.error("--out goes with --compare")
    # A results directory that was named must exist: a typo is not "no results".
    if args.results is not None and not os.path.isdir(args.results):
        why = "not a directory" if os.path.exists(args.results) else "no such directory"
        sys.stderr.write("%s: --results %s: %s\n" % (PROG, args.results, why))
        sys.exit(EXIT_INPUT)
    return args


def _terminate(signum, frame):
    raise KeyboardInterrupt


def main(argv):
    args = parse_args(argv)
    # Relative to the current directory when that is shorter, so messages name files as typed.
    results = rel(os.path.abspath(args.results or os.path.join(REPO_DIR, "results")))
    signal.signal(signal.SIGTERM, _terminate)
    try:
        if args.terminal:
            return cmd_terminal(args, results)
        if args.compare:
            return cmd_compare(args, results)
        return cmd_all(args, results)
    except InputError as e:
        note(str(e))
        return EXIT_INPUT
    except EnvError as e:
        note(str(e))
        return EXIT_ENV
    except KeyboardInterrupt:
        note("interrupted")
        return EXIT_INTR
    except OSError as e:
        note("%s: %s" % (e.filename or "", e.strerror))
        return EXIT_ENV
    finally:
        for tmp in list(_pending):
            try:
                os.unlink(tmp)
            except OSError:
                pass


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
