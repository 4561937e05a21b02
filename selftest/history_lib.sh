# shellcheck shell=bash disable=SC2034  # H and tree_sum are for the test that sources it
# Synthetic run directories for the sb-history selftests (source after lib.sh).
H=$B/bin/sb-history

# hrun RESULTS TEST LABEL DAY FACTOR [KEY=VALUE...]: a complete run RESULTS/TEST/LABEL-2026..DAY
# (DAY 1..28) of both modes at 1, 2, 4 and 8 tasks, 3 runs a point, each run's one sample
# FACTOR x 1e6 x tasks x (1 +- 1% noise, seeded by the label and day); KEY=VALUE lines replace or
# add meta keys (status=running, commit=..., host=...). Prints the directory.
hrun() {
	local r=$1 t=$2 l=$3 day=$4 f=$5 id dir kv
	shift 5
	id=$l-202612$(printf '%02d' "$day")T100000
	dir=$r/$t/$id
	mkdir -p "$dir"
	{
		printf 'test=%s\nlabel=%s\nrun_id=%s\nstatus=complete\n' "$t" "$l" "$id"
		printf 'date=2026-12-%02dT10:00:00Z\nhost=box\nkernel=Linux %s #1 SMP x86_64\n' "$day" "$l"
		printf 'cpu_model=Xeon\ntopology=packages=1 numa=1 cores=8 pus=8\nhwloc_version=2.9.0\n'
		printf 'placement=cores\nparams=\nduration=1\nwarmup=auto\nperiod_ms=500\nrepeat=3\n'
	} >"$dir/meta"
	for kv in "$@"; do
		grep -v "^${kv%%=*}=" "$dir/meta" >"$dir/meta.new" || true
		printf '%s\n' "$kv" >>"$dir/meta.new"
		mv "$dir/meta.new" "$dir/meta"
	done
	awk -v f="$f" -v seed="$(printf '%s' "$l$day" | cksum | cut -d' ' -f1)" 'BEGIN {
		srand(seed % 1000000)
		print "mode,tasks,run,phase,sample,elapsed_s,ops,ops_per_s,task_min,task_max,idle_pct,idle_all_pct"
		split("processes threads", M, " ")
		for (m = 1; m <= 2; m++) for (t = 1; t <= 8; t *= 2) for (r = 1; r <= 3; r++) {
			v = 1000000 * t * f * (1 + 0.02 * (rand() - 0.5))
			printf "%s,%d,%d,measure,1,1.0,%d,%.3f,,,,\n", M[m], t, r, v, v
		}
	}' >"$dir/samples.csv"
	printf '%s\n' "$dir"
}

# tree_sum DIR: every file under DIR with its checksum and mode (to see that nothing changed)
tree_sum() { (cd "$1" && find . -type f -exec sh -c 'for f; do printf "%s %s %s\n" "$f" "$(cksum <"$f")" "$(stat -c %a "$f")"; done' sh {} + | sort); }
