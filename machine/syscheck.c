/* The system check: governor, turbo, SMT, ASLR, load, other processes, isolated CPUs, priority, THP, swap, VM. */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "lock.h"
#include "os.h"
#include "syscheck.h"

#define ITEMS 16

/* One item of the report: its short value (meta), its long value, why it matters, how to change it. */
struct item {
	const char *key;
	char value[64];
	char detail[512];
	const char *why;
	char change[256];
};

static struct item items[ITEMS];
static int nitems;

static struct item *add(const char *key, const char *why)
{
	struct item *it = &items[nitems++];

	memset(it, 0, sizeof(*it));
	it->key = key;
	it->why = why;
	return it;
}

const char *sb_sys_path(char *buf, size_t size, const char *path)
{
	const char *root = getenv("SB_MACHINE_ROOT");

	snprintf(buf, size, "%s%s", root ? root : "", path);
	return buf;
}

int sb_sys_read(const char *path, char *buf, size_t size)
{
	char p[4096];
	FILE *f = fopen(sb_sys_path(p, sizeof(p), path), "re");
	size_t n;

	buf[0] = '\0';
	if (!f)
		return -1;
	if (!fgets(buf, (int)size, f)) {
		fclose(f);
		return -1;
	}
	fclose(f);
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

/* The number of CPUs the kernel lists (cpu0 ... in /sys), at least 1. */
static int ncpus_sys(void)
{
	long n = sysconf(_SC_NPROCESSORS_CONF);

	return n > 0 ? (int)n : 1;
}

static void governor(void)
{
	struct item *it = add("governor", "any governor but performance lets the clock follow the load: "
			      "a busier point runs at another frequency than a quiet one");
	char g[64], first[64] = "", path[128], lo[32], hi[32];
	int mixed = 0, found = 0, n = ncpus_sys();

	for (int c = 0; c < n; c++) {
		snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/cpufreq/scaling_governor", c);
		if (sb_sys_read(path, g, sizeof(g)) < 0)
			continue;
		if (!found++)
			snprintf(first, sizeof(first), "%s", g);
		else if (strcmp(g, first) != 0)
			mixed = 1;
	}
	if (!found) {
		snprintf(it->value, sizeof(it->value), "none");
		snprintf(it->detail, sizeof(it->detail),
			 "no cpufreq here (a VM's host, or the firmware, sets the frequency)");
		snprintf(it->change, sizeof(it->change), "nothing to change here (on a VM: on the host)");
		return;
	}
	snprintf(it->value, sizeof(it->value), "%s", mixed ? "mixed" : first);
	snprintf(it->detail, sizeof(it->detail), "%s on %d of %d CPUs", mixed ? "mixed governors" : first,
		 found, n);
	if (sb_sys_read("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_min_freq", lo, sizeof(lo)) == 0 &&
	    sb_sys_read("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", hi, sizeof(hi)) == 0) {
		size_t l = strlen(it->detail);

		snprintf(it->detail + l, sizeof(it->detail) - l, "; frequencies %ld-%ld MHz",
			 strtol(lo, NULL, 10) / 1000, strtol(hi, NULL, 10) / 1000);
	}
	if (sb_sys_read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_min_freq", lo, sizeof(lo)) == 0 &&
	    sb_sys_read("/sys/devices/system/cpu/cpu0/cpufreq/scaling_max_freq", hi, sizeof(hi)) == 0) {
		size_t l = strlen(it->detail);

		snprintf(it->detail + l, sizeof(it->detail) - l, " (cpu0 allowed %ld-%ld MHz)",
			 strtol(lo, NULL, 10) / 1000, strtol(hi, NULL, 10) / 1000);
	}
	snprintf(it->change, sizeof(it->change),
		 "cpupower frequency-set -g performance (runtest.sh --tune does it for the sweep)");
}

static void turbo(void)
{
	struct item *it = add("turbo", "turbo/boost clocks depend on temperature and on how many cores are busy: "
			      "1 task runs faster than its share of N, which bends the curve");
	char v[32];

	if (sb_sys_read("/sys/devices/system/cpu/intel_pstate/no_turbo", v, sizeof(v)) == 0) {
		snprintf(it->value, sizeof(it->value), "%s", strcmp(v, "1") == 0 ? "off" : "on");
		snprintf(it->detail, sizeof(it->detail), "%s (intel_pstate no_turbo=%s)", strcmp(v, "1") == 0 ? "off" : "on", v);
		snprintf(it->change, sizeof(it->change),
			 "echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo (runtest.sh --tune)");
	} else if (sb_sys_read("/sys/devices/system/cpu/cpufreq/boost", v, sizeof(v)) == 0) {
		snprintf(it->value, sizeof(it->value), "%s", strcmp(v, "0") == 0 ? "off" : "on");
		snprintf(it->detail, sizeof(it->detail), "%s (cpufreq boost=%s)", strcmp(v, "0") == 0 ? "off" : "on", v);
		snprintf(it->change, sizeof(it->change),
			 "echo 0 > /sys/devices/system/cpu/cpufreq/boost (runtest.sh --tune)");
	} else {
		snprintf(it->value, sizeof(it->value), "none");
		snprintf(it->detail, sizeof(it->detail), "no turbo/boost control here");
		snprintf(it->change, sizeof(it->change), "nothing to change here (on a VM: on the host, or the firmware)");
	}
}

static void smt(void)
{
	struct item *it = add("smt", "two hardware threads of one core share it: with --smt or placement pus "
			      "the second task of a core adds far less than the first");
	char active[16], control[32];

	if (sb_sys_read("/sys/devices/system/cpu/smt/active", active, sizeof(active)) < 0) {
		snprintf(it->value, sizeof(it->value), "none");
		snprintf(it->detail, sizeof(it->detail), "the kernel does not say (no /sys/devices/system/cpu/smt)");
		snprintf(it->change, sizeof(it->change), "nothing to change here");
		return;
	}
	if (sb_sys_read("/sys/devices/system/cpu/smt/control", control, sizeof(control)) < 0)
		snprintf(control, sizeof(control), "unknown");
	snprintf(it->value, sizeof(it->value), "%s", strcmp(active, "1") == 0 ? "on" : "off");
	snprintf(it->detail, sizeof(it->detail), "%s (control %s)", strcmp(active, "1") == 0 ? "on" : "off", control);
	if (strcmp(control, "notsupported") == 0 || strcmp(control, "notimplemented") == 0)
		snprintf(it->change, sizeof(it->change), "nothing to change here (no SMT to turn on or off)");
	else
		snprintf(it->change, sizeof(it->change),
			 "echo off > /sys/devices/system/cpu/smt/control, or nosmt on the kernel command line; "
			 "or keep the default placement cores (one task a core)");
}

static void aslr(void)
{
	struct item *it = add("aslr", "address-space randomisation moves stacks, heaps and libraries from run to "
			      "run, and with them cache and TLB conflicts (runtest.sh runs each runner under "
			      "setarch -R, which turns it off for that process when it may)");
	char v[16];

	if (sb_sys_read("/proc/sys/kernel/randomize_va_space", v, sizeof(v)) < 0) {
		snprintf(it->value, sizeof(it->value), "none");
		snprintf(it->detail, sizeof(it->detail), "no /proc/sys/kernel/randomize_va_space here");
		snprintf(it->change, sizeof(it->change), "nothing to change here");
		return;
	}
	snprintf(it->value, sizeof(it->value), "%s", strcmp(v, "0") == 0 ? "off" : "on");
	snprintf(it->detail, sizeof(it->detail), "%s (randomize_va_space=%s)", strcmp(v, "0") == 0 ? "off" : "on", v);
	snprintf(it->change, sizeof(it->change),
		 "sysctl kernel.randomize_va_space=0 (runtest.sh --tune, for the sweep)");
}

static void isolated(void)
{
	struct item *it = add("isolated", "CPUs kept free of other work (isolcpus, nohz_full) give steadier "
			      "numbers; tasks placed on them need --cpus to use them");
	char iso[256], nohz[256];

	if (sb_sys_read("/sys/devices/system/cpu/isolated", iso, sizeof(iso)) < 0)
		snprintf(iso, sizeof(iso), "unknown");
	if (sb_sys_read("/sys/devices/system/cpu/nohz_full", nohz, sizeof(nohz)) < 0 ||
	    strcmp(nohz, "(null)") == 0)
		nohz[0] = '\0';
	snprintf(it->value, sizeof(it->value), "%.63s", iso[0] ? iso : "none");
	snprintf(it->detail, sizeof(it->detail), "isolcpus %.100s, nohz_full %.100s", iso[0] ? iso : "none",
		 nohz[0] ? nohz : "none");
	snprintf(it->change, sizeof(it->change),
		 "isolcpus=LIST nohz_full=LIST on the kernel command line (a reboot)");
}

static void priority(void)
{
	struct item *it = add("prio", "the runner's sampler raises its own priority to wake on time; without it "
			      "a busy machine makes samples late (meta's late_warnings)");
	char what[64];
	int r = sb_os_raise_priority(what, sizeof(what));

	sb_os_restore_priority();
	snprintf(it->value, sizeof(it->value), "%s", r == 1 ? "fifo" : r == 0 ? "nice" : "none");
	snprintf(it->detail, sizeof(it->detail), "the runner may raise its priority: %s",
		 r < 0 ? "no (unchanged)" : what);
	snprintf(it->change, sizeof(it->change),
		 "run as root, or give CAP_SYS_NICE, or raise RLIMIT_RTPRIO (ulimit -r) / RLIMIT_NICE (ulimit -e)");
}

static void thp(void)
{
	struct item *it = add("thp", "transparent huge pages change page-fault and TLB costs, and khugepaged "
			      "works in the background");
	char v[128], *b, *e;

	if (sb_sys_read("/sys/kernel/mm/transparent_hugepage/enabled", v, sizeof(v)) < 0) {
		snprintf(it->value, sizeof(it->value), "none");
		snprintf(it->detail, sizeof(it->detail), "no transparent huge pages here");
		snprintf(it->change, sizeof(it->change), "nothing to change here");
		return;
	}
	b = strchr(v, '[');
	e = b ? strchr(b, ']') : NULL;
	char mode[64] = "unknown";

	if (b && e)
		snprintf(mode, sizeof(mode), "%.*s", (int)(e - b - 1), b + 1);
	snprintf(it->value, sizeof(it->value), "%s", mode);
	snprintf(it->detail, sizeof(it->detail), "%s (%s)", mode, v);
	snprintf(it->change, sizeof(it->change),
		 "echo never > /sys/kernel/mm/transparent_hugepage/enabled (or madvise); keep it the same on both sides of a comparison");
}

static void swap(void)
{
	struct item *it = add("swap", "a swapping machine measures the disk, not the kernel path under test");
	char p[4096], line[512], sw[32] = "";
	FILE *f = fopen(sb_sys_path(p, sizeof(p), "/proc/swaps"), "re");
	int n = 0;

	if (!f) {
		snprintf(it->value, sizeof(it->value), "none");
		snprintf(it->detail, sizeof(it->detail), "no /proc/swaps here");
		snprintf(it->change, sizeof(it->change), "nothing to change here");
		return;
	}
	while (fgets(line, sizeof(line), f))
		n++;
	fclose(f);
	sb_sys_read("/proc/sys/vm/swappiness", sw, sizeof(sw));
	snprintf(it->value, sizeof(it->value), "%s", n > 1 ? "on" : "off");
	snprintf(it->detail, sizeof(it->detail), "%s (%d swap area%s, swappiness %s)", n > 1 ? "on" : "off", n > 1 ? n - 1 : 0,
		 n == 2 ? "" : "s", sw[0] ? sw : "unknown");
	snprintf(it->change, sizeof(it->change), "swapoff -a for the sweep");
}

/* "kvm", "vmware" ... from DMI's vendor and product; NULL when they name no hypervisor. */
static const char *dmi_hypervisor(const char *vendor, const char *product)
{
	static const struct {
		const char *needle, *name;
	} known[] = {
		{ "QEMU", "qemu" }, { "KVM", "kvm" }, { "VMware", "vmware" }, { "VirtualBox", "oracle" },
		{ "innotek", "oracle" }, { "Xen", "xen" }, { "Amazon EC2", "amazon" },
		{ "Google Compute Engine", "google" }, { "Virtual Machine", "microsoft" }, { "Bochs", "bochs" },
		{ "Parallels", "parallels" }, { "BHYVE", "bhyve" },
	};

	for (size_t i = 0; i < sizeof(known) / sizeof(known[0]); i++)
		if (strstr(vendor, known[i].needle) || strstr(product, known[i].needle))
			return known[i].name;
	return NULL;
}

static int cpuinfo_hypervisor_flag(void)
{
	char p[4096], line[8192];
	FILE *f = fopen(sb_sys_path(p, sizeof(p), "/proc/cpuinfo"), "re");
	int yes = 0;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (strncmp(line, "flags", 5) == 0) {
			yes = strstr(line, " hypervisor") != NULL;
			break;
		}
	fclose(f);
	return yes;
}

/*
 * systemd-detect-virt's answer ("kvm", "none") for what ("--vm" or
 * "--container"), when it is there and the check reads the real machine.
 * Run without a shell (popen's sh is one exec more before every sweep).
 */
static int detect_virt(const char *what, char *buf, size_t size)
{
	char *const argv[] = { "systemd-detect-virt", (char *)what, NULL };
	int fd[2], status;
	size_t len = 0;
	ssize_t k;
	pid_t pid;

	buf[0] = '\0';
	if (getenv("SB_MACHINE_ROOT") || pipe(fd) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_WRONLY);

		if (dup2(fd[1], STDOUT_FILENO) < 0 || null < 0 || dup2(null, STDERR_FILENO) < 0)
			_exit(127);
		close(fd[0]);
		close(fd[1]);
		execvp(argv[0], argv);
		_exit(127);
	}
	close(fd[1]);
	if (pid < 0) {
		close(fd[0]);
		return -1;
	}
	while (len + 1 < size && ((k = read(fd[0], buf + len, size - 1 - len)) > 0 || (k < 0 && errno == EINTR)))
		if (k > 0)
			len += (size_t)k;
	buf[len] = '\0';
	close(fd[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	buf[strcspn(buf, "\n")] = '\0';
	return buf[0] ? 0 : -1;
}

static void vm(void)
{
	struct item *it = add("vm", "in a VM, vCPUs are host threads: the host's load, its frequency and its "
			      "scheduler come into every number, and two vCPUs may share a core");
	char vendor[128] = "", product[128] = "", sdv[64], ct[64], hv[32] = "";
	const char *dmi;
	int flag = cpuinfo_hypervisor_flag();

	sb_sys_read("/sys/class/dmi/id/sys_vendor", vendor, sizeof(vendor));
	sb_sys_read("/sys/class/dmi/id/product_name", product, sizeof(product));
	sb_sys_read("/sys/hypervisor/type", hv, sizeof(hv));
	dmi = dmi_hypervisor(vendor, product);
	if (detect_virt("--container", ct, sizeof(ct)) < 0 || strcmp(ct, "none") == 0)
		ct[0] = '\0';
	if (detect_virt("--vm", sdv, sizeof(sdv)) == 0)
		snprintf(it->value, sizeof(it->value), "%s", sdv);
	else if (dmi)
		snprintf(it->value, sizeof(it->value), "%s", dmi);
	else if (hv[0])
		snprintf(it->value, sizeof(it->value), "%s", hv);
	else if (flag == 1)
		snprintf(it->value, sizeof(it->value), "yes");
	else
		snprintf(it->value, sizeof(it->value), "none");
	snprintf(it->detail, sizeof(it->detail), "%s (cpuid hypervisor flag %s; DMI %s%s%s)%s%s",
		 strcmp(it->value, "none") == 0 ? "not a VM" : it->value,
		 flag == 1 ? "set" : flag == 0 ? "clear" : "unknown", vendor[0] ? vendor : "unknown",
		 product[0] ? " / " : "", product, ct[0] ? "; in a container: " : "", ct);
	snprintf(it->change, sizeof(it->change), strcmp(it->value, "none") == 0 ? "nothing to change" :
		 "pin the vCPUs to host cores and keep the host quiet, or measure on bare metal");
}

/* ---- the probe: CPU use over probe_ms, by CPU and by process ---- */

struct proc_ticks {
	long pid;
	unsigned long long ticks;
	char name[64];
};

static long parent_of(long pid)
{
	char path[64], buf[1024], *e;
	FILE *f;
	long pp = 0;

	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if (!(f = fopen(path, "re")))
		return 0;
	if (fgets(buf, sizeof(buf), f) && (e = strrchr(buf, ')')))
		sscanf(e + 2, "%*c %ld", &pp);
	fclose(f);
	return pp;
}

/* Every process's user+system ticks, with its command's base name; n entries. */
static struct proc_ticks *scan_procs(int *n)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	struct proc_ticks *v = NULL;
	int cap = 0;

	*n = 0;
	if (!d)
		return NULL;
	while ((e = readdir(d))) {
		char path[300], buf[1024], *rp, cmd[256];
		unsigned long long ut, st;
		FILE *f;
		long pid;

		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		pid = strtol(e->d_name, NULL, 10);
		snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
		if (!(f = fopen(path, "re")))
			continue;
		rp = fgets(buf, sizeof(buf), f) ? strrchr(buf, ')') : NULL;
		fclose(f);
		/* after ") ": state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime */
		if (!rp || sscanf(rp + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu", &ut, &st) != 2)
			continue;
		if (*n == cap) {
			struct proc_ticks *nv = realloc(v, (size_t)(cap = cap ? cap * 2 : 256) * sizeof(*v));

			if (!nv)
				break;
			v = nv;
		}
		v[*n].pid = pid;
		v[*n].ticks = ut + st;
		/* argv[0]'s base name (comm is cut at 15 characters: alloc_free1_pro) */
		snprintf(path, sizeof(path), "/proc/%ld/cmdline", pid);
		cmd[0] = '\0';
		if ((f = fopen(path, "re"))) {
			size_t k = fread(cmd, 1, sizeof(cmd) - 1, f);

			cmd[k] = '\0';
			fclose(f);
		}
		if (!cmd[0]) {
			char *l = strchr(buf, '('), *r = strrchr(buf, ')');

			if (l && r > l)
				snprintf(cmd, sizeof(cmd), "%.*s", (int)(r - l - 1), l + 1);
		}
		snprintf(v[*n].name, sizeof(v[*n].name), "%.*s", (int)sizeof(v[*n].name) - 1,
			 strrchr(cmd, '/') ? strrchr(cmd, '/') + 1 : cmd);
		(*n)++;
	}
	closedir(d);
	return v;
}

/* Ourselves, our ancestors and our parent's other children (runtest.sh's janitor): not "other" work. */
static int is_ours(long pid, const long *anc, int nanc)
{
	for (int i = 0; i < nanc; i++)
		if (anc[i] == pid)
			return 1;
	return nanc > 1 && parent_of(pid) == anc[1];
}

static int bench_like(const char *name)
{
	static const char *const names[] = { "runtest.sh", "runtest.py", "stress", "stress-ng", "sysbench", "fio",
					     "perf", "pyperf", "hackbench", "will-it-scale", "lmbench", "phoronix-test-suite" };
	size_t l = strlen(name);

	if ((l > 10 && strcmp(name + l - 10, "_processes") == 0) || (l > 8 && strcmp(name + l - 8, "_threads") == 0))
		return 1;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strcmp(name, names[i]) == 0)
			return 1;
	return 0;
}

/* The CPUs' use between readings a and b: CPUs seen, those over 20% busy, their busy percents summed. */
static void cpu_use(const struct sb_cpu_times *a, const struct sb_cpu_times *b, int *ncpu, int *nbusy,
		    double *sum_busy)
{
	for (int c = 0; c < a->ncpus && c < b->ncpus; c++) {
		unsigned long long tot = b->total[c] - a->total[c], idle = b->idle[c] - a->idle[c];
		double u;

		if (b->total[c] == 0 || tot == 0)
			continue;
		u = 100.0 * (double)(tot - (idle < tot ? idle : tot)) / (double)tot;
		(*ncpu)++;
		*sum_busy += u;
		if (u > 20)
			(*nbusy)++;
	}
}

/* The load item from the probe's CPU times (have_cpu: both read); *busy and busy_msg when it is busy. */
static void report_load(struct item *ld, int probe_ms, const struct sb_cpu_times *a,
			const struct sb_cpu_times *b, int have_cpu, int *busy, char *busy_msg, size_t size)
{
	char loadavg[128] = "", la1[32] = "unknown";
	int nbusy = 0, ncpu = 0;
	double sum_busy = 0, busy_pct = 10;

	if (have_cpu)
		cpu_use(a, b, &ncpu, &nbusy, &sum_busy);
	if (sb_sys_read("/proc/loadavg", loadavg, sizeof(loadavg)) == 0)
		sscanf(loadavg, "%31s", la1);
	snprintf(ld->value, sizeof(ld->value), "%s", la1);
	if (ncpu)
		snprintf(ld->detail, sizeof(ld->detail),
			 "load average %s; over a %d ms probe %.0f%% of the CPU time was used, %d of %d CPUs more than 20%% busy",
			 loadavg[0] ? loadavg : "unknown", probe_ms, sum_busy / ncpu, nbusy, ncpu);
	else
		snprintf(ld->detail, sizeof(ld->detail), "load average %s; no per-CPU times here",
			 loadavg[0] ? loadavg : "unknown");
	snprintf(ld->change, sizeof(ld->change), "stop what runs (the processes below), then measure");
	/* $SB_MACHINE_BUSY_PCT: the share of CPU time over the probe that is "busy" (101: never) */
	if (getenv("SB_MACHINE_BUSY_PCT"))
		busy_pct = atof(getenv("SB_MACHINE_BUSY_PCT"));
	if (ncpu && sum_busy / ncpu >= busy_pct) {
		*busy = 1;
		snprintf(busy_msg, size, "the machine is busy: %.0f%% of the CPU time over %d ms, %d of %d CPUs more than "
			 "20%% busy, load %s: a sweep now measures on top of that", sum_busy / ncpu, probe_ms, nbusy, ncpu, la1);
	}
}

/*
 * The others item: the lock's holder, and the processes not ours (anc: our
 * ancestors) that used the CPU between the scans p0 and p1 of the probe.
 */
static void report_others(struct item *ot, int probe_ms, const long *anc, int nanc,
			  const struct proc_ticks *p0, int n0, const struct proc_ticks *p1, int n1)
{
	struct sb_lock_holder h;
	char who[1400];
	long hz = sysconf(_SC_CLK_TCK);
	int nothers = 0;
	size_t l;

	ot->detail[0] = '\0';
	if (sb_lock_held(&h)) {
		nothers++;
		snprintf(ot->detail, sizeof(ot->detail), "a sweep holds the lock: %s; ",
			 sb_lock_describe(&h, who, sizeof(who)));
	}
	for (int i = 0; p0 && p1 && i < n1; i++) {
		double pct = -1;

		if (is_ours(p1[i].pid, anc, nanc))
			continue;
		for (int j = 0; j < n0; j++)
			if (p0[j].pid == p1[i].pid) {
				pct = 100.0 * (double)(p1[i].ticks - p0[j].ticks) / (double)hz / (probe_ms / 1000.0);
				break;
			}
		/* a benchmark that used the CPU (a sweep waiting for the lock does not), or anything busy */
		if (pct >= 10 || (bench_like(p1[i].name) && pct != 0)) {
			l = strlen(ot->detail);
			if (l + 80 >= sizeof(ot->detail))
				continue;
			nothers++;
			if (pct >= 0)
				snprintf(ot->detail + l, sizeof(ot->detail) - l, "%s %ld %.0f%%, ", p1[i].name, p1[i].pid, pct);
			else
				snprintf(ot->detail + l, sizeof(ot->detail) - l, "%s %ld, ", p1[i].name, p1[i].pid);
		}
	}
	l = strlen(ot->detail);
	while (l && (ot->detail[l - 1] == ' ' || ot->detail[l - 1] == ',' || ot->detail[l - 1] == ';'))
		ot->detail[--l] = '\0';
	snprintf(ot->value, sizeof(ot->value), "%d", nothers);
	if (!nothers)
		snprintf(ot->detail, sizeof(ot->detail), "no other sweep, benchmark or busy process seen");
	else {
		char tmp[sizeof(ot->detail)];

		memcpy(tmp, ot->detail, sizeof(tmp));
		snprintf(ot->detail, sizeof(ot->detail), "%d (name pid %%CPU over the probe): %.440s", nothers, tmp);
	}
	snprintf(ot->change, sizeof(ot->change),
		 "wait for them; runtest.sh waits for another sweep by itself (the machine lock)");
}

/* The load and others items, from one probe: CPU times and processes read probe_ms apart. */
static void load_and_others(int probe_ms, int *busy, char *busy_msg, size_t size)
{
	struct item *ld = add("load", "other work on the machine takes CPU time from the tasks and moves their "
			      "caches; every point of a sweep should see the same quiet machine");
	struct item *ot = add("others", "another sweep or benchmark at the same time halves both results, "
			      "silently");
	struct sb_cpu_times a = { 0 }, b = { 0 };
	struct proc_ticks *p0, *p1;
	struct timespec ts = { probe_ms / 1000, (long)(probe_ms % 1000) * 1000000L };
	long anc[64];
	int n0, n1, nanc = 0, have_cpu;

	for (long pid = getpid(); pid > 1 && nanc < 64; pid = parent_of(pid))
		anc[nanc++] = pid;
	have_cpu = sb_os_cpu_times(&a) == 0;
	p0 = scan_procs(&n0);
	nanosleep(&ts, NULL);
	have_cpu = have_cpu && sb_os_cpu_times(&b) == 0;
	p1 = scan_procs(&n1);
	report_load(ld, probe_ms, &a, &b, have_cpu, busy, busy_msg, size);
	report_others(ot, probe_ms, anc, nanc, p0, n0, p1, n1);
	free(p0);
	free(p1);
	free(a.idle);
	free(a.total);
	free(b.idle);
	free(b.total);
}

void sb_syscheck(FILE *out, int full, int probe_ms, int *busy, char *busy_msg, size_t size)
{
	*busy = 0;
	busy_msg[0] = '\0';
	nitems = 0;
	governor();
	turbo();
	smt();
	aslr();
	thp();
	swap();
	isolated();
	priority();
	vm();
	load_and_others(probe_ms, busy, busy_msg, size);
	if (!full) {
		for (int i = 0; i < nitems; i++)
			fprintf(out, "%s%s=%s", i ? " " : "", items[i].key, items[i].value);
		fputc('\n', out);
		return;
	}
	fprintf(out, "What on this machine moves the numbers (runtest.sh --check-system):\n");
	for (int i = 0; i < nitems; i++) {
		fprintf(out, "\n%-9s %s\n", items[i].key, items[i].detail);
		fprintf(out, "%-9s why: %s\n", "", items[i].why);
		fprintf(out, "%-9s change: %s\n", "", items[i].change);
	}
	fprintf(out, "\nshort form (meta's system=): ");
	for (int i = 0; i < nitems; i++)
		fprintf(out, "%s%s=%s", i ? " " : "", items[i].key, items[i].value);
	fputc('\n', out);
}
