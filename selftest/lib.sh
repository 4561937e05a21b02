# TAP helpers for the bash selftests: source it, call plan N, then ok/is/like.
set -u
cd "$(dirname "$0")/.." || exit 1
B=${SB_BUILD:-build}
_n=0
_failed=0
plan() { echo "1..$1"; }
ok() {	# ok COND-EXIT-STATUS NAME
	_n=$((_n + 1))
	if [ "$1" -eq 0 ]; then echo "ok $_n - $2"; else echo "not ok $_n - $2"; _failed=1; fi
}
is() {	# is GOT WANT NAME
	_n=$((_n + 1))
	if [ "$1" = "$2" ]; then echo "ok $_n - $3"; else
		echo "not ok $_n - $3"; echo "#   got:  '$1'"; echo "#   want: '$2'"; _failed=1; fi
}
like() {	# like GOT REGEX NAME
	_n=$((_n + 1))
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then echo "ok $_n - $3"; else
		echo "not ok $_n - $3"; echo "#   got:  '$1'"; echo "#   want match: '$2'"; _failed=1; fi
}
unlike() {	# unlike GOT REGEX NAME
	_n=$((_n + 1))
	if printf '%s\n' "$1" | grep -Eq -- "$2"; then
		echo "not ok $_n - $3"; echo "#   got:  '$1'"; echo "#   must not match: '$2'"; _failed=1
	else echo "ok $_n - $3"; fi
}
skip() { _n=$((_n + 1)); echo "ok $_n # skip $1"; }
# run CMD...: sets $out (stdout), $err (stderr), $rc
run() {
	local o e
	o=$(mktemp) e=$(mktemp)
	"$@" >"$o" 2>"$e"
	rc=$?
	out=$(cat "$o") err=$(cat "$e")
	rm -f "$o" "$e"
}
# alive PATTERN: processes whose command line matches (excluding pgrep itself)
alive() { pgrep -f -- "$1" | tr '\n' ' '; }
# wait_gone PATTERN SECONDS: 0 when no process matches within the time
wait_gone() {
	local i
	for i in $(seq 1 $(($2 * 10))); do
		[ -z "$(alive "$1")" ] && return 0
		sleep 0.1
	done
	return 1
}
# linux_only: 0 when this build has the Linux OS layer and the Linux-only testcases (make OS=generic has neither)
linux_only() { [ "${SB_OS:-linux}" = linux ]; }
