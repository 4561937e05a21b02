#!/usr/bin/env bash
# analysis_exitcodes.t: no literal or local exit code in analysis/ (issue 48): the names of analysis/msg/exit.h only.
# sb-san: skip: a grep over the sources, no C run
. "$(dirname "$0")/lib.sh"
set -eu

# A number that is genuinely not an exit code, where the patterns below would take it for one:
# "FILE FUNCTION FRAGMENT" (the fragment of the line, after strings and comments are blanked).
ALLOW=(
	# the forked child cannot exec: 127, the shell's "cannot run", is what the parent reads
	"analysis/bisect/child.c run _exit(127);"
	# a date's form (0 not a date, 1 a day, 2 a day and a time), not a code
	"analysis/history/order.c sb_hist_date ? 2 : 0;"
	# a sort rank: processes, threads, then anything else
	"analysis/rundir/rundir.c mode_rank return 2;"
)

# scan DIR: "FILE:FUNCTION:LINE: TEXT" for each line of DIR's C files that holds a literal or
# local exit code (strings and comments blanked; FUNCTION: the last definition's name above)
scan() {
	find "$1" \( -name '*.c' -o -name '*.h' \) ! -name exit.h | LC_ALL=C sort | while IFS= read -r f; do
		perl -ne '
			BEGIN { $fn = "-" }
			$fn = $1 if /^[a-z][\w\s\*]*?\b(\w+)\s*\([^;]*$/;
			next if m{^\s*/?\*};
			s{/\*.*?\*/}{}g; s{//.*}{}; s{"(?:[^"\\]|\\.)*"}{""}g; s{\x27(?:[^\x27\\]|\\.)\x27}{0}g;
			my $code = qr/(?:1|2|3|130)/;
			print "$ARGV:$fn:$.: $_" if
			    /\breturn\s*\(?\s*(?:2|3|130)\s*\)?\s*;/ ||		# return 3;
			    /\b_?exit\s*\(\s*[0-9]/ ||				# exit(2), _exit(1)
			    /\)\s*,\s*-?[0-9]+\s*;/ ||				# return snprintf(err, ...), 2;
			    /\b(?:OK|BAD|ENV|FAIL|USAGE)\s*=\s*[0-9]/ ||	# enum { OK = 0, BAD = 2, ENV = 3 }
			    /^\s*#\s*define\s+\w*(?:EXIT|OK|BAD|ENV|FAIL|USAGE)\w*\s+\(?[0-9]+\)?\s*$/ ||
			    /\bsb_fail\s*\([^,]*,[^,]*,[^,]*[0-9]/ ||		# sb_fail(err, errlen, 2, ...)
			    /\bsb_die\s*\([^,]*[0-9]/ ||			# sb_die(3, ...)
			    /\b(?:return|\w*rc\s*=)\b.*\?\s*(?:\w+\s*:\s*)?(?:2|3|130)\s*(?::\s*\w+\s*)?;/ ||	# return x ? 2 : 0;
			    /\b(?:\w*rc|code|\w*exit\w*)\s*(?:=|==|!=)\s*(?:2|3|130)\b/;	# rc = 3, usage_exit = 2
		' "$f"
	done
}

# allowed LINE: 0 when ALLOW holds LINE's file, function and fragment
allowed() {
	local a file fn rest
	for a in "${ALLOW[@]}"; do
		file=${a%% *} rest=${a#* } fn=${rest%% *} rest=${rest#* }
		case $1 in "$file:$fn:"*"$rest"*) return 0 ;; esac
	done
	return 1
}

main() {
	local tmp hits=() left=() line a
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT

	while IFS= read -r line; do hits+=("$line"); done < <(scan analysis)
	for line in ${hits[@]+"${hits[@]}"}; do allowed "$line" || left+=("$line"); done
	is "${#left[@]}" 0 "analysis/: no literal or local exit code (SB_EXIT_* of msg/exit.h)${left[*]+: ${left[*]}}"
	left=()
	for a in "${ALLOW[@]}"; do
		printf '%s\n' ${hits[@]+"${hits[@]}"} | grep -qF "${a%% *}:$(set -- $a; echo "$2"):" ||
			left+=("stale: $a")
	done
	is "${#left[@]}" 0 "each allowed number is still there (the list stays tiny and true)${left[*]+: ${left[*]}}"

	# the patterns catch what they are for, and leave names, counts and other numbers alone
	mkdir "$tmp/a"
	cat >"$tmp/a/bad.c" <<-'EOF'
	enum { OK = 0, BAD = 2, ENV = 3 };
	#define EXIT_USAGE 2
	static int f(char *err, size_t errlen, int n)
	{
		if (n == 1)
			return 2;
		if (n == 2)
			return (3);
		if (n == 3)
			return snprintf(err, errlen, "no series given, 2;"), 2;
		if (n == 4)
			exit(2);
		if (n == 5)
			return sb_fail(err, errlen, 3, "out of memory");
		if (n == 6)
			return sb_fail(err, errlen, errno == ENOMEM ? 3 : SB_EXIT_USAGE, "%s", "x");
		if (n == 7)
			sb_die(2, "usage");
		if (n == 8)
			return n > 9 ? 2 : 0;
		rc = 130;
		return rc == 3;
	}
	static int mode_rank(const char *mode)
	{
		return 2;
	}
	EOF
	cat >"$tmp/a/good.c" <<-'EOF'
	/* returns 0, or 2 (usage): exit(2) in a comment */
	static int g(char *err, size_t errlen, int n)
	{
		if (n == 1)
			return SB_EXIT_USAGE;
		if (n == 2)
			return sb_fail(err, errlen, errno == ENOMEM ? SB_EXIT_ENV : SB_EXIT_USAGE, "%d", 3);
		if (n == 3)
			puts("exit(2); return 3;");
		if (n == 4)
			return sb_verdict_spread(sides, n > 0 ? 3 : 2, &none);
		sweeps[n] += n == 1 ? 2 : 1;
		return 1;
	}
	EOF
	is "$(scan "$tmp/a" | grep -c '/bad.c:')" 13 "a literal code of each kind in bad.c is found (13 lines)"
	is "$(scan "$tmp/a" | grep -c '/good.c:' || true)" 0 "good.c: names, counts, comments and strings are not codes"
	line=$(scan "$tmp/a" | grep ':mode_rank:')
	like "$line" "^$tmp/a/bad.c:mode_rank:[0-9]+: +return 2;" "the function a line is in is named"
	a=${line/#$tmp\/a\/bad.c/analysis/rundir/rundir.c}
	allowed "$a" && ! allowed "${a/#analysis\/rundir\/rundir.c/analysis/io/samples.c}" && ! allowed "${a/:mode_rank:/:other:}"
	ok $? "an allowed number is allowed in its file and function only"
	plan "$_n"
	exit "$_failed"
}

main "$@"
