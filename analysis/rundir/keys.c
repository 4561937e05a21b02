/* The meta key table: every key a run directory's meta may hold, who sets it and what it means. */
#include <string.h>

#include "keys.h"

#define SWEEP "runtest.sh"
#define TOOL "sb-rundir"
#define MACHINE "runtest.sh (machine/)"
#define GUEST "runtest.sh in a VM guest"
#define VMHOST "runtest.sh --kernel (the VM host)"

/* A key added here is a key meta may hold: results/README.md's table is this table
 * (selftest/rundir_keys.t compares them). Keys of other subsystems go where they
 * belong in the order. */
static const struct sb_meta_key keys[] = {
	{ "test", SWEEP, "testcase name" },
	{ "description", SWEEP, "testcase_description" },
	{ "label", SWEEP, "`--label` or the kernel release" },
	{ "run_id", TOOL, "the directory name: `<label>-<YYYYmmddTHHMMSS>`, then `-2`, `-3` ... when that is taken (`sb-rundir create`)" },
	{ "status", TOOL, "`complete`, `failed` or `interrupted`; `running` while the sweep runs (and forever if the machine went down, or runtest.sh and its janitor were killed together: see \"Stale running\" below). Changed only by `sb-rundir status`" },
	{ "error", TOOL, "why the run failed, when status is failed (the runner's message, or runtest.sh's: a full results disk says which file and `No space left on device`)" },
	{ "failed_mode", TOOL, "the mode of the point that failed" },
	{ "failed_tasks", TOOL, "the task count of the point that failed" },
	{ "date", TOOL, "start, UTC, ISO 8601 (`2026-12-03T10:42:07Z`), the time of the run id" },
	{ "host", SWEEP, "hostname (`scalebench-guest` inside a VM: see the `host_*` keys)" },
	{ "kernel", SWEEP, "`uname -srvm`" },
	{ "os", SWEEP, "PRETTY_NAME from os-release, or `uname -s`" },
	{ "cpu_model", SWEEP, "CPU model name" },
	{ "topology", SWEEP, "`packages=2 numa=4 cores=48 pus=96` as hwloc sees it" },
	{ "hwloc_version", SWEEP, "hwloc library version" },
	{ "placement", SWEEP, "cores, pus, spread or none" },
	{ "aslr", SWEEP, "`off` (setarch -R) or `on`" },
	{ "modes", SWEEP, "the modes run, e.g. `processes,threads`" },
	{ "points", SWEEP, "the task counts planned, e.g. `1,2,4` (summary.csv has those that completed); with `--points auto`, the seeds and then every count added (the final set once the sweep is over)" },
	{ "points_mode", SWEEP, "how the counts were chosen: `auto` (seeds, then refined), `all` (every count, `--step`), `topology` or `list`" },
	{ "max_points", SWEEP, "`--points auto`: the counts a mode measures at most; empty otherwise" },
	{ "duration", SWEEP, "the seconds each run measures: whole sample periods" },
	{ "warmup", SWEEP, "the seconds of each run's warmup, whole sample periods; `auto` when each run's warmup was the runner's steady-state rule (the warmup rows of samples.csv show what each run used)" },
	{ "period_ms", SWEEP, "the sample period, ms" },
	{ "repeat", SWEEP, "`--repeat R`: exactly R runs a point; empty when the runs were decided by the stopping rule" },
	{ "min_runs", SWEEP, "the runs a point gets at least (R with `--repeat R`)" },
	{ "max_runs", SWEEP, "the runs a point gets at most (R with `--repeat R`)" },
	{ "precision", SWEEP, "the target half-width of a point's 95% interval, in % of its mean (`--precision`); empty without a stopping rule (`--repeat`, `--quick`)" },
	{ "point_budget", SWEEP, "the seconds one point may take (runs beyond `min_runs` start only while they fit); empty without a stopping rule" },
	{ "budget", SWEEP, "the seconds the whole sweep may take (runs beyond `min_runs` start only while they fit); empty without a stopping rule" },
	{ "order", SWEEP, "the order of the points in each round: `alternate` (odd rounds in the sweep's order, even rounds backwards) or `shuffle` (`--seed`)" },
	{ "seed", SWEEP, "`--seed N`, empty without" },
	{ "schedule", SWEEP, "the runs in the order they ran: rounds separated by blanks, each round's points `MODE:TASKS` separated by commas" },
	{ "unmet", SWEEP, "the points (`MODE:TASKS`, blank-separated) that stopped on `max_runs` or a budget before reaching `precision`; empty when all reached it, or without a stopping rule" },
	{ "late_warnings", SWEEP, "how many runs warned that the sampler woke up late (more than 1% of the period)" },
	{ "params", SWEEP, "`name=value` pairs separated by spaces, defaults included; empty for a testcase without parameters. compare.sh refuses runs whose params, duration, warmup or period_ms differ (exit 2, unless `--force`: docs/COMPARE.md) and shows params in its header" },
	{ "command", SWEEP, "the command line as typed" },
	{ "compiler", SWEEP, "the compiler that built the binaries (`$CC --version`'s first line)" },
	{ "cflags", SWEEP, "the flags that built the binaries" },
	{ "git_revision", SWEEP, "scalebench's commit, `-dirty` appended when the tree had changes" },
	{ "commit", SWEEP, "the measured kernel's commit (`--commit SHA`, else `SB_COMMIT`); empty when neither was given. sb-history keys the sweep by it (`--order commits`, `--column kernel`)" },
	{ "sweep_host", SWEEP, "the host (`uname -n`) of the runtest.sh that wrote the run (a VM run: the host's)" },
	{ "sweep_pid", SWEEP, "the pid of that runtest.sh" },
	{ "sweep_start", SWEEP, "its start id `BOOT_ID/TICKS` (the kernel's boot id and the process's start time in clock ticks since boot, from /proc; empty elsewhere), so that a pid used again by another process is not taken for the sweep" },
	{ "vm", GUEST, "a VM run: `qemu` (docs/VM.md); absent on bare metal" },
	{ "vm_accel", GUEST, "QEMU's accelerator: `kvm` or `tcg` (emulated: not for comparing kernels)" },
	{ "vm_cpus", GUEST, "the guest's CPUs" },
	{ "vm_mem", GUEST, "the guest's memory" },
	{ "vm_fs", GUEST, "how the guest reaches the checkout (`virtiofs` or `9p`)" },
	{ "vm_topology", GUEST, "the topology QEMU was given (`-smp`)" },
	{ "vm_image", GUEST, "the kernel image booted (`--kernel`)" },
	{ "guest_kernel_release", GUEST, "the guest's `uname -r`" },
	{ "guest_kernel_version", GUEST, "the guest's `uname -v`" },
	{ "host_name", VMHOST, "the host QEMU ran on: its `uname -n` (compare's machine check reads it)" },
	{ "host_kernel", VMHOST, "the host's `uname -srvm`" },
	{ "host_cpu", VMHOST, "the host's CPU model (compare's machine check reads it)" },
	{ "host_topology", VMHOST, "the host's hwloc topology (compare's machine check reads it)" },
	{ "host_command", VMHOST, "the command line typed on the host" },
	{ "host_system", VMHOST, "the host's short system check (as `system`)" },
	{ "host_lock", VMHOST, "the host's machine lock (as `lock`)" },
	{ "vm_rounds", VMHOST, "several `--kernel`: the rounds run, one run of every point each" },
	{ "system", MACHINE, "the short system check taken just before the sweep (after the machine lock), blank-separated `key=value` words: `governor` (cpufreq's, `mixed`, or `none`: no cpufreq, as in most VMs), `turbo` (`on`, `off`, `none`), `smt` (`on`, `off`, `none`), `aslr` (`on`, `off`: the system's setting; runs are under `setarch -R` whatever it is, see `aslr`), `thp` (transparent huge pages: `always`, `madvise`, `never`, `none`), `swap` (`on`, `off`), `isolated` (isolcpus' list or `none`), `prio` (what the runner may raise its sampler to: `fifo`, `nice`, `none`), `vm` (the hypervisor: `kvm`, `qemu`, `vmware`, `microsoft`, `xen`, ..., `yes` when only the cpuid flag says so, `none` on bare metal), `load` (the 1-minute load average), `others` (other sweeps, benchmarks and processes busy during the probe). E.g. `governor=none turbo=none smt=off aslr=on thp=madvise swap=off isolated=none prio=fifo vm=kvm load=0.30 others=0`; empty when the check failed. `./runtest.sh --check-system` explains each item" },
	{ "lock", MACHINE, "`held (PATH)`: the sweep held the machine lock (no other sweep measured at the same time); `none (--no-lock)`; `held by the sweep that started this one, pid N` (a sweep the holder ran itself)" },
	{ "tune", MACHINE, "`off`; with `--tune`, `on: ` and what it changed for the sweep (`cpu0/cpufreq/scaling_governor=powersave->performance intel_pstate/no_turbo=0->1 randomize_va_space=2->0`, all restored at its end), or `on` alone when nothing needed a change" },
	{ "reference_start", MACHINE, "the reference loop (`sb-machine reference`: a fixed user-space CPU loop, no system call while timed) just before the testcase's first run, after the machine lock: `loop=1 rate=906248071 span=5.80 sd=2.12 slices=10 slice_ms=30` (`loop` the loop's version: readings of different loops are not compared; `rate` the slices' median, loop iterations a second; `span` (max - min) / median and `sd` the slices' sd / mean, both in %). How steady the machine ran, for the reader: never a correction of the results (docs/RUNTEST.md \"How steady the machine runs\"). Empty when turned off (`SB_MACHINE_REFERENCE_MS=0`) or when the loop could not run" },
	{ "reference_end", MACHINE, "the same reading just after the testcase's last run; empty until then, and for a failed or interrupted run. compare.sh notes when two sides' readings differ by more than the loop's own repeatability (docs/COMPARE.md)" },
};

const struct sb_meta_key *sb_meta_keys(size_t *n)
{
	*n = sizeof(keys) / sizeof(keys[0]);
	return keys;
}

int sb_meta_key_index(const char *key, size_t len)
{
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (strlen(keys[i].key) == len && memcmp(keys[i].key, key, len) == 0)
			return (int)i;
	return -1;
}

int sb_meta_key_is_status(const char *key)
{
	return strcmp(key, "status") == 0 || strcmp(key, "error") == 0 || strcmp(key, "failed_mode") == 0 ||
	       strcmp(key, "failed_tasks") == 0;
}

void sb_meta_keys_markdown(FILE *f)
{
	fputs("| key | set by | meaning |\n|---|---|---|\n", f);
	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		fprintf(f, "| %s | %s | %s |\n", keys[i].key, keys[i].setter, keys[i].meaning);
}
