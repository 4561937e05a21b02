/* sb-vmboot: vm/boot.sh's options as one table (its --help, their checks) and the guest's shape: vCPUs pinned to host cores, sockets, memory, the boot timeout. */
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "pairs.h"
#include "sb_version.h"	/* generated: $(BUILD)/gen */
#include "util.h"

#define NOTSET SB_PAIR_NONE
#define DEF_MEM_MIB 1024	/* a guest's memory; from 8 vCPUs 2048; at most half the host's */
#define BIG_MEM_MIB 2048
#define BIG_CPUS 8
#define KVM_BOOT_S 60		/* until the guest must be up: a KVM boot takes seconds, TCG's a minute */
#define TCG_BOOT_S 300

enum kind { FLAG, WHOLE, TEXT, CHOICE, LIST, HELP };

struct opt {
	const char *name;
	const char *arg;	/* the value's name, or NULL: none */
	enum kind kind;
	const char *pair;	/* the bash variable it sets */
	const char *choices;	/* CHOICE: "9p virtiofs auto", its message's words after the value */
	const char *help;	/* its --help lines ('\n' between them) */
};

/* In --help's order. An option: a row here (its value is handed back under .pair). */
static const struct opt table[] = {
	{ "--kernel", "IMAGE", TEXT, "opt_kernel", NULL,
	  "the kernel (an x86 bzImage: /boot/vmlinuz-*, arch/x86/boot/bzImage)" },
	{ "--modules", "DIR", TEXT, "opt_modules", NULL, "its modules (default /lib/modules/<its release>, when there)" },
	{ "--cpus", "N", WHOLE, "opt_cpus", NULL, "vCPUs, each pinned to one host core (default: the host's cores)" },
	{ "--mem", "MIB", WHOLE, "opt_mem", NULL,
	  "guest memory in MiB (default 1024, 2048 from 8 vCPUs, at most half the host's)" },
	{ "--fs", "FS", CHOICE, "opt_fs", "auto 9p virtiofs|9p, virtiofs or auto",
	  "9p, virtiofs or auto (default: what the kernel has, 9p first)" },
	{ "--accel", "A", CHOICE, "opt_accel", "auto kvm tcg|kvm, tcg or auto",
	  "kvm, tcg or auto (default: kvm when /dev/kvm is usable)" },
	{ "--append", "ARGS", TEXT, "opt_append", NULL, "more kernel command line (e.g. mitigations=off)" },
	{ "--share", "DIR", LIST, "opt_shares", NULL, "a directory the guest may write (repeatable; same path inside)" },
	{ "--keep", "DIR", LIST, "opt_keep", NULL,
	  "a host directory the command needs (repeatable): visible even\n"
	  "under /tmp, /run, /var/tmp or /root, where the guest has tmpfs\n"
	  "(the working directory is kept)" },
	{ "--boot-timeout", "S", WHOLE, "opt_boot_timeout", NULL,
	  "seconds until the guest must be up (default 60 with KVM, 300 with TCG)" },
	{ "--timeout", "S", WHOLE, "opt_timeout", NULL, "seconds the whole boot may take (default: none)" },
	{ "--console", "FILE", TEXT, "opt_console", NULL,
	  "where the guest console's last lines go (default: stderr on failure)" },
	{ "--run-dir", "DIR", LIST, "opt_runs", NULL,
	  "a run directory (with a meta) the boot works for (repeatable): if the\n"
	  "boot fails or is stopped while its meta says running, the meta says\n"
	  "failed (with the error) or interrupted, and console.log is left in it" },
	{ "--quiet", NULL, FLAG, "opt_quiet", NULL, "no notes" },
	{ "--check", NULL, FLAG, "opt_check", NULL, NULL },	/* in the usage lines */
	{ "-h", NULL, HELP, NULL, NULL, NULL },
	{ "--help", NULL, HELP, NULL, NULL, NULL },
};

#define NOPTS (sizeof(table) / sizeof(table[0]))

