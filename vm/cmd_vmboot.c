/* sb-vmboot: vm/boot.sh's options as one table (its --help, their checks), the guest's shape (vCPUs pinned to host cores, sockets, memory, the boot timeout) and a kernel's facts (its release, its modules). */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "pairs.h"
#include "sb_version.h"	/* generated: $(BUILD)/gen */
#include "util.h"

#define NOTSET SB_PAIR_NONE
#define DEF_MEM_MIB 1024	/* a guest's memory; from 8 vCPUs 2048; at most half the host's */
#define BIG_MEM_MIB 2048
#define BIG_CPUS 8
#define KVM_BOOT_S 60		/* until the guest must be up: a KVM boot takes seconds, TCG's a minute */
#define TCG_BOOT_S 300
#define FS_UNKNOWN 2		/* fs: nothing tells (a bare image with no .config) */

/* What the arguments said; emit: hand each value back as a pair (the second pass). */
struct vmargs {
	int emit, check, kernel, help;
};

static void __attribute__((noreturn, format(printf, 1, 2))) bad(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sb_die(SB_EXIT_USAGE, "%s (try 'vm/boot.sh --help')", buf);
}

/* A value handed back under the row's pair name (its bash variable). */
static void keep(void *opts, const struct sb_cli_opt *row, const char *v, int value)
{
	struct vmargs *va = opts;

	(void)value;
	va->kernel |= strcmp(row->name, "kernel") == 0 && v[0];
	va->check |= strcmp(row->name, "check") == 0;
	if (va->emit)
		sb_pair(row->key, v ? v : "1");
}

static void whole(void *opts, const struct sb_cli_opt *row, const char *s, int value)	/* a whole number >= 1 */
{
	if (!*s || strspn(s, "0123456789") != strlen(s) || s[0] == '0')
		bad("--%s: '%s' is not a whole number >= 1", row->name, s);
	if (strlen(s) > 7)
		bad("--%s: '%s' is too large", row->name, s);
	keep(opts, row, s, value);
}

static void help(void *opts, const struct sb_cli_opt *row, const char *v, int value)
{
	struct vmargs *va = opts;

	(void)row;
	(void)v;
	(void)value;
	va->help = 1;
	if (va->emit)
		sb_pair("help", "1");
}

static const struct sb_cli_choice fs_names[] = { { "auto", 0 }, { "9p", 0 }, { "virtiofs", 0 }, { NULL, 0 } };
static const struct sb_cli_choice accel_names[] = { { "auto", 0 }, { "kvm", 0 }, { "tcg", 0 }, { NULL, 0 } };

#define TEXT(n, a, k, h)	{ .name = n, .arg = a, .kind = SB_CLI_CALL, .set = keep, .key = k, .help = h }
#define WHOLE(n, a, k, h)	{ .name = n, .arg = a, .kind = SB_CLI_CALL, .set = whole, .key = k, .help = h }
#define CHOICE(n, a, k, c, msg, h) \
	{ .name = n, .arg = a, .kind = SB_CLI_CHOICE, .choices = c, .bad = msg, .set = keep, .key = k, .help = h }

/* In --help's order. An option: a row here (its value is handed back under its pair name). */
static const struct sb_cli_opt table[] = {
	TEXT("kernel", "IMAGE", "opt_kernel", "the kernel (an x86 bzImage: /boot/vmlinuz-*, arch/x86/boot/bzImage)"),
	TEXT("modules", "DIR", "opt_modules", "its modules (default /lib/modules/<its release>, when there)"),
	WHOLE("cpus", "N", "opt_cpus", "vCPUs, each pinned to one host core (default: the host's cores)"),
	WHOLE("mem", "MIB", "opt_mem", "guest memory in MiB (default 1024, 2048 from 8 vCPUs, at most half the host's)"),
	CHOICE("fs", "FS", "opt_fs", fs_names, "--fs: '%s' is not 9p, virtiofs or auto",
	       "9p, virtiofs or auto (default: what the kernel has, 9p first)"),
	CHOICE("accel", "A", "opt_accel", accel_names, "--accel: '%s' is not kvm, tcg or auto",
	       "kvm, tcg or auto (default: kvm when /dev/kvm is usable)"),
	TEXT("append", "ARGS", "opt_append", "more kernel command line (e.g. mitigations=off)"),
	TEXT("share", "DIR", "opt_shares", "a directory the guest may write (repeatable; same path inside)"),
	TEXT("keep", "DIR", "opt_keep",
	     "a host directory the command needs (repeatable): visible even\n"
	     "under /tmp, /run, /var/tmp or /root, where the guest has tmpfs\n"
	     "(the working directory is kept)"),
	WHOLE("boot-timeout", "S", "opt_boot_timeout", "seconds until the guest must be up (default 60 with KVM, 300 with TCG)"),
	WHOLE("timeout", "S", "opt_timeout", "seconds the whole boot may take (default: none)"),
	TEXT("console", "FILE", "opt_console", "where the guest console's last lines go (default: stderr on failure)"),
	TEXT("run-dir", "DIR", "opt_runs",
	     "a run directory (with a meta) the boot works for (repeatable): if the\n"
	     "boot fails or is stopped while its meta says running, the meta says\n"
	     "failed (with the error) or interrupted, and console.log is left in it"),
	TEXT("quiet", NULL, "opt_quiet", "no notes"),
	TEXT("check", NULL, "opt_check", "say what a boot would use, boot nothing (no command)"),
	{ .letter = 'h', .name = "help", .kind = SB_CLI_CALL, .set = help, .help = "this text" },
};

