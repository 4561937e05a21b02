#!/bin/sh
# lava/run.sh: lava/scalebench.yaml's body: get scalebench built, sweep each of TESTS, report every
# point as a LAVA test case (plain lines outside LAVA), gate on BASELINE, upload the results.
#   TESTS='unix1' RUNTEST_ARGS='' BUDGET='' JOB_TIMEOUT='' TESTBED='' SB_COMMIT='' BASELINE=''
#   RESULTS_UPLOAD='' PREBUILT='' lava/run.sh          (every variable optional)
#   lava/run.sh report TEST RUNDIR [EXIT]              the cases of one finished sweep
# Cases: <test>.<mode>.<tasks> (pass, ops/s), <test> (the sweep: pass or fail), <test>.gate
# (with BASELINE). A failed sweep is fail, never a number. An environment error (runtest.sh's
# exit 3, a usage error, no build) is lava-test-raise: the job's error, not the kernel's.
# Testing: SB_LAVA_RESULTS names the results directory (default: lava-results in the checkout);
# SB_LAVA_CHECKOUT a checkout already built (SB_BUILD) to run instead of building this one.
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
tmp=''
runtest='' compare='' history='' results=''

cleanup() { if [ -n "$tmp" ]; then rm -rf -- "$tmp"; fi; }

have() { command -v "$1" >/dev/null 2>&1; }

# tc NAME RESULT [MEASUREMENT]: one test case (LAVA's helper, or a plain line)
tc() {
	if have lava-test-case; then
		if [ $# -ge 3 ]; then
			lava-test-case "$1" --result "$2" --measurement "$3" --units ops/s
		else
			lava-test-case "$1" --result "$2"
		fi
	elif [ $# -ge 3 ]; then
		printf '%s %s %s ops/s\n' "$1" "$2" "$3"
	else
		printf '%s %s\n' "$1" "$2"
	fi
}

tset() { if have lava-test-set; then lava-test-set "$@"; else printf 'set %s\n' "$*"; fi; }

# raise MESSAGE: the job's environment failed (LAVA: an infrastructure error); exit 3
raise() {
	echo "scalebench: $*" >&2
	if have lava-test-raise; then lava-test-raise "scalebench: $*" || true; fi
	exit 3
}

# seconds DURATION: "42s", "3m30s", "12m", "1h05m" in seconds
seconds() {
	echo "$1" | awk '{ s = 0; n = ""; for (i = 1; i <= length($0); i++) { c = substr($0, i, 1)
		if (c ~ /[0-9.]/) n = n c; else { if (c == "h") s += n * 3600; if (c == "m") s += n * 60
		if (c == "s") s += n; n = "" } } print int(s + 0.999) }'
}

# fetch URL|PATH FILE
fetch() {
	case $1 in
	http://* | https://* | ftp://*)
		if have curl; then curl -fsSL -o "$2" "$1" || return 1
		elif have wget; then wget -q -O "$2" "$1" || return 1
		else return 1; fi ;;
	*) cp -- "$1" "$2" || return 1 ;;
	esac
}

