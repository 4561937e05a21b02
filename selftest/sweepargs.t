#!/usr/bin/env bash
# sb-sweepargs and sb-vmboot, runtest.sh's and vm/boot.sh's option tables: each bad value one line and exit 2, the NUL-separated pairs, --help, the run's and the guest's shape;
# sb-workdir, runtest.sh's working directory, janitor and bounded wait (runtest_workdir.t drives it through runtest.sh).
. "$(dirname "$0")/lib.sh"
tool=$B/bin/sb-sweepargs vmboot=$B/bin/sb-vmboot workdir=$B/bin/sb-workdir
[ -x "$tool" ] && [ -x "$vmboot" ] && [ -x "$workdir" ] || make -s BUILD="$B" "$tool" "$vmboot" "$workdir" >/dev/null 2>&1
unset SB_COMMIT

# bad WANT ARG...: exit 2, nothing on stdout, one line on stderr: runtest.sh's, with the hint
bad() {
	local want=$1 name
	shift
	name=${*//$'\n'/\\n}
	run "$tool" -- "$@"
	is "$rc" 2 "exit 2: $name"
	is "$out" "" "nothing on stdout: $name"
	is "$err" "runtest.sh: $want (see ./runtest.sh --help)" "one line: $name"
}

# value NAME ARG...: the (last) value of pair NAME in the answer to ARG...
value() {
	local name=$1 k v last=''
	shift
	while IFS= read -r -d '' k && IFS= read -r -d '' v; do
		if [ "$k" = "$name" ]; then last=$v; fi
	done < <("$tool" -- "$@")
	printf '%s' "$last"
}

# list NAME ARG...: the values of pair NAME, one a line
list() {
	local name=$1 k v
	shift
	while IFS= read -r -d '' k && IFS= read -r -d '' v; do
		if [ "$k" = "$name" ]; then printf '%s\n' "$v"; fi
	done < <("$tool" -- "$@")
}

bad "no testcase given"
bad "--precision: '0' must be more than 0" t --precision 0
bad "--precision: 'x' is not a number of percent like 5 or 0.5" t --precision x
bad "--duration: '1.' is not a number of seconds like 5 or 0.5" t --duration 1.
bad "--duration: '.5' is not a number of seconds like 5 or 0.5" t --duration .5
bad "--duration: '1.2.3' is not a number of seconds like 5 or 0.5" t --duration 1.2.3
bad "--duration: '1234567' is too large" t --duration 1234567
bad "--max-procs: '1234567890' is too large" t --max-procs 1234567890
bad "--seed: '' is not a whole number" t --seed ''
bad "--min-runs 5 is more than --max-runs 4" t --min-runs 5 --max-runs 4
bad "--repeat 2 is exactly 2 runs a point: it cannot be combined with --precision, --min-runs, --max-runs, --point-budget or --budget" \
	t --repeat 2 --budget 5
bad "--points: empty list" t --points ''
bad "--points cannot be combined with --max-procs, --min-procs or --step" t --points topology --step 2
bad "--commit: 'xyz' is not a commit hash (7 to 64 hex digits)" t --commit xyz
bad "--results: empty directory name" t --results ''
bad "--profile: empty list (give task counts, 'peak' or 'max')" t --profile ''
bad "--profile: '0' is not a task count, 'peak' or 'max'" t --profile 1,0
bad "--profile: '' is not a task count, 'peak' or 'max'" t --profile 1,
bad "--profile-keep needs --profile" t --profile-keep
bad "--tune needs the machine lock: the settings it saves and restores are the machine's, not --no-lock's" t --tune --no-lock
bad "--param: the value of 'a' spans lines" t --param $'a=1\n2'
bad "--label: 236 characters: too long for a directory name with the date (at most 235)" t --label "$(printf '%0236d' 0)"
bad "--duration 0.1 s is less than one sample of --period-ms 1000" t --duration 0.1 --period-ms 1000
bad "unknown option '--version'" t --version
bad "unknown option '-m'" t -m
bad "--stall-timeout needs a value" t --stall-timeout
bad "--kernel: empty file name" t --kernel ''
bad "--vm-cpus: '0' must be at least 1" t --vm-cpus 0
bad "several --kernel run in fixed rounds: give --repeat R (R rounds), not --precision, --min-runs, --max-runs or budgets" \
	t --kernel "$0" --kernel "$0" --min-runs 2
run env SB_COMMIT=nothex "$tool" -- t
is "$rc,$err" "2,runtest.sh: SB_COMMIT: 'nothex' is not a commit hash (7 to 64 hex digits) (see ./runtest.sh --help)" "a bad SB_COMMIT: exit 2, one line"
# a missing kernel image is bad input too, without the hint
run "$tool" -- t --kernel "$B/no-such-image"
is "$rc,$err" "2,runtest.sh: --kernel $B/no-such-image: no such file" "--kernel of a missing file: exit 2, one line"
run "$tool" -- t --kernel "$B"
is "$rc,$err" "2,runtest.sh: --kernel $B: not a file (a kernel image, bzImage)" "--kernel of a directory: exit 2, one line"
# the tool's own misuse
run "$tool" t
is "$rc" 2 "sb-sweepargs without --: exit 2"
like "$err" '^sb-sweepargs: usage: ' "its usage line"

# -h/--help: one pair, before anything after it is judged; --usage is the text
is "$(list help t --help --max-procs 0)" 1 "--help answers 'help', later arguments unread"
run "$tool" --me scalebench-runtest --usage
like "$(head -n 2 <<<"$out")" '^usage: scalebench-runtest TEST.*
       scalebench-runtest --list ' "--usage names the command given with --me"
like "$out" $'\n  -h, --help          this text\n' "a row of the table in the usage"
like "$out" $'\n  --vm-boot-timeout S seconds a guest may take to come up\n' "the longest option keeps one blank"

# the values: what the sweep computes with, and nothing it does not
is "$(value samples t)" 2 "default: 2 samples of 500 ms"
is "$(value warmup_samples t)" 2 "default: 2 warmup samples"
is "$(value duration_text t --duration 1.25 --period-ms 250)" 1.25 "the duration in seconds"
is "$(value rounded_note t --duration 1.1)" "note: whole sample periods: 2 measured and 2 warmup samples of 500 ms" \
	"a duration rounded to whole samples is noted"
is "$(value max_runs t --min-runs 12)" 12 "--min-runs above the default --max-runs raises it"
is "$(value adaptive t --repeat 3),$(value precision t --repeat 3)" "0," "--repeat: not adaptive, no precision"
is "$(value precision_text t --precision 0.5)" 0.5 "--precision in percent"
is "$(value point_budget_text t)" 30 "the default point budget, in seconds"
is "$(list opt_point_list t --points 8,2,2,1 | tr '\n' ' ')" "1 2 8 " "--points sorted, duplicates dropped"
is "$(value points_mode t --step 2)" all "--step alone is --points all"
is "$(value args_largest t --min-procs 5)" 5 "the largest count the arguments name"
is "$(value placement t --smt)" pus "--smt places on PUs"
is "$(value placement t --no-affinity)" none "--no-affinity"
is "$(value profile_counts t --profile 4,peak,2,max)" 4,2 "--profile's task counts"
is "$(value label t --label v1.2_x)" v1.2_x "--label as given"
like "$(value label t)" '^[A-Za-z0-9_][A-Za-z0-9._-]*$' "the default label: the kernel release, made safe"
is "$(value opt_commit t)" "" "no --commit, no SB_COMMIT: none"
is "$(SB_COMMIT=abcdef0 value opt_commit t)" abcdef0 "SB_COMMIT is the default --commit"
is "$(value vm_rounds t --kernel "$0" --kernel "$0")" 3 "two kernels: rounds of the least runs"
is "$(value vm_rounds t --kernel "$0" --kernel "$0" --repeat 5)" 5 "two kernels, --repeat 5: 5 rounds"
# the runner options the sweep hands on, as given (its own table's sweep=yes rows)
is "$(list opt_pass t --stall-timeout=4 --param a=1 --warmup-period-ms 20 | tr '\n' ' ')" \
	"--stall-timeout 4 --param a=1 --warmup-period-ms 20 " "runner options and --param, split and in order"
# --warmup auto (meta's word for the default, what sb-bisect hands back) and its bounds, sb-sweepargs' own
is "$(value opt_fixed_warmup t --warmup auto),$(value auto_warmup_max t --warmup auto)" 0,1 "--warmup auto is the default"
is "$(value opt_fixed_warmup t --warmup 2 --warmup auto)" 0 "--warmup auto after --warmup 2: the last one counts"
is "$(value opt_fixed_warmup t --quick --warmup auto)" 0 "--quick --warmup auto: steady-state"
is "$(value auto_warmup_max t --warmup-max 2.5),$(value auto_warmup_min t --warmup-max 2.5)" 2.5, \
	"--warmup-max in seconds with decimals; no --warmup-min: the rule's own"
is "$(value auto_warmup_max t --warmup-min 3),$(value auto_warmup_min t --warmup-min 3)" 3,3 \
	"--warmup-min 3 alone raises the default cap of 1 s to 3 (not 1 s in silence)"
is "$(value auto_warmup_min_ms t --warmup-min 0.5 --warmup-max 2)" 500 "the plan's shortest warmup is --warmup-min"
is "$(list opt_pass t --warmup-min 0.5 --warmup-max 2 | wc -l)" 0 "--warmup-min/--warmup-max are not passed on as given"
bad "--warmup-min 3 s is more than --warmup-max 1 s" t --warmup-min 3 --warmup-max 1
bad "--warmup-max goes with the steady-state warmup (auto, the default), not a fixed --warmup S" t --warmup 2 --warmup-max 1
bad "--warmup-min goes with the steady-state warmup (auto, the default), not a fixed --quick" t --quick --warmup-min 1
bad "--warmup: 'soon' is not a number of seconds like 5 or 0.5, nor auto" t --warmup soon
bad "--warmup-max: '1.2345' has more than 3 decimals" t --warmup-max 1.2345
# the VM options out, the rest (values with blanks, -- and all) as given, in order
is "$(list vm_rest t1 --vm-mem 512 --param "a=b c" --kernel "$0" --vm-fs=9p --quick -- t2 t3 | tr '\n' '|')" \
	"t1|--param|a=b c|--quick|--|t2|t3|" "vm_rest: every argument but the VM options"
is "$(list vm_boot_opts t --vm-mem 512 --vm-fs=9p --vm-append 'a=1 b' | tr '\n' '|')" \
	"--mem|512|--fs|9p|--append|a=1 b|" "vm_boot_opts: vm/boot.sh's names"
is "$(list opt_tests a -- b c | tr '\n' ' ')" "a b c " "after --, testcase names only"
# a value with a newline or an = stays one value (NUL-separated)
is "$(list opt_params t --param=a=b=c)" "a=b=c" "--param=a=b=c: the value after the first ="
is "$(list vm_rest t --vm-append $'a\nb' --plot | tr '\n' '|')" "t|--plot|" "a newline in a value stays in its pair"

# ---- sb-vmboot: vm/boot.sh's options, the guest's shape ----
# vbad WANT ARG...: exit 2, one line, vm/boot.sh's, with its hint
vbad() {
	local want=$1
	shift
	run "$vmboot" args -- "$@"
	is "$rc,$out,$err" "2,,vm/boot.sh: $want (try 'vm/boot.sh --help')" "vm/boot.sh $*: exit 2, one line"
}
vbad "no --kernel IMAGE"
vbad "no --kernel IMAGE" --kernel '' --check
vbad "--kernel needs a value" --kernel
vbad "--cpus: '0' is not a whole number >= 1" --kernel k --cpus 0
vbad "--cpus: '07' is not a whole number >= 1" --kernel k --cpus 07
vbad "--mem: '12345678' is too large" --kernel k --mem 12345678
vbad "--fs: 'ext4' is not 9p, virtiofs or auto" --kernel k --fs ext4
vbad "--fs: 'virtio' is not 9p, virtiofs or auto" --kernel k --fs virtio
vbad "--accel: '' is not kvm, tcg or auto" --kernel k --accel ''
vbad "no command after --" --kernel k
vbad "no command after --" --kernel k --
vbad "unknown argument 'k'" k
is "$("$vmboot" args -- --kernel k --fs virtiofs --share 'a b' --share c -- cmd 'x y' | tr '\0' '|')" \
	"opt_kernel|k|opt_fs|virtiofs|opt_shares|a b|opt_shares|c|cmd|cmd|cmd|x y|" "the pairs: lists repeated, the command after --"
is "$("$vmboot" args -- --kernel k --help --bogus | tr '\0' '|')" "opt_kernel|k|help|1|" "--help: later arguments unread"
like "$("$vmboot" usage)" '^usage: vm/boot.sh --kernel IMAGE' "usage: the text"
# shape CPUS MEM BOOT_TIMEOUT ACCEL, the host's "CPU PACKAGE" lines on stdin
host=$'0 0\n2 0\n1 1\n3 1'
shape() { "$vmboot" shape "$@" <<<"$host" | tr '\0' '|'; }
like "$(shape '' '' '' kvm)" '^pin\|0\|pin\|2\|pin\|1\|pin\|3\|cpus\|4\|smp\|4,sockets=2,cores=2,threads=1\|topology\|2 socket\(s\) x 2 core\(s\) x 1 thread, pinned to host CPUs 0,2,1,3\|mem\|[0-9]+\|boot_timeout\|60\|$' \
	"every host core by default, two packages two sockets, KVM's boot timeout"
like "$(shape 3 512 '' tcg)" 'smp\|3,sockets=1,cores=3,threads=1\|.*mem\|512\|boot_timeout\|300\|$' \
	"3 vCPUs over 2 packages: one socket; --mem as given; TCG's boot timeout"
like "$(shape 1 '' 9 tcg)" 'cpus\|1\|.*boot_timeout\|9\|$' "--boot-timeout as given"
run "$vmboot" shape 5 '' '' kvm <<<"$host"
is "$rc,$err" "2,vm/boot.sh: --cpus 5: the host has 4 cores to pin vCPUs to" "more vCPUs than host cores: exit 2, one line"
run "$vmboot" shape 1 ''
is "$rc" 2 "sb-vmboot shape without its four arguments: exit 2"

# release IMAGE, module MODDIR NAME, closure MODDIR NAME... (vm/kernel.sh's facts; vm_kernel.t has more)
img=$_sb_locks/sweepargs.img
{ head -c 514 /dev/zero; printf 'HdrS'; head -c 8 /dev/zero; printf '\000\001'; head -c 240 /dev/zero
	printf '6.9.0-x (a@b) #1\000'; } >"$img"
is "$("$vmboot" release "$img")" 6.9.0-x "release: the setup header's version string"
run "$vmboot" release "$0"
is "$rc,$out" "1," "release of a file that is no bzImage: exit 1, nothing"
md=$_sb_locks/sweepargs.mod
mkdir -p "$md"
printf 'k/a.ko.xz: k/b-c.ko.xz k/d.ko\nk/b-c.ko.xz: k/d.ko\nk/d.ko:\n' >"$md/modules.dep"
printf 'k/e.ko\n' >"$md/modules.builtin"
is "$("$vmboot" closure "$md" e a b_c | tr '\n' ' ')" "k/d.ko k/b-c.ko.xz k/a.ko.xz " "closure: dependencies first, each once, built-in ones left out"
run "$vmboot" closure "$md" a zz
is "$rc,$err" "1,zz" "closure: a driver that is neither names it, exit 1"
is "$("$vmboot" module "$md" b_c),$("$vmboot" module "$md" e)" "module k/b-c.ko.xz,builtin" "module: a module, built in"
is "$("$vmboot" drivers 9p | tr '\n' ' ')" "virtio_pci 9pnet_virtio 9p " "drivers: what 9p needs"
mkdir -p "$md/tree"
: >"$md/tree/bzImage"
printf 'CONFIG_VIRTIO_PCI=y\nCONFIG_NET_9P=m\nCONFIG_NET_9P_VIRTIO=y\nCONFIG_9P_FS=y\nCONFIG_FUSE_FS=yes\n' >"$md/tree/.config"
run "$vmboot" fs "$md/tree/bzImage" 0.0-sb-none 9p
is "$rc" 0 "fs: 9p from the .config beside a bare image"
run "$vmboot" fs "$md/tree/bzImage" 0.0-sb-none virtiofs
is "$rc" 1 "fs: no virtiofs in that .config (FUSE_FS=yes is not y)"
rm "$md/tree/.config"
run "$vmboot" fs "$md/tree/bzImage" 0.0-sb-none 9p
is "$rc" 2 "fs: a bare image with no .config cannot tell (2)"
rm -rf "$md" "$img"

# watch DIR QEMU_PID BOOT_TIMEOUT TIMEOUT NOTE: the guest's control port, QEMU, the clock (a sleep stands in)
w=$_sb_locks/sweepargs.watch
mkdir -p "$w"
: >"$w/ctl"
: >"$w/console"
printf 'booted\r\nexit=3\r\n' >"$w/ctl"
sleep 30 &
q=$!
(sleep 0.3; kill "$q") &
run "$vmboot" watch "$w" "$q" 5 '' '(tcg, 1 vCPUs)'
is "$rc,$out" "0,exit 3" "watch: the command's status, once QEMU has gone"
is "$err" "vm/boot.sh: the guest is up after 0 s (tcg, 1 vCPUs)" "watch: the note when the guest is up"
printf 'booted\nerror=lost the root\n' >"$w/ctl"
is "$("$vmboot" watch "$w" $$ 5 '' '')" "failed the guest failed: lost the root" "watch: the guest's error"
: >"$w/ctl"
is "$("$vmboot" watch "$w" $$ 1 '' '')" "failed the guest did not boot within 1 s" "watch: the boot timeout"
printf 'booted\n' >"$w/ctl"
is "$("$vmboot" watch "$w" $$ 1 1 '')" "failed the guest did not finish within 1 s" "watch: the timeout"
: >"$w/ctl"
printf '[ 1.5] Kernel panic - not syncing: VFS\n' >"$w/console"
is "$("$vmboot" watch "$w" 999999999 5 '' '')" "gone the guest kernel panicked: not syncing: VFS" "watch: QEMU gone after a panic"
: >"$w/console"
printf 'qemu: one\nqemu: could not load kernel\n' >"$w/qemu.err"
is "$("$vmboot" watch "$w" 999999999 5 '' '')" "gone QEMU failed: qemu: could not load kernel" "watch: QEMU gone before the boot"
rm -rf "$w"

# ---- sb-workdir DIR SWEEP_PID GRACE_MS: the working directory and its janitor ----
wd=$_sb_locks/sweepargs.wd
rm -rf "$wd"
mkdir -p "$wd/runtest.deaddd" "$wd/runtest.livexx" "$wd/runtest.noownr"
echo "999999999 - 999999998 -" >"$wd/runtest.deaddd/owners"	# both gone: removed
echo "$$ - $$ -" >"$wd/runtest.livexx/owners"	# alive: kept
coproc JAN { exec "$workdir" "$wd" $$ 300; }
jin=${JAN[1]}
read -r ans path <&"${JAN[0]}"
is "$ans" ok "the janitor says ok"
like "$path" "^$wd/runtest\.[A-Za-z0-9]{6}\$" "and the directory it made"
like "$(cat "$path/owners" 2>/dev/null)" "^$$ [0-9-]+ [0-9]+ [0-9-]+\$" "owners: the sweep's and the janitor's pid and start"
is "$(cd "$wd" && ls -d runtest.* | grep -v "^${path##*/}\$" | tr '\n' ' ')" "runtest.livexx runtest.noownr " \
	"a dead sweep's directory removed; a live one's and a fresh one without owners kept"
sleep 30 &
child=$!
echo "$child" >"$path/child"
printf '%s\n' "$path/probe.file" >"$path/probe"
: >"$path/probe.file"
exec {jin}>&-	# runtest.sh's end (bash keeps the coprocess's descriptors from its other children)
wait_until 10 test ! -e "$path"
ok $? "at the pipe's end: the directory removed"
wait_until 5 gone "$child"
ok $? "the runner at work stopped"
ok "$([ ! -e "$path/probe.file" ]; echo $?)" "the results probe removed"
rm -rf "$wd"
# --stop PID GRACE_MS WHAT: the bounded wait for a child that has had SIGTERM
# (deaf to SIGTERM, and not this shell's child: no job notice when it is killed)
deaf=$(sh -c 'trap "" TERM; sleep 30 >/dev/null 2>&1 & echo $!')
kill -TERM "$deaf"
run "$workdir" --stop "$deaf" 300 "the runner"
is "$rc,$out" "0,warning: the runner (pid $deaf) had not stopped 0.3 s after SIGTERM: killed" "--stop: SIGKILL after the grace, and the warning"
sleep 30 &
p=$!
# (a SIGTERM that lands while the job is still the shell's fork can be held
# pending across the exec: sleep would then outlive the grace; it is sleep first)
c=''
for ((i = 0; i < 200; i++)); do
	{ read -r c <"/proc/$p/comm"; } 2>/dev/null || c=''
	if [ "$c" = sleep ]; then break; fi
	nap 0.05
done
kill -TERM "$p"
run "$workdir" --stop "$p" 5000 x
is "$rc,$out" "0," "--stop: a child that stops in time, no warning"
run "$workdir" --stop 0 10 x
is "$rc" 2 "--stop of pid 0: exit 2"
run "$workdir" "$_sb_locks"
is "$rc" 2 "sb-workdir without its arguments: exit 2"

done_testing() { echo "1..$_n"; exit "$_failed"; }
done_testing