static __attribute__((noreturn)) void cli_error(const struct sb_cli *c, const char *msg)
{
	(void)c;
	bad("%s", msg);
}

static __attribute__((noreturn)) void unknown(const struct sb_cli *c, const char *typed, int optopt)
{
	(void)c;
	(void)optopt;
	bad("unknown argument '%s'", typed);
}

static const struct sb_cli cli = {
	.opts = table, .nopts = sizeof(table) / sizeof(table[0]),
	.usage_error = cli_error, .unknown = unknown,
};

static void usage(void)
{
	printf("usage: vm/boot.sh --kernel IMAGE [options] -- COMMAND [ARG...]\n"
	       "       vm/boot.sh --kernel IMAGE [options] --check    say what a boot would use, boot nothing\n\n");
	sb_cli_list(&cli, stdout);
	printf("Exit: the command's status; 1 the guest failed (no boot in time, panic, lost mount),\n"
	       "2 usage error, 3 missing qemu, busybox, modules or virtiofsd, 130 interrupted.\n");
}

/* sb-vmboot args -- ARG...: vm/boot.sh's arguments -> pairs (help: its --usage);
 * judged whole before the first pair (emit 0), so that a bad one leaves stdout empty */
static int args(int argc, char **argv, int emit)
{
	struct vmargs va = { .emit = emit };
	struct sb_cli_scan s;
	enum sb_cli_step st;

	sb_cli_scan_init(&s, argc, argv);
	while ((st = sb_cli_next(&cli, &s, &va)) == SB_CLI_OPTION && !va.help)
		;
	if (va.help)
		return SB_EXIT_OK;
	if (st == SB_CLI_OPERAND)
		unknown(&cli, s.word, 0);
	if (!va.kernel)
		bad("no --kernel IMAGE");
	if (!va.check && (st != SB_CLI_DASH_DASH || s.i >= argc))
		bad("no command after --");
	for (int i = s.i; st == SB_CLI_DASH_DASH && i < argc && emit; i++)
		sb_pair("cmd", argv[i]);
	return SB_EXIT_OK;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
}

static long number(const char *s)	/* a whole number (as args() checks them), or empty: NOTSET */
{
	char *end;
	long v;

	if (!*s)
		return NOTSET;
	v = strtol(s, &end, 10);
	if (*end || v < 0 || v > 2147483647L)
		sb_die(SB_EXIT_USAGE, "sb-vmboot: '%s' is not a whole number", s);
	return v;
}

/* sb-vmboot shape CPUS MEM BOOT_TIMEOUT ACCEL, the host's cores on stdin ("CPU PACKAGE"
 * lines, sb-topology --cores): cpus, pin (each), smp, topology, mem, boot_timeout */