# tools: PREBUILT's tree, else this checkout built (make; make deps first where that fails as root)
tools() {
	if [ -n "${PREBUILT-}" ]; then
		fetch "$PREBUILT" "$tmp/prebuilt.tar.gz" || raise "cannot fetch PREBUILT $PREBUILT"
		mkdir -p "$tmp/prebuilt"
		tar -xzf "$tmp/prebuilt.tar.gz" -C "$tmp/prebuilt" || raise "PREBUILT $PREBUILT is no tarball"
		bin=$(find "$tmp/prebuilt" -name scalebench-runtest -type f | head -n 1)
		[ -n "$bin" ] || raise "PREBUILT $PREBUILT has no bin/scalebench-runtest (make dist-bin)"
		bin=$(dirname "$bin")
		runtest=$bin/scalebench-runtest
	elif [ -n "${SB_LAVA_CHECKOUT-}" ]; then
		here=$SB_LAVA_CHECKOUT	# testing: that checkout, built already (SB_BUILD: its build)
		case ${SB_BUILD:-build} in /*) bin=$SB_BUILD/bin ;; *) bin=$here/${SB_BUILD:-build}/bin ;; esac
		runtest=$here/runtest.sh
	else
		have make || raise "no make on this root filesystem: install the build tools, or set PREBUILT (make dist-bin)"
		if ! make -s -C "$here" >&2; then
			if [ "$(id -u)" = 0 ]; then make -s -C "$here" deps >&2 || raise "make deps failed"; fi
			make -s -C "$here" >&2 || raise "the build failed: no compiler or hwloc? (make deps, or PREBUILT)"
		fi
		bin=$here/build/bin
		runtest=$here/runtest.sh
	fi
	compare=$bin/sb-compare history=$bin/sb-history
}

# report TEST RUNDIR [EXIT]: every point, then the sweep's case
report() {
	r_test=$1 r_dir=$2 r_rc=${3:-0}
	status=$(sed -n 's/^status=//p' "$r_dir/meta" 2>/dev/null || true)
	verdict=fail
	if [ "$r_rc" = 0 ] && [ "$status" = complete ]; then verdict=pass; fi
	if [ -f "$r_dir/summary.csv" ]; then
		awk -F, -v t="$r_test" 'NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
			$1 == 0 { next }
			{ for (m = 0; m < 2; m++) { mode = m ? "threads" : "processes"
				if ((mode in col) && $(col[mode]) != "") print t "." mode "." $1, $(col[mode]) } }' \
			"$r_dir/summary.csv" >"$tmp/points"
		while read -r name value; do
			if [ "$verdict" = pass ]; then tc "$name" pass "$value"; else tc "$name" fail; fi
		done <"$tmp/points"
	fi
	tc "$r_test" "$verdict"
}

# baseline TEST: the baseline's run directory of TEST into $base ("" for a history)
baseline() {
	base=''
	case $BASELINE in
	*.db) return 0 ;;
	*.tar | *.tar.* | *.tgz | http://* | https://* | ftp://*)
		if [ ! -d "$tmp/baseline" ]; then
			fetch "$BASELINE" "$tmp/baseline.tar" || raise "cannot fetch BASELINE $BASELINE"
			mkdir -p "$tmp/baseline"
			tar -xf "$tmp/baseline.tar" -C "$tmp/baseline" || raise "BASELINE $BASELINE is no tarball"
		fi
		base=$(find "$tmp/baseline" -name meta -path "*/$1/*" | sort | tail -n 1)
		[ -n "$base" ] || raise "BASELINE $BASELINE has no run of $1"
		base=$(dirname "$base") ;;
	*) base=$BASELINE ;;
	esac
}

# gate TEST RUNDIR: <test>.gate, failed when compare (or changes on a history) exits 1
gate() {
	baseline "$1"
	set +e
	if [ -z "$base" ]; then
		"$history" --db "$BASELINE" add "$2" >&2 && "$history" --db "$BASELINE" changes "$1" >"$tmp/gate.txt"
	else
		"$compare" "$base" "$2" >"$tmp/gate.txt"
	fi
	g=$?
	set -e
	cat "$tmp/gate.txt"
	cp "$tmp/gate.txt" "$2/../gate-$(basename "$2").txt" 2>/dev/null || true
	case $g in
	0) tc "$1.gate" pass ;;
	1) tc "$1.gate" fail ;;
	*) raise "$1: the gate against BASELINE $BASELINE could not run (exit $g)" ;;
	esac
}

# sweep TEST: plan check, the sweep (under TESTBED's host name), its cases, the gate
sweep() {
	t=$1
	# shellcheck disable=SC2086
	set -- "$t" ${RUNTEST_ARGS-} --results "$results" ${BUDGET:+--budget "$BUDGET"} ${SB_COMMIT:+--commit "$SB_COMMIT"}
	if [ -n "${JOB_TIMEOUT-}" ]; then
		est=$("$runtest" "$@" --dry-run --no-lock | sed -n 's/^estimated: //p') || raise "$t: runtest.sh --dry-run failed"
		echo "scalebench: $t: estimated $est" >&2
		upper=$(seconds "$(echo "$est" | sed 's/ (budget.*//; s/.* //')")
		[ "$upper" -le "$JOB_TIMEOUT" ] ||
			raise "$t: the sweep may take ${upper}s, more than JOB_TIMEOUT ${JOB_TIMEOUT}s: set BUDGET"
	fi
	if [ -n "${TESTBED-}" ] && [ "$TESTBED" != "$(uname -n)" ]; then
		set -- unshare -u sh -c 'hostname "$1" && shift && exec "$@"' sh "$TESTBED" "$runtest" "$@"
	else
		set -- "$runtest" "$@"
	fi
	tset start "$t"
	set +e
	"$@" >"$tmp/out"
	rc=$?
	set -e
	cat "$tmp/out"
	case $rc in 0 | 1) ;; *) tset stop; raise "$t: runtest.sh exit $rc (see the log above)" ;; esac
	dir=$(tail -n 1 "$tmp/out")
	[ -n "$dir" ] && [ -d "$dir" ] || dir=$results/$t/latest
	[ -d "$dir" ] || { tset stop; raise "$t: runtest.sh exit $rc and no run directory"; }
	report "$t" "$dir" "$rc"
	# (a failed sweep has failed already: no gate)
	if [ -n "${BASELINE-}" ] && [ "$rc" = 0 ]; then gate "$t" "$dir"; fi
	tset stop
}

main() {
	trap cleanup EXIT
	trap 'cleanup; exit 130' INT TERM HUP
	tmp=$(mktemp -d) || raise "cannot make a temporary directory"
	if [ "${1-}" = report ]; then
		[ $# -ge 3 ] || { echo "usage: lava/run.sh report TEST RUNDIR [EXIT]" >&2; exit 2; }
		report "$2" "$3" "${4:-0}"
		return 0
	fi
	results=${SB_LAVA_RESULTS:-$here/lava-results}
	mkdir -p "$results" || raise "cannot make $results"
	if [ -n "${TESTBED-}" ] && [ "$TESTBED" != "$(uname -n)" ]; then
		unshare -u true 2>/dev/null || raise "TESTBED $TESTBED: cannot set the host name (unshare -u needs root)"
	fi
	tools
	for t in ${TESTS:-unix1}; do sweep "$t"; done
	tar -czf "$tmp/scalebench-results.tar.gz" -C "$results" . || raise "cannot pack $results"
	mv "$tmp/scalebench-results.tar.gz" "$results.tar.gz"
	echo "scalebench: results: $results.tar.gz" >&2
	if [ -n "${RESULTS_UPLOAD-}" ]; then
		sh -c "$RESULTS_UPLOAD \"\$1\"" upload "$results.tar.gz" || raise "RESULTS_UPLOAD failed: $RESULTS_UPLOAD"
	fi
}

main "$@"
