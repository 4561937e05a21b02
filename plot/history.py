"""make plot's history charts: per testcase, ops/s against kernel (numbers from sb-history; this draws)."""
import csv
import io
import json
import os

DASHES = {"peak": 1, "1": 2, "middle": 4, "largest": 5}
POINTS = {"peak": 7, "1": 4, "middle": 9, "largest": 12}


def chosen_counts(rows, mode, last):
    """{tasks: role} of mode: 1, a middle one, the largest, and the peak (best mean at the last column)."""
    counts = sorted(t for (m, t) in rows if m == mode and t != "curve")
    if not counts:
        return {}
    roles = {}
    best = max(counts, key=lambda t: dict((c, v) for c, v, _ in rows[(mode, t)]).get(last, -1))
    for t, role in ((counts[-1], "largest"), (counts[len(counts) // 2], "middle"), (counts[0], "1"), (best, "peak")):
        roles[t] = role
    return roles


def tables(text):
    """sb-history show --format csv -> {testbed: (columns, rows {(mode, tasks): [(index, mean, ci)]})}."""
    out = {}
    for r in csv.DictReader(io.StringIO(text)):
        cols, rows = out.setdefault(r["testbed"], ([], {}))
        i = int(r["index"])
        while len(cols) <= i:
            cols.append("")
        cols[i] = r["column"]
        if r["mean"]:
            tasks = r["tasks"] if r["tasks"] == "curve" else int(r["tasks"])
            rows.setdefault((r["mode"], tasks), []).append((i, float(r["mean"]), float(r["ci95"] or 0)))
    return out


def prelude(test, testbed, cols, rows, changes, gp):
    """gnuplot's prelude for one chart; gp: (gp_str, gp_num, datablock, scale_of) of plot.py."""
    gp_str, gp_num, datablock, scale_of = gp
    out, n, top, drawn = [], 0, 0.0, set()
    for mode in sorted({m for m, _ in rows}):
        roles = chosen_counts(rows, mode, len(cols) - 1)
        for t in sorted(roles):
            n += 1
            pts = rows[(mode, t)]
            top = max([top] + [m + c for _, m, c in pts])
            drawn.add((mode, t))
            out.append(datablock("s%d" % n, pts))
            out.append("s_mode_%d = %s\ns_dt_%d = %d\ns_pt_%d = %d\ns_title_%d = %s\n" % (
                n, gp_str(mode), n, DASHES[roles[t]], n, POINTS[roles[t]], n,
                gp_str("%s %d task%s%s" % (mode, t, "" if t == 1 else "s",
                                            " (peak)" if roles[t] == "peak" else ""))))
    marks = {}
    for c in changes:
        if c["testbed"] == testbed and (c["mode"], c["tasks"]) in drawn and c["at"] in cols:
            marks.setdefault(cols.index(c["at"]), []).append("%s:%s %+.1f%%" % (c["mode"], c["tasks"], c["pct"]))
    for i, at in enumerate(sorted(marks), 1):
        text = ", ".join(marks[at][:2]) + (" +%d" % (len(marks[at]) - 2) if len(marks[at]) > 2 else "")
        out.append("ch_x_%d = %s\nch_text_%d = %s\n" % (i, gp_num(at - 0.5), i, gp_str(text)))
    unit, suffix = scale_of(top)
    out.append("n_series = %d\nn_changes = %d\nncols = %d\n" % (n, len(marks), len(cols)))
    out.append("title_text = %s\n" % gp_str("%s: ops/s against kernel" % test))
    out.append("subtitle_text = %s\n" % gp_str(
        "testbed %s; lines: 1 task, a middle count, the largest, the peak; dashed red: change points "
        "(sb-history changes)" % testbed))
    out.append("xtics_list = %s\n" % gp_str(", ".join("%s %d" % (gp_str(c), i) for i, c in enumerate(cols))))
    out.append("unit = %s\nunit_suffix = %s\nymax = %s\n" % (gp_num(unit), gp_str(suffix),
                                                            gp_num(1.15 * top if top > 0 else 1.0)))
    return "".join(out)


def stale(finals, db):
    try:
        return min(os.stat(f).st_mtime_ns for f in finals) < os.stat(db).st_mtime_ns
    except OSError:
        return True


def charts(results, run_tool):
    """[(test, testbed, cols, rows, changes, base path)] of every testcase with 2 or more kernels."""
    db = os.path.join(results, "history.db")
    if not os.path.isfile(db):
        return []
    listing = run_tool("history", ["--db", db, "list"]).splitlines()[1:]
    tests = sorted({line.split("\t")[0] for line in listing})
    out = []
    for test in tests:
        shown = tables(run_tool("history", ["--db", db, "show", test, "--format", "csv"]))
        changes = json.loads(run_tool("history", ["--db", db, "changes", test, "--format", "json"]))["changes"]
        for testbed, (cols, rows) in sorted(shown.items()):
            if len(cols) < 2:
                continue
            name = test if len(shown) == 1 else "%s@%s" % (test, testbed)
            out.append((test, testbed, cols, rows, changes, os.path.join(results, "history", name)))
    return out