static int shape(char **argv)
{
	long cpus = number(argv[0]), mem = number(argv[1]), boot = number(argv[2]), n = 0, sockets = 0;
	long host_mib = sysconf(_SC_PHYS_PAGES) / (1048576 / sysconf(_SC_PAGESIZE));
	long cpu[4096], pkg[4096];
	char pins[4096 * 8] = "", smp[128], topology[sizeof(pins) + 128];
	size_t off = 0;

	while (n < 4096 && scanf("%ld %ld", &cpu[n], &pkg[n]) == 2)
		n++;
	if (cpus == NOTSET)
		cpus = n;
	if (cpus > n)
		sb_die(SB_EXIT_USAGE, "--cpus %ld: the host has %ld cores to pin vCPUs to", cpus, n);
	for (long i = 0; i < cpus; i++) {
		long j = 0;

		while (j < i && pkg[j] != pkg[i])
			j++;
		sockets += j == i;	/* a package not seen yet */
		sb_pair_n("pin", cpu[i]);
		off += snprintf(pins + off, sizeof(pins) - off, "%s%ld", i ? "," : "", cpu[i]);
	}
	if (sockets == 0 || cpus % sockets != 0)
		sockets = 1;
	snprintf(smp, sizeof(smp), "%ld,sockets=%ld,cores=%ld,threads=1", cpus, sockets, cpus / sockets);
	snprintf(topology, sizeof(topology), "%ld socket(s) x %ld core(s) x 1 thread, pinned to host CPUs %s",
		 sockets, cpus / sockets, pins);
	if (mem == NOTSET) {
		mem = cpus >= BIG_CPUS ? BIG_MEM_MIB : DEF_MEM_MIB;
		if (host_mib > 0 && mem > host_mib / 2)
			mem = host_mib / 2;
	}
	if (boot == NOTSET)
		boot = strcmp(argv[3], "kvm") == 0 ? KVM_BOOT_S : TCG_BOOT_S;
	sb_pair_n("cpus", cpus);
	sb_pair("smp", smp);
	sb_pair("topology", topology);
	sb_pair_n("mem", mem);
	sb_pair_n("boot_timeout", boot);
	return SB_EXIT_OK;
}

/* ---- a kernel image and its modules (vm/kernel.sh's facts) ------------------------- */

/* the release string an x86 bzImage carries in its setup header (the kernel_version
 * field at 0x20e points to it, relative to 0x200), e.g. "6.1.0-57-cloud-amd64" */
static int release(const char *image)
{
	unsigned char hdr[528];
	char ver[257];
	unsigned off;
	size_t n;
	FILE *f = fopen(image, "rb");

	if (f == NULL)
		return SB_EXIT_FAIL;
	n = fread(hdr, 1, sizeof(hdr), f);
	off = n == sizeof(hdr) ? hdr[526] | (unsigned)hdr[527] << 8 : 0;
	if (off == 0 || memcmp(hdr + 514, "HdrS", 4) != 0 || fseek(f, (long)off + 512, SEEK_SET) != 0 ||
	    (n = fread(ver, 1, sizeof(ver) - 1, f)) == 0) {
		fclose(f);
		return SB_EXIT_FAIL;
	}
	fclose(f);
	ver[n] = '\0';
	ver[strcspn(ver, " \n")] = '\0';
	if (!ver[0])
		return SB_EXIT_FAIL;
	printf("%s\n", ver);
	return SB_EXIT_OK;
}

/* kernel/fs/9p/9p.ko.xz -> 9p (dashes become underscores), into name (of 256) */
static void module_name(const char *path, size_t len, char *name)
{
	const char *b = path + len;
	size_t n;

	while (b > path && b[-1] != '/')
		b--;
	n = (size_t)(path + len - b);
	snprintf(name, 256, "%.*s", (int)n, b);
	n = strlen(name);
	for (const char *const *z = (const char *const[]){ ".gz", ".xz", ".zst", NULL }; *z; z++)
		if (n > strlen(*z) && strcmp(name + n - strlen(*z), *z) == 0)
			name[n -= strlen(*z)] = '\0';
	if (n > 3 && strcmp(name + n - 3, ".ko") == 0)
		name[n - 3] = '\0';
	for (char *c = name; *c; c++)
		if (*c == '-')
			*c = '_';
}

/* modules.dep (or modules.builtin) of dir: one line a module, "PATH: DEP...", lines[] its lines */
static size_t read_list(const char *dir, const char *file, char ***lines)
{
	char path[4096], line[8192];
	size_t n = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	*lines = NULL;
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if ((*lines = realloc(*lines, (n + 1) * sizeof(**lines))) == NULL || ((*lines)[n] = strdup(line)) == NULL)
			sb_die(SB_EXIT_ENV, "out of memory");
		n++;
	}
	fclose(f);
	return n;
}

static void free_list(char **lines, size_t n)
{
	while (n-- > 0)
		free(lines[n]);
	free(lines);
}