static void usage(void)
{
	printf("usage: vm/boot.sh --kernel IMAGE [options] -- COMMAND [ARG...]\n"
	       "       vm/boot.sh --kernel IMAGE [options] --check    say what a boot would use, boot nothing\n\n");
	for (const struct opt *p = table; p < table + NOPTS; p++) {
		char head[64];
		const char *h = p->help, *nl;

		if (h == NULL)
			continue;
		snprintf(head, sizeof(head), "%s%s%s", p->name, p->arg ? " " : "", p->arg ? p->arg : "");
		printf("  %-20s", head);
		for (int first = 1; (nl = strchr(h, '\n')) != NULL; h = nl + 1, first = 0)
			printf("%*s%.*s\n", first ? 1 : 23, "", (int)(nl - h), h);
		printf("%*s%s\n", h == p->help ? 1 : 23, "", h);
	}
	printf("Exit: the command's status; 1 the guest failed (no boot in time, panic, lost mount),\n"
	       "2 usage error, 3 missing qemu, busybox, modules or virtiofsd, 130 interrupted.\n");
}

static void __attribute__((noreturn, format(printf, 1, 2))) bad(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	sb_die(SB_EXIT_USAGE, "%s (try 'vm/boot.sh --help')", buf);
}

static void whole(const char *opt, const char *s)	/* a whole number >= 1 */
{
	if (!*s || strspn(s, "0123456789") != strlen(s) || s[0] == '0')
		bad("%s: '%s' is not a whole number >= 1", opt, s);
	if (strlen(s) > 7)
		bad("%s: '%s' is too large", opt, s);
}

static void choice(const struct opt *p, const char *v)
{
	const char *bar = strchr(p->choices, '|');
	size_t n = strlen(v);

	for (const char *c = p->choices; c < bar; c += strcspn(c, " |") + (c[strcspn(c, " |")] == ' '))
		if (n && strncmp(c, v, n) == 0 && (c[n] == ' ' || c[n] == '|'))
			return;
	bad("%s: '%s' is not %s", p->name, v, bar + 1);
}

/* sb-vmboot args -- ARG...: vm/boot.sh's arguments -> pairs (help: its --usage);
 * judged whole before the first pair (emit 0), so that a bad one leaves stdout empty */
static int args(int argc, char **argv, int emit)
{
	int check = 0, kernel = 0, i;

	for (i = 0; i < argc; i++) {
		const struct opt *p = NULL;

		for (size_t k = 0; k < NOPTS && !p; k++)
			if (strcmp(table[k].name, argv[i]) == 0)
				p = &table[k];
		if (strcmp(argv[i], "--") == 0)
			break;
		if (p == NULL)
			bad("unknown argument '%s'", argv[i]);
		if (p->kind == HELP) {
			if (emit)
				sb_pair("help", "1");
			return SB_EXIT_OK;
		}
		if (p->arg && i + 1 >= argc)
			bad("%s needs a value", argv[i]);
		switch (p->kind) {
		case FLAG:
			if (emit)
				sb_pair(p->pair, "1");
			check |= strcmp(p->name, "--check") == 0;
			continue;
		case WHOLE:
			whole(p->name, argv[i + 1]);
			break;
		case CHOICE:
			choice(p, argv[i + 1]);
			break;
		default:
			break;
		}
		kernel |= strcmp(p->name, "--kernel") == 0 && argv[i + 1][0];
		if (emit)
			sb_pair(p->pair, argv[i + 1]);
		i++;
	}
	if (!kernel)
		bad("no --kernel IMAGE");
	if (!check && i + 1 >= argc)
		bad("no command after --");
	for (i++; i < argc && emit; i++)
		sb_pair("cmd", argv[i]);
	return SB_EXIT_OK;
}

static long number(const char *s)	/* a value args() checked, or empty: NOTSET */
{
	return *s ? strtol(s, NULL, 10) : NOTSET;
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

int main(int argc, char **argv)
{
	int rc = SB_EXIT_USAGE;

	sb_util_init(argv[0]);
	sb_prog = "vm/boot.sh";	/* its messages are vm/boot.sh's */
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		printf("sb-vmboot (scalebench) %s git %s\n", SB_VERSION, SB_GIT_REVISION);
		rc = SB_EXIT_OK;
	} else if (argc == 2 && strcmp(argv[1], "usage") == 0) {
		usage();
		rc = SB_EXIT_OK;
	} else if (argc >= 3 && strcmp(argv[1], "args") == 0 && strcmp(argv[2], "--") == 0) {
		rc = args(argc - 3, argv + 3, 0) || args(argc - 3, argv + 3, 1);
	} else if (argc == 6 && strcmp(argv[1], "shape") == 0) {
		rc = shape(argv + 2);
	} else {
		fputs("sb-vmboot: usage: sb-vmboot usage | args -- ARG... | shape CPUS MEM BOOT_TIMEOUT ACCEL\n", stderr);
	}
	sb_flush_stdout();
	return rc;
}
