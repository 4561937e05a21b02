#!/usr/bin/env bash
# The kernel CI exports and the many-jobs flow: sb-summary --format kcidb (KCIDB v5.3: ids
# <origin>:..., stable across re-exports; DONE with a number in ops/s; a failed sweep FAIL without
# one; --build-id/--checkout-id; the gate), checked against KCIDB's own schema where SB_KCIDB_SCHEMA
# names it (kcidb-io's exported JSON schema; skipped otherwise); --format squad; N jobs' run
# directories from two testbeds into one history (rebuild), show --by testbed, changes; sb-history
# export --format otava (a hint that can be followed when it refuses); meta's bytes that are not UTF-8 as U+FFFD in the JSON.
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/history_lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
S=$B/bin/sb-summary
plan 43

# json FILE PYTHON-EXPRESSION: the expression's value, the report as d
json() { python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"; }

A=$(hrun "$tmp/a" unix1 6.8 1 1 host=board-a sweep_start=boot-a/100 commit=0123456789abcdef0123456789abcdef01234567)
A2=$(hrun "$tmp/a" unix1 6.9 2 1 host=board-a sweep_start=boot-a/200)
run "$S" --format kcidb "$A" "$A2"
is "$rc" 0 "kcidb: exit 0${err:+: $err}"
printf '%s\n' "$out" >"$tmp/k.json"
is "$(json "$tmp/k.json" 'd["version"]')" "{'major': 5, 'minor': 3}" "kcidb: schema version 5.3"
is "$(json "$tmp/k.json" 'len(d["tests"])')" 18 "kcidb: a test per point (8 a run) and one per sweep"
is "$(json "$tmp/k.json" 'all(t["id"].startswith("scalebench:") and t["origin"] == "scalebench" for t in d["tests"])')" True "kcidb: ids are <origin>:<local id>"
is "$(json "$tmp/k.json" 'len({t["id"] for t in d["tests"]})')" 18 "kcidb: every test id unique"
is "$(json "$tmp/k.json" 'sorted({t["status"] for t in d["tests"] if t["path"].count(".") == 3})')" "['DONE']" "kcidb: a point's status is DONE"
is "$(json "$tmp/k.json" '[t["number"] for t in d["tests"] if t["path"] == "scalebench.unix1.processes.8"][0]["unit"]')" ops/s "kcidb: number in ops/s"
want=$(awk -F, '$1 == "processes" && $2 == 8 { s += $8; n++ } END { printf "%.0f", s / n }' "$A/samples.csv")
is "$(json "$tmp/k.json" 'round([t["number"]["value"] for t in d["tests"] if t["id"].endswith(".processes.8")][0])')" "$want" "kcidb: the value is the mean of the run means"
is "$(json "$tmp/k.json" '[t["environment"]["comment"] for t in d["tests"]][0]')" board-a "kcidb: the testbed in environment"
is "$(json "$tmp/k.json" '[t["misc"]["runs"] for t in d["tests"] if t["path"].endswith(".threads.2")][0]')" 3 "kcidb: runs in misc"
is "$(json "$tmp/k.json" '[len(d["checkouts"]), len(d["builds"]), d["checkouts"][0].get("git_commit_hash")]')" "[2, 2, '0123456789abcdef0123456789abcdef01234567']" "kcidb: a checkout and a build per kernel, the commit from meta"
run "$S" --format kcidb "$A2" "$A"
printf '%s\n' "$out" >"$tmp/k2.json"
is "$(json "$tmp/k2.json" 'sorted(t["id"] for t in d["tests"])')" "$(json "$tmp/k.json" 'sorted(t["id"] for t in d["tests"])')" "kcidb: a re-export has the same ids (no duplicates in KCIDB)"
run "$S" --format kcidb --origin my_lab --build-id 'maestro:abc123' "$A"
printf '%s\n' "$out" >"$tmp/k3.json"
is "$(json "$tmp/k3.json" '[("checkouts" in d), ("builds" in d), {t["build_id"] for t in d["tests"]}, d["tests"][0]["id"].split(":")[0]]')" "[False, False, {'maestro:abc123'}, 'my_lab']" "kcidb: --build-id attaches the tests to that build, nothing else emitted"
run "$S" --format kcidb --checkout-id 'maestro:c1' "$A"
printf '%s\n' "$out" >"$tmp/k4.json"
is "$(json "$tmp/k4.json" '[("checkouts" in d), d["builds"][0]["checkout_id"]]')" "[False, 'maestro:c1']" "kcidb: --checkout-id: a build of that checkout, no checkout"
run "$S" --format kcidb --origin 'Bad-Origin' "$A"
is "$rc:$err" "2:sb-summary: --origin 'Bad-Origin': KCIDB's origin is [a-z0-9_] only, not empty" "kcidb: a bad origin is exit 2, one line"

# a failed sweep: its points FAIL, without a number; one that failed before any sample: its meta alone
F=$(hrun "$tmp/a" unix1 6.10 3 1 host=board-a status=failed failed_mode=threads failed_tasks=16 'error=task 3 died')
F0=$tmp/a/page_fault1/x-20261204T100000
mkdir -p "$F0" && printf 'test=page_fault1\nrun_id=x-20261204T100000\nstatus=failed\nhost=board-a\ndate=2026-12-04T10:00:00Z\nkernel=Linux 6.10 #1 x86_64\nfailed_mode=processes\nfailed_tasks=1\n' >"$F0/meta"
run "$S" --format kcidb --gate 1 "$F"
printf '%s\n' "$out" >"$tmp/k5.json"
is "$(json "$tmp/k5.json" 'sorted({t["status"] for t in d["tests"] if t["path"].count(".") == 3})')" "['FAIL']" "kcidb: a failed sweep's points FAIL"
is "$(json "$tmp/k5.json" 'sum("number" in t for t in d["tests"])')" 0 "kcidb: a failed sweep has no number"
is "$(json "$tmp/k5.json" '[t["status"] for t in d["tests"] if t["path"] in ("scalebench.unix1.threads.16", "scalebench.unix1", "scalebench.unix1.gate")]')" "['FAIL', 'FAIL', 'FAIL']" "kcidb: the point it failed at, the sweep and the gate (exit 1) FAIL"
run "$S" --format kcidb "$F0"
printf '%s\n' "$out" >"$tmp/k6.json"
is "$rc:$(json "$tmp/k6.json" '[(t["path"], t["status"]) for t in d["tests"]]')" "0:[('scalebench.page_fault1', 'FAIL'), ('scalebench.page_fault1.processes.1', 'FAIL')]" "kcidb: a sweep failed before any sample: its meta alone"

# KCIDB's own JSON schema (kcidb-io), where given
if [ -n "${SB_KCIDB_SCHEMA-}" ] && [ -r "$SB_KCIDB_SCHEMA" ] && /usr/bin/python3 -c 'import jsonschema' 2>/dev/null; then
	sum=$(sha256sum <"$SB_KCIDB_SCHEMA" | cut -d' ' -f1)
	# the export of kcidb-io 8971c02 (v5.3) as docs/KERNELCI.md makes it
	[ "$sum" = 9221d186d29eae34ca77e71a5ff92c4e37747c0e396f5e34c3ac05da523186d3 ] && known=' (kcidb-io 8971c02, v5.3)' || known=' (not the export docs/KERNELCI.md names: another kcidb-io commit)'
	echo "# KCIDB schema: $SB_KCIDB_SCHEMA sha256 $sum$known"
	for f in k k3 k4 k5 k6; do
		run /usr/bin/python3 -c 'import json, sys, jsonschema
s = json.load(open(sys.argv[1]))
jsonschema.Draft7Validator(s, format_checker=jsonschema.FormatChecker()).validate(json.load(open(sys.argv[2])))' "$SB_KCIDB_SCHEMA" "$tmp/$f.json"
		is "$rc${err:+: $(tail -n 1 <<<"$err")}" 0 "kcidb: $f.json is valid against KCIDB's schema"
	done
else
	for f in k k3 k4 k5 k6; do skip "kcidb: $f.json against KCIDB's schema: SB_KCIDB_SCHEMA names no readable schema file, or no python3-jsonschema"; done
fi

# SQUAD
run "$S" --format squad --gate 0 "$A"
printf '%s\n' "$out" >"$tmp/s.json"
is "$rc" 0 "squad: exit 0${err:+: $err}"
is "$(json "$tmp/s.json" '[len(d["metrics"]), len(d["metrics"]["scalebench/unix1/processes/8"])]')" "[8, 3]" "squad: a metric per point, its run means"
is "$(json "$tmp/s.json" 'd["tests"]')" "{'scalebench/unix1/sweep': 'pass', 'scalebench/unix1/gate': 'pass'}" "squad: the sweep and the gate as tests"
is "$(json "$tmp/s.json" 'all(isinstance(v, str) for v in d["metadata"].values()) and d["metadata"]["job_id"].startswith("scalebench-")')" True "squad: metadata strings, a job_id"
run "$S" --format squad "$F"
printf '%s\n' "$out" >"$tmp/s2.json"
is "$(json "$tmp/s2.json" '[d["metrics"], d["tests"]]')" "[{}, {'scalebench/unix1/sweep': 'fail'}]" "squad: a failed sweep: no metric, the sweep fails"

# N jobs into one history: each job (one per board) uploads a tarball of its results; one job
# unpacks them all and rebuilds the history; on board-b, kernel 6.11 and later lose 30%
# (board-b measures each kernel a day after board-a: run ids, label and start, differ)
for d in 1 2 3 4 5 6; do
	hrun "$tmp/job-a" unix1 "6.$((7 + d))" "$((2 * d))" 1 host=board-a >/dev/null
	hrun "$tmp/job-b" unix1 "6.$((7 + d))" "$((2 * d + 1))" "$([ "$d" -ge 4 ] && echo 0.7 || echo 1)" host=board-b >/dev/null
done
tar -czf "$tmp/job-a.tar.gz" -C "$tmp/job-a" . && tar -czf "$tmp/job-b.tar.gz" -C "$tmp/job-b" .
mkdir -p "$tmp/all"
for j in a b; do tar -xzf "$tmp/job-$j.tar.gz" -C "$tmp/all"; done
run "$H" --db "$tmp/all/history.db" rebuild --results "$tmp/all"
is "$rc" 0 "flow: one rebuild of both jobs' runs${err:+: $err}"
run "$H" --db "$tmp/all/history.db" list unix1
is "$(grep -c board- <<<"$out")" 12 "flow: 12 sweeps from two testbeds"
run "$H" --db "$tmp/all/history.db" show unix1 --by testbed
like "$out" 'board-a.*board-b|board-b.*board-a' "flow: show --by testbed has a column per board"
run "$H" --db "$tmp/all/history.db" changes unix1
is "$rc" 1 "flow: changes finds the regression (exit 1)"
like "$out" 'board-b' "flow: on board-b"
unlike "$out" 'board-a' "flow: not on board-a"

# Otava
run "$H" --db "$tmp/all/history.db" export unix1 --format otava
like "$rc:$err" '^2:sb-history: unix1: sweeps of .* choose one with --testbed$' "otava: two testbeds in one file: exit 2"
run "$H" --db "$tmp/all/history.db" export unix1 --format otava --testbed board-b
is "$(head -n 1 <<<"$out")" "time,commit,kernel,testbed,processes_curve,threads_curve,processes_peak,threads_peak" "otava: the header: time, attributes, curves and peaks"
is "$(awk -F, 'NR > 1 { printf "%s %.1f;", $3, $7 / 8e6 }' <<<"$out")" "6.8 1.0;6.9 1.0;6.10 1.0;6.11 0.7;6.12 0.7;6.13 0.7;" "otava: a row per sweep in order, the peak's mean"
run "$H" --db "$tmp/all/history.db" export unix1 --format otava --testbed board-a --points all
like "$(head -n 1 <<<"$out")" ',processes_1,processes_2,processes_4,processes_8,threads_1,' "otava: --points all: every point's column"
# two params on one testbed: the refusal said "choose one with --testbed", which cannot choose them
hrun "$tmp/p" unix1 6.8 1 1 >/dev/null
hrun "$tmp/p" unix1 6.9 2 1 params=delay_ns=100 >/dev/null
"$H" --db "$tmp/p/history.db" rebuild >/dev/null
run "$H" --db "$tmp/p/history.db" export unix1 --format otava --testbed box
like "$rc:$err" "^2:sb-history: unix1: .*their params differ, which --testbed cannot choose between: --any-params makes them one series" \
	"otava: two params on one testbed: exit 2, a hint that can be followed"
run "$H" --db "$tmp/p/history.db" export unix1 --format otava --testbed box --any-params
is "$rc:$(wc -l <<<"$out" | tr -d ' ')" "0:3" "otava: --any-params: one series, a row per sweep"

# meta's texts that are not UTF-8 (a Latin-1 label, a cut kernel string) went into the JSON byte for
# byte: no JSON reader took the report. Each such byte is U+FFFD now; UTF-8 of 2, 3 and 4 bytes stays.
L=$(hrun "$tmp/l" unix1 6.8 1 1 host=$'h\xe9')
{ grep -av '^label=' "$L/meta"; printf 'label=caf\351 \303\251 \342\202\254 \360\237\230\200 \300\257 \355\240\200 \365\200 \303\n'; } >"$tmp/meta"
mv "$tmp/meta" "$L/meta"
"$S" --format kcidb "$L" >"$tmp/l.json"
is "$(json "$tmp/l.json" 'd["tests"][0]["misc"]["label"] == "caf\ufffd \u00e9 \u20ac \U0001f600 " + "\ufffd" * 2 + " " + "\ufffd" * 3 + " " + "\ufffd" * 2 + " \ufffd"')" \
	True "kcidb: a byte that is not UTF-8 is U+FFFD, UTF-8 stays (the report is JSON)"
"$S" --format squad "$L" >"$tmp/l.json"
is "$(json "$tmp/l.json" 'd["metadata"]["testbed"] == "h\ufffd"')" True "squad: the same (the report is JSON)"
exit $_failed