/* the line of lines[] whose module is called name, the first one (last: the last one); -1: none */
static long find_module(char **lines, size_t n, const char *name, int last)
{
	char m[256];

	for (size_t k = 0; k < n; k++) {
		size_t i = last ? n - 1 - k : k;

		module_name(lines[i], strcspn(lines[i], ":"), m);
		if (strcmp(m, name) == 0)
			return (long)i;
	}
	return -1;
}

/* module MODDIR NAME: "builtin", "module PATH" (relative to MODDIR), or exit 1: no such driver */
static int module_state(const char *dir, const char *name)
{
	char **b, **d;
	size_t nb = read_list(dir, "modules.builtin", &b), nd = read_list(dir, "modules.dep", &d);
	long i = find_module(d, nd, name, 0);
	int rc = SB_EXIT_OK;

	if (find_module(b, nb, name, 0) >= 0)
		printf("builtin\n");
	else if (i >= 0)
		printf("module %.*s\n", (int)strcspn(d[i], ":"), d[i]);
	else
		rc = SB_EXIT_FAIL;
	free_list(b, nb);
	free_list(d, nd);
	return rc;
}

static char **seen;
static size_t nseen;

/* depth first: the module at path after its dependencies (d: modules.dep's lines), each once */
static void visit(char **d, size_t n, const char *path, size_t len)
{
	const char *p = "";

	for (size_t k = 0; k < nseen; k++)
		if (strlen(seen[k]) == len && strncmp(seen[k], path, len) == 0)
			return;
	if ((seen = realloc(seen, (nseen + 1) * sizeof(*seen))) == NULL ||
	    (seen[nseen++] = strndup(path, len)) == NULL)
		sb_die(SB_EXIT_ENV, "out of memory");
	for (size_t j = 0; j < n; j++)	/* its line, if it has one */
		if (strncmp(d[j], path, len) == 0 && d[j][len] == ':')
			p = d[j] + len + 1;
	for (; *(p += strspn(p, " \t")); p += strcspn(p, " \t"))
		visit(d, n, p, strcspn(p, " \t"));
	printf("%.*s\n", (int)len, path);
}

/* closure MODDIR NAME...: the module files loading NAME... needs, each after the ones it
 * depends on; built-in drivers give nothing; exit 1 naming a driver that is neither */
static int closure(const char *dir, int argc, char **argv)
{
	char **d, **b, path[4096];
	size_t nd, nb;
	int rc = SB_EXIT_OK;

	snprintf(path, sizeof(path), "%s/modules.dep", dir);
	if (access(path, R_OK) != 0) {
		fprintf(stderr, "no %s\n", path);
		return SB_EXIT_FAIL;
	}
	nd = read_list(dir, "modules.dep", &d);
	nb = read_list(dir, "modules.builtin", &b);
	for (int k = 0; k < argc && rc == SB_EXIT_OK; k++) {
		long i = find_module(d, nd, argv[k], 1);

		if (i >= 0) {
			visit(d, nd, d[i], strcspn(d[i], ":"));
		} else if (find_module(b, nb, argv[k], 0) < 0) {
			fprintf(stderr, "%s\n", argv[k]);
			rc = SB_EXIT_FAIL;
		}
	}
	free_list(b, nb);
	free_list(d, nd);
	return rc;
}

/* the drivers a guest needs to mount its root over fs (NULL-terminated), or NULL */
static const char *const *fs_drivers(const char *fs)
{
	static const char *const p9[] = { "virtio_pci", "9pnet_virtio", "9p", NULL };
	static const char *const vfs[] = { "virtio_pci", "virtiofs", NULL };

	return strcmp(fs, "9p") == 0 ? p9 : strcmp(fs, "virtiofs") == 0 ? vfs : NULL;
}

/* every CONFIG_<symbol> of the .config cfg is y or m */
static int config_has(const char *cfg, const char *const *symbols)
{
	char line[512];
	int found = 0, n = 0;
	FILE *f = fopen(cfg, "r");

	if (f == NULL)
		return 0;
	for (; symbols[n]; n++)
		;
	while (fgets(line, sizeof(line), f))
		for (int i = 0; i < n; i++) {
			size_t len = strlen(symbols[i]);

			if (strncmp(line, "CONFIG_", 7) == 0 && strncmp(line + 7, symbols[i], len) == 0 &&
			    line[7 + len] == '=' && strchr("ym", line[8 + len]) && line[8 + len] &&
			    (line[9 + len] == '\n' || line[9 + len] == '\0'))
				found |= 1 << i;
		}
	fclose(f);
	return found == (1 << n) - 1;
}

