#!/bin/bash
# rundir_keys.t: sb-rundir, the run directory's one writer: the key table (results/README.md is it), the run id
# rule, refused keys and values, the status and its --if, every write a rename, the final status on a full disk;
# facts, the machine's facts runtest.sh records.
. "$(dirname "$0")/lib.sh"
tmp=$(mktemp -d)
trap 'umount "$tmp/mnt" 2>/dev/null; rm -rf "$tmp"' EXIT
make -s BUILD="$B" "$B/bin/sb-rundir" >"$tmp/make.log" 2>&1 ||
	{ echo "Bail out! make failed: $(tail -n 3 "$tmp/make.log" | tr '\n' ' ')"; exit 1; }
R=$B/bin/sb-rundir

# ---- the table is results/README.md's ----
"$R" keys --markdown >"$tmp/table"
awk '/^## meta/ { on = 1 } on && /^\| key \|/ { t = 1 } t && !/^\|/ { exit } t' results/README.md >"$tmp/readme"
is "$(diff "$tmp/table" "$tmp/readme" && echo same)" same "results/README.md's meta table is sb-rundir keys --markdown"
is "$(cut -f 1 <(("$R" keys)) | sort | uniq -d)" "" "no key declared twice"
like "$(sed -n 2p "$tmp/readme")" '^\|---\|---\|---\|$' "README's table has the three columns (key, set by, meaning)"

# ---- create: the run id rule, meta, the reserve ----
mkdir "$tmp/t"
id1=$("$R" create "$tmp/t" lab --at 86399 test=x) id2=$("$R" create "$tmp/t" lab --at 86399 test=x)
id3=$("$R" create "$tmp/t" lab --at 86399 test=x)
is "$id1 $id2 $id3" "lab-19700101T235959 lab-19700101T235959-2 lab-19700101T235959-3" "run ids: label-stamp, then -2, -3"
d=$tmp/t/$id1
is "$(tr '\n' ' ' <"$d/meta")" "test=x run_id=$id1 status=running error= failed_mode= failed_tasks= date=1970-01-01T23:59:59Z " \
	"meta: the keys given, run_id, status running, date from the id, in the table's order"
is "$(stat -c %s "$d/.meta.reserve")" 65536 "room kept for the final status"
"$R" latest "$tmp/t" "$id2"
is "$(readlink "$tmp/t/latest")" "$id2" "latest links the id"
run "$R" create "$tmp/none" lab
like "$rc:$err" "^3:sb-rundir: cannot create $tmp/none/lab-[0-9]{8}T[0-9]{6}: No such file or directory\$" \
	"no parent: exit 3 naming it"	# (the stamp is the create's second, not the test's)
run "$R" create "$tmp/t" a/b
is "$rc" 2 "a label with a slash: exit 2"
is "$(ls "$tmp/t" | wc -l)" 4 "a refused create leaves nothing"

# ---- set: table keys only, values on one line, never the status ----
run "$R" set "$d" colour=red
is "$rc:$err" "2:sb-rundir: colour: not a meta key (results/README.md lists them)" "a key not in the table: exit 2"
run "$R" set "$d" "host=a
b"
is "$rc:$err" "2:sb-rundir: host: a value on more than one line" "a value with a newline: exit 2"
run "$R" set "$d" status=complete
is "$rc" 2 "the status is not set by set"
printf 'host=h1\nkernel=k 1\n' | "$R" set "$d" --stdin params=a=1
is "$("$R" get "$d" host),$("$R" get "$d" kernel),$("$R" get "$d" params)" "h1,k 1,a=1" "set from stdin and arguments; get"
run "$R" get "$d" cpu_model
is "$rc:$out" "1:" "get of an absent key: exit 1"
is "$(ls -A "$d" | tr '\n' ' ')" ".meta.reserve meta " "no temporary file left"

# ---- status ----
"$R" status "$d" complete --if failed
is "$("$R" get "$d" status)" running "--if: no change when the status is not listed"
"$R" status "$d" failed --error "it broke" --point threads 4 --if running,complete
is "$("$R" get "$d" status),$("$R" get "$d" error),$("$R" get "$d" failed_mode),$("$R" get "$d" failed_tasks)" \
	"failed,it broke,threads,4" "status failed with the error and the point"
is "$(ls -A "$d" | tr '\n' ' ')" "meta " "the final status frees the reserve"
run "$R" status "$d" done
is "$rc" 2 "an unknown status: exit 2"
printf 'status=complete\nlabel=g\n' >"$tmp/guest"
"$R" adopt "$tmp/t/$id2" "$tmp/guest" host_name=h
is "$(tr '\n' ' ' <"$tmp/t/$id2/meta")" "label=g status=complete host_name=h " "adopt: another meta's keys, then these"

# ---- a full disk: the final status lands (root: a small tmpfs) ----
if mkdir "$tmp/mnt" && mount -t tmpfs -o size=256k tmpfs "$tmp/mnt" 2>"$tmp/mount.err"; then
	id=$("$R" create "$tmp/mnt" full command="$(printf '%0500d' 0)")
	dd if=/dev/zero of="$tmp/mnt/fill" bs=4k 2>/dev/null
	run "$R" set "$tmp/mnt/$id" host=h
	is "$rc:$err" "3:sb-rundir: cannot write $tmp/mnt/$id/meta: No space left on device" "the disk is full: a set fails, exit 3"
	"$R" status "$tmp/mnt/$id" failed --error "cannot write x: No space left on device"
	is "$?:$("$R" get "$tmp/mnt/$id" status)" 0:failed "the final status lands in the reserve's room"
	is "$(ls -A "$tmp/mnt/$id" | tr '\n' ' ')" "meta " "and nothing else is left"
else
	skip "a full disk: cannot mount a tmpfs ($(tail -n 1 "$tmp/mount.err"))"
	skip "a full disk"
	skip "a full disk"
fi
# facts PID: the machine's facts, one key=value line each, the start id as the abandoned check reads it
run "$B/bin/sb-rundir" facts $$
is "$rc" 0 "facts: exit 0"
is "$(sed 's/=.*//' <<<"$out" | tr '\n' ' ')" "host kernel arch os cpu start " "facts: host, kernel, arch, os, cpu, start"
is "$(sed -n 's/^host=//p' <<<"$out")" "$(uname -n)" "facts: host is the node name"
is "$(sed -n 's/^kernel=//p' <<<"$out")" "$(uname -srvm)" "facts: kernel is uname -srvm"
if [ -r /proc/sys/kernel/random/boot_id ]; then
	like "$(sed -n 's/^start=//p' <<<"$out")" "^$(cat /proc/sys/kernel/random/boot_id)/[0-9]+\$" "facts: start is BOOT_ID/STARTTIME"
else
	skip "no /proc: no start id"
fi
run "$B/bin/sb-rundir" facts 0
is "$rc" 2 "facts 0: exit 2"
run "$B/bin/sb-rundir" facts x1
is "$rc" 2 "facts x1: exit 2"
echo "1..$_n"
exit $_failed
