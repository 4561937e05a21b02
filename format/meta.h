/* meta's keys, declared once: name, who sets it, meaning (sb-rundir's writer, the run model's reader, results/README.md's table). */
#ifndef SCALEBENCH_FORMAT_META_H
#define SCALEBENCH_FORMAT_META_H

/*
 * X(key, setter, meaning): every key a run directory's meta may hold, in the
 * order meta lists them. setter: who writes it (SWEEP runtest.sh, TOOL
 * sb-rundir, MACHINE runtest.sh's machine/ steps, GUEST runtest.sh in a VM
 * guest, VMHOST runtest.sh --kernel on the VM host); meaning: results/README.md's
 * words (markdown; selftest/rundir_keys.t compares that table with this one).
 * The run model (analysis/io/rundir.h, struct sb_run) keeps every key's value
 * by its index, SB_META_<key>, and every line in file order: a reader takes meta
 * from the model, never from the file again. Readers skip keys they do not know
 * (a newer runtest.sh's): meta outlives versions. Adding a key: its row here
 * (keys of other subsystems go where they belong in the order), and its writer.
 */
#define SB_META_KEYS(X) \
	X(test, SWEEP, "testcase name") \
	X(description, SWEEP, "testcase_description") \
	X(label, SWEEP, "`--label` or the kernel release") \
	X(run_id, TOOL, "the directory name: `<label>-<YYYYmmddTHHMMSS>`, then `-2`, `-3` ... when that is taken (`sb-rundir create`)") \
	X(status, TOOL, "`complete`, `failed` or `interrupted`; `running` while the sweep runs (and forever if the machine went down, or runtest.sh and its janitor were killed together: see \"Stale running\" below). Changed only by `sb-rundir status`") \
	X(error, TOOL, "why the run failed, when status is failed (the runner's message, or runtest.sh's: a full results disk says which file and `No space left on device`)") \
	X(failed_mode, TOOL, "the mode of the point that failed") \
	X(failed_tasks, TOOL, "the task count of the point that failed") \
	X(date, TOOL, "start, UTC, ISO 8601 (`2026-12-03T10:42:07Z`), the time of the run id") \
	X(host, SWEEP, "hostname (`scalebench-guest` inside a VM: see the `host_*` keys)") \
	X(kernel, SWEEP, "`uname -srvm`") \
	X(os, SWEEP, "PRETTY_NAME from os-release, or `uname -s`") \
	X(cpu_model, SWEEP, "CPU model name") \
	X(topology, SWEEP, "`packages=2 numa=4 cores=48 pus=96` as hwloc sees it") \
	X(hwloc_version, SWEEP, "hwloc library version") \
	X(placement, SWEEP, "cores, pus, spread or none") \
	X(aslr, SWEEP, "`off` (setarch -R) or `on`") \
	X(modes, SWEEP, "the modes run, e.g. `processes,threads`") \
	X(points, SWEEP, "the task counts planned, e.g. `1,2,4` (summary.csv has those that completed); with `--points auto`, the seeds and then every count added (the final set once the sweep is over)") \
	X(points_mode, SWEEP, "how the counts were chosen: `auto` (seeds, then refined), `all` (every count, `--step`), `topology` or `list`") \
	X(max_points, SWEEP, "`--points auto`: the counts a mode measures at most; empty otherwise") \
	X(duration, SWEEP, "the seconds each run measures: whole sample periods") \
	X(warmup, SWEEP, "the seconds of each run's warmup, whole sample periods; `auto` when each run's warmup was the runner's steady-state rule (the warmup rows of samples.csv show what each run used)") \
	X(period_ms, SWEEP, "the sample period, ms") \
	X(repeat, SWEEP, "`--repeat R`: exactly R runs a point; empty when the runs were decided by the stopping rule") \
	X(min_runs, SWEEP, "the runs a point gets at least (R with `--repeat R`)") \
	X(max_runs, SWEEP, "the runs a point gets at most (R with `--repeat R`)") \
	X(precision, SWEEP, "the target half-width of a point's 95% interval, in % of its mean (`--precision`); empty without a stopping rule (`--repeat`, `--quick`)") \
	X(point_budget, SWEEP, "the seconds one point may take (runs beyond `min_runs` start only while they fit); empty without a stopping rule") \
	X(budget, SWEEP, "the seconds the whole sweep may take (runs beyond `min_runs` start only while they fit); empty without a stopping rule") \
	X(order, SWEEP, "the order of the points in each round: `alternate` (odd rounds in the sweep's order, even rounds backwards) or `shuffle` (`--seed`)") \
	X(seed, SWEEP, "`--seed N`, empty without") \
	X(schedule, SWEEP, "the runs in the order they ran: rounds separated by blanks, each round's points `MODE:TASKS` separated by commas") \
	X(unmet, SWEEP, "the points (`MODE:TASKS`, blank-separated) that stopped on `max_runs` or a budget before reaching `precision`; empty when all reached it, or without a stopping rule") \
	X(late_warnings, SWEEP, "how many runs warned that the sampler woke up late (more than 1% of the period)") \
	X(params, SWEEP, "`name=value` pairs separated by spaces, defaults included; empty for a testcase without parameters. compare.sh refuses runs whose params, duration, warmup or period_ms differ (exit 2, unless `--force`: docs/COMPARE.md) and shows params in its header") \
	X(command, SWEEP, "the command line as typed") \
	X(compiler, SWEEP, "the compiler that built the binaries (`$CC --version`'s first line)") \
	X(cflags, SWEEP, "the flags that built the binaries") \
	X(git_revision, SWEEP, "scalebench's commit, `-dirty` appended when the tree had changes") \
	X(commit, SWEEP, "the measured kernel's commit (`--commit SHA`, else `SB_COMMIT`); empty when neither was given. sb-history keys the sweep by it (`--order commits`, `--column kernel`)") \
	X(sweep_host, SWEEP, "the host (`uname -n`) of the runtest.sh that wrote the run (a VM run: the host's)") \
	X(sweep_pid, SWEEP, "the pid of that runtest.sh") \
	X(sweep_start, SWEEP, "its start id `BOOT_ID/TICKS` (the kernel's boot id and the process's start time in clock ticks since boot, from /proc; empty elsewhere), so that a pid used again by another process is not taken for the sweep") \
	X(vm, GUEST, "a VM run: `qemu` (docs/VM.md); absent on bare metal") \
	X(vm_accel, GUEST, "QEMU's accelerator: `kvm` or `tcg` (emulated: not for comparing kernels)") \
	X(vm_cpus, GUEST, "the guest's CPUs") \
	X(vm_mem, GUEST, "the guest's memory") \
	X(vm_fs, GUEST, "how the guest reaches the checkout (`virtiofs` or `9p`)") \
	X(vm_topology, GUEST, "the topology QEMU was given (`-smp`)") \
	X(vm_image, GUEST, "the kernel image booted (`--kernel`)") \
	X(guest_kernel_release, GUEST, "the guest's `uname -r`") \
	X(guest_kernel_version, GUEST, "the guest's `uname -v`") \
	X(host_name, VMHOST, "the host QEMU ran on: its `uname -n` (compare's machine check reads it)") \
	X(host_kernel, VMHOST, "the host's `uname -srvm`") \
	X(host_cpu, VMHOST, "the host's CPU model (compare's machine check reads it)") \
	X(host_topology, VMHOST, "the host's hwloc topology (compare's machine check reads it)") \
	X(host_command, VMHOST, "the command line typed on the host") \
	X(host_system, VMHOST, "the host's short system check (as `system`)") \
	X(host_lock, VMHOST, "the host's machine lock (as `lock`)") \
	X(vm_rounds, VMHOST, "several `--kernel`: the rounds run, one run of every point each") \
	X(system, MACHINE, "the short system check taken just before the sweep (after the machine lock), blank-separated `key=value` words: `governor` (cpufreq's, `mixed`, or `none`: no cpufreq, as in most VMs), `turbo` (`on`, `off`, `none`), `smt` (`on`, `off`, `none`), `aslr` (`on`, `off`: the system's setting; runs are under `setarch -R` whatever it is, see `aslr`), `thp` (transparent huge pages: `always`, `madvise`, `never`, `none`), `swap` (`on`, `off`), `isolated` (isolcpus' list or `none`), `prio` (what the runner may raise its sampler to: `fifo`, `nice`, `none`), `vm` (the hypervisor: `kvm`, `qemu`, `vmware`, `microsoft`, `xen`, ..., `yes` when only the cpuid flag says so, `none` on bare metal), `load` (the 1-minute load average), `others` (other sweeps, benchmarks and processes busy during the probe). E.g. `governor=none turbo=none smt=off aslr=on thp=madvise swap=off isolated=none prio=fifo vm=kvm load=0.30 others=0`; empty when the check failed. `./runtest.sh --check-system` explains each item") \
	X(lock, MACHINE, "`held (PATH)`: the sweep held the machine lock (no other sweep measured at the same time); `none (--no-lock)`; `held by the sweep that started this one, pid N` (a sweep the holder ran itself)") \
	X(tune, MACHINE, "`off`; with `--tune`, `on: ` and what it changed for the sweep (`cpu0/cpufreq/scaling_governor=powersave->performance intel_pstate/no_turbo=0->1 randomize_va_space=2->0`, all restored at its end), or `on` alone when nothing needed a change") \
	X(reference_start, MACHINE, "the reference loop (`sb-machine reference`: a fixed user-space CPU loop, no system call while timed) just before the testcase's first run, after the machine lock: `loop=1 rate=906248071 span=5.80 sd=2.12 slices=10 slice_ms=30` (`loop` the loop's version: readings of different loops are not compared; `rate` the slices' median, loop iterations a second; `span` (max - min) / median and `sd` the slices' sd / mean, both in %). How steady the machine ran, for the reader: never a correction of the results (docs/RUNTEST.md \"How steady the machine runs\"). Empty when turned off (`SB_MACHINE_REFERENCE_MS=0`) or when the loop could not run") \
	X(reference_end, MACHINE, "the same reading just after the testcase's last run; empty until then, and for a failed or interrupted run. compare.sh notes when two sides' readings differ by more than the loop's own repeatability (docs/COMPARE.md)")

#define SB_META_X_ENUM(key, setter, meaning) SB_META_##key,
enum sb_meta_id { SB_META_KEYS(SB_META_X_ENUM) SB_META_NKEYS };
#undef SB_META_X_ENUM

/* The keys' names, by index */
#define SB_META_X_NAME(key, setter, meaning) #key,
static const char *const sb_meta_key_name[SB_META_NKEYS] = { SB_META_KEYS(SB_META_X_NAME) };
#undef SB_META_X_NAME

#endif