/* fs IMAGE RELEASE FS: exit 0 when the kernel can mount FS, as far as its modules
 * (/lib/modules/RELEASE) or its .config tell; 1 when it cannot; 2 when nothing tells
 * (a bare image). The .config: /boot/config-RELEASE, beside the image, or the build
 * tree of an arch/x86/boot/bzImage. */
static int fs_supported(const char *image, const char *rel, const char *fs)
{
	static const char *const need_9p[] = { "VIRTIO_PCI", "NET_9P", "NET_9P_VIRTIO", "9P_FS", NULL };
	static const char *const need_vfs[] = { "VIRTIO_PCI", "FUSE_FS", "VIRTIO_FS", NULL };
	const char *const *drivers = fs_drivers(fs);
	char dir[4096], mods[4096], cfg[8192], **b, **d;
	const char *slash = strrchr(image, '/');

	if (drivers == NULL)
		return SB_EXIT_FAIL;
	snprintf(mods, sizeof(mods), "/lib/modules/%s", rel);
	snprintf(cfg, sizeof(cfg), "%s/modules.dep", mods);
	if (*rel && access(cfg, R_OK) == 0) {
		size_t nb = read_list(mods, "modules.builtin", &b), nd = read_list(mods, "modules.dep", &d);
		int rc = SB_EXIT_OK;

		for (; *drivers && rc == SB_EXIT_OK; drivers++)
			if (find_module(b, nb, *drivers, 0) < 0 && find_module(d, nd, *drivers, 0) < 0)
				rc = SB_EXIT_FAIL;
		free_list(b, nb);
		free_list(d, nd);
		return rc;
	}
	snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - image) : 1, slash ? image : ".");
	if (!*dir)
		snprintf(dir, sizeof(dir), "/");
	for (int i = 0; *rel && i < 5; i++) {
		static const char *const fmt[] = { "/boot/config-%2$s", "%1$s/config-%2$s", "%1$s/.config",
						   "%1$s/../../../.config", "/lib/modules/%2$s/build/.config" };

		snprintf(cfg, sizeof(cfg), fmt[i], dir, rel);
		if (access(cfg, R_OK) == 0)
			return config_has(cfg, strcmp(fs, "9p") == 0 ? need_9p : need_vfs) ? SB_EXIT_OK : SB_EXIT_FAIL;
	}
	return FS_UNKNOWN;
}

/* ---- the guest's run (vm/boot.sh's watch) -------------------------------------------- */

#define WATCH_POLL_MS 200
#define POWEROFF_S 10	/* after the command's status: the guest powers off, or is stopped */

static long now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* the first line of dir/file starting with prefix, with it and a \r cut off, into buf; 0: none */
static int first_line(const char *dir, const char *file, const char *prefix, char *buf, size_t size, int last)
{
	char path[4096], line[4096];
	int found = 0;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	while ((!found || last) && fgets(line, sizeof(line), f)) {
		if (strncmp(line, prefix, strlen(prefix)) != 0)
			continue;
		line[strcspn(line, "\r\n")] = '\0';
		snprintf(buf, size, "%s", line + strlen(prefix));
		found = 1;
	}
	fclose(f);
	return found;
}

/* a line of dir/file holding text anywhere, from it on (after "text - " when there is one) */
static int find_text(const char *dir, const char *file, const char *text, char *buf, size_t size)
{
	char path[4096], line[4096];
	const char *at;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if ((f = fopen(path, "r")) == NULL)
		return 0;
	while (fgets(line, sizeof(line), f))
		if ((at = strstr(line, text)) != NULL) {
			line[strcspn(line, "\r\n")] = '\0';
			at = strstr(line, "Kernel panic - ") ? strstr(line, "Kernel panic - ") + strlen("Kernel panic - ") : line;
			snprintf(buf, size, "%s", at);
			fclose(f);
			return 1;
		}
	fclose(f);
	return 0;
}

static int alive(long pid)	/* not gone, nor dead and waiting to be reaped */
{
	char path[64], line[512];
	const char *p;
	FILE *f;

	if (kill((pid_t)pid, 0) < 0)
		return 0;
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	if ((f = fopen(path, "r")) == NULL)
		return 1;
	p = fgets(line, sizeof(line), f) ? strrchr(line, ')') : NULL;
	fclose(f);
	return !(p && p[1] == ' ' && p[2] == 'Z');
}

/* watch DIR QEMU_PID BOOT_TIMEOUT TIMEOUT NOTE: until the command's status comes (its ctl
 * port's exit=N) or the guest fails; one line: "exit N", "failed MESSAGE", or "gone [MESSAGE]"
 * (QEMU ended: its status is the caller's to wait for). NOTE (empty: --quiet) ends the
 * "the guest is up after N s" note. */
static int watch(char **argv)
{
	const char *dir = argv[0], *note = argv[4];
	long pid = number(argv[1]), boot = number(argv[2]), limit = number(argv[3]);
	long t0 = now_ms(), t;
	char v[4096], s[64];
	int booted = 0;

	for (;; sleep_ms(WATCH_POLL_MS)) {
		if (!booted && first_line(dir, "ctl", "booted", v, sizeof(v), 0)) {
			booted = 1;
			if (*note)
				fprintf(stderr, "vm/boot.sh: the guest is up after %ld s %s\n", (now_ms() - t0) / 1000, note);
		}
		if (first_line(dir, "ctl", "error=", v, sizeof(v), 0)) {
			printf("failed the guest failed: %s\n", v);
			return SB_EXIT_OK;
		}
		if (first_line(dir, "ctl", "exit=", s, sizeof(s), 0)) {
			for (t = now_ms(); alive(pid) && now_ms() - t < POWEROFF_S * 1000;)
				sleep_ms(100);
			printf("exit %s\n", s);
			return SB_EXIT_OK;
		}
		if (!alive(pid)) {
			if (find_text(dir, "console", "Kernel panic", v, sizeof(v)))
				printf("gone the guest kernel panicked: %s\n", v);
			else if (!booted && first_line(dir, "qemu.err", "", v, sizeof(v), 1))
				printf("gone QEMU failed: %s\n", v);
			else
				printf("gone\n");
			return SB_EXIT_OK;
		}
		t = (now_ms() - t0) / 1000;
		if (!booted && boot != NOTSET && t >= boot) {
			printf("failed the guest did not boot within %ld s\n", boot);
			return SB_EXIT_OK;
		}
		if (limit != NOTSET && t >= limit) {
			printf("failed the guest did not finish within %ld s\n", limit);
			return SB_EXIT_OK;
		}
	}
}

int main(int argc, char **argv)
{
	int rc = SB_EXIT_USAGE;

	sb_util_init(argv[0]);
	sb_prog = "vm/boot.sh";	/* its messages are vm/boot.sh's */
	if (sb_cli_alone(argc, argv, "--version")) {
		printf("sb-vmboot (scalebench) %s git %s\n", SB_VERSION, SB_GIT_REVISION);
		rc = SB_EXIT_OK;
	} else if (argc == 2 && strcmp(argv[1], "usage") == 0) {
		usage();
		rc = SB_EXIT_OK;
	} else if (argc >= 3 && strcmp(argv[1], "args") == 0 && strcmp(argv[2], "--") == 0) {
		rc = args(argc - 3, argv + 3, 0) || args(argc - 3, argv + 3, 1);
	} else if (argc == 6 && strcmp(argv[1], "shape") == 0) {
		rc = shape(argv + 2);
	} else if (argc == 7 && strcmp(argv[1], "watch") == 0) {
		rc = watch(argv + 2);
	} else if (argc == 5 && strcmp(argv[1], "fs") == 0) {
		rc = fs_supported(argv[2], argv[3], argv[4]);
	} else if (argc == 3 && strcmp(argv[1], "drivers") == 0 && fs_drivers(argv[2])) {
		for (const char *const *d = fs_drivers(argv[2]); *d; d++)
			printf("%s\n", *d);
		rc = SB_EXIT_OK;
	} else if (argc == 3 && strcmp(argv[1], "release") == 0) {
		rc = release(argv[2]);
	} else if (argc == 4 && strcmp(argv[1], "module") == 0) {
		rc = module_state(argv[2], argv[3]);
	} else if (argc >= 3 && strcmp(argv[1], "closure") == 0) {
		rc = closure(argv[2], argc - 3, argv + 3);
	} else {
		fputs("sb-vmboot: usage: sb-vmboot usage | args -- ARG... | shape CPUS MEM BOOT_TIMEOUT ACCEL\n"
		      "       | release IMAGE | module MODDIR NAME | closure MODDIR NAME... | drivers FS\n"
		      "       | fs IMAGE RELEASE FS\n"
		      "       | watch DIR QEMU_PID BOOT_TIMEOUT TIMEOUT NOTE\n", stderr);
	}
	sb_flush_stdout();
	return rc;
}
