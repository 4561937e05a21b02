/* The testcase API: will-it-scale's, plus parameters, modes, errors, counting. */
#ifndef SCALEBENCH_TESTCASE_H
#define SCALEBENCH_TESTCASE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * will-it-scale's API. A will-it-scale testcase defines the first two (and
 * optionally the next two) without including this header, and builds as is.
 */
extern char *testcase_description;
void testcase(unsigned long long *iterations, unsigned long nr);
void testcase_prepare(unsigned long nr_tasks);	/* optional, parent, before tasks */
void testcase_cleanup(void);			/* optional, parent, after tasks */
void new_task(void *(*func)(void *), void *arg);	/* a partner: process or thread */

/*
 * Count operations. A plain (*iterations)++ in a loop with no opaque call
 * may live in a register and never reach memory; an atomic store cannot be
 * elided, and a relaxed one compiles to a plain load, add and store (on
 * x86-64 null1's whole loop is mov, add, mov, jmp).
 */
static inline void sb_count_n(unsigned long long *iterations,
			      unsigned long long n)
{
	__atomic_store_n(iterations,
			 __atomic_load_n(iterations, __ATOMIC_RELAXED) + n,
			 __ATOMIC_RELAXED);
}

static inline void sb_count(unsigned long long *iterations)
{
	sb_count_n(iterations, 1);
}

/*
 * Modes. A testcase that is meaningful only one way says so once:
 *     SB_MODES(SB_THREADS);
 * The binary for the other mode then refuses to run (exit 2) and
 * runtest.sh skips it with a note. Without SB_MODES both modes run.
 */
#define SB_PROCESSES 1u
#define SB_THREADS 2u
#define SB_MODES(m) const unsigned int testcase_modes = (m)

/*
 * A testcase that runs both ways, as will-it-scale's does, but measures what
 * its name says only one way, names that way and what the other one measures:
 *     SB_MEANT(SB_THREADS, "each process has its own mm, so no TLB shootdown");
 * The other binary runs all the same and says so once on stderr; runtest.sh
 * skips that way by default with a note (--mode all or naming the mode runs it).
 */
#define SB_MEANT(m, what_else) \
	const unsigned int testcase_meant = (m); \
	const char testcase_meant_else[] = what_else

/* 1 in the _threads binary, 0 in the _processes binary. */
int sb_threads_mode(void);

/* This task's index (the nr given to testcase); partners inherit it. -1 in the parent. */
long sb_task(void);

/*
 * Fatal errors: print "<binary>: task <nr>: <message>: <strerror(errno)>"
 * (sb_fatalx: without errno) and end the whole run with exit status 1.
 * Use them around every call that can fail.
 */
void sb_fatal(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));
void sb_fatalx(const char *fmt, ...)
	__attribute__((noreturn, format(printf, 1, 2)));

/*
 * Memory shared by every task in both modes (MAP_SHARED|MAP_ANONYMOUS),
 * zeroed. Call it from testcase_prepare so that process tasks inherit it.
 */
void *sb_shared_alloc(size_t size);

/*
 * A private directory for the testcase's files, made with mkdtemp under
 * --param dir=DIR, else $SCALEBENCH_TMPDIR, else $TMPDIR, else /tmp, and
 * removed with everything in it when the run ends, however it ends. A
 * testcase that calls it gets the `dir` parameter, and the directory is
 * made before testcase_prepare runs, so tasks may call it too. A testcase
 * that measures one kind of filesystem names its usual place with
 *     SB_TMPDIR_DEFAULT("/dev/shm");
 * which comes after --param dir and $SCALEBENCH_TMPDIR, before $TMPDIR.
 */
const char *sb_tmpdir(void);
#define SB_TMPDIR_DEFAULT(path) const char *testcase_tmpdir_default = (path)
/*
 * What the directory must offer, checked before anything runs (and by
 * --check), else exit 2: SB_TMPDIR_FS("tmpfs") a filesystem (as sb_fs_name
 * names it), SB_TMPDIR_O_DIRECT files opened with O_DIRECT.
 */
#define SB_TMPDIR_FS(name) const char *testcase_tmpdir_fs = (name)
#define SB_TMPDIR_O_DIRECT const int testcase_tmpdir_o_direct = 1

/* Spin on the monotonic clock for ns nanoseconds: work, not sleep. */
void sb_spin_ns(long long ns);

/*
 * Files under sb_tmpdir(). sb_path(buf, size, "task%lu", nr) writes
 * "<tmpdir>/task<nr>" into buf. sb_create(path, flags, fill) makes a new
 * file (O_RDWR | O_CREAT | O_EXCL | flags, mode 0600), writes `fill` bytes
 * of data into it (not a hole; 0 leaves it empty) and returns its
 * descriptor. sb_io(r, want, what) fails the run unless a read- or
 * write-like call moved exactly `want` bytes; these three end the run with
 * sb_fatal on any error. sb_fs_name(path) names the filesystem under path
 * ("tmpfs", "ext2/3/4", ...; "an unknown filesystem" when statfs fails).
 */
void sb_path(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int sb_create(const char *path, int flags, off_t fill);
void sb_io(ssize_t r, size_t want, const char *what);
const char *sb_fs_name(const char *path);

/*
 * Parameters: --param name=value. Declare at file scope:
 *     SB_PARAM_INT(size, 2048, 1, 1 << 30, "buffer size in bytes");
 *     SB_PARAM_STR(path, "", "file to use");
 * and use `size` / `path` as ordinary variables; they are set before
 * testcase_prepare runs. Unknown names and out-of-range or malformed
 * values are rejected with exit 2.
 */
struct sb_param {
	const char *name;
	const char *help;
	long long *ival;	/* integer parameter, or NULL */
	long long idef, min, max;
	const char **sval;	/* string parameter, or NULL */
	const char *sdef;
	struct sb_param *next;
};
void sb_param_register(struct sb_param *p);

#define SB_PARAM_INT(var, def, lo, hi, helptext)			\
	static long long var = (def);					\
	static struct sb_param sb_param_##var = {			\
		#var, helptext, &var, (def), (lo), (hi), NULL, NULL, NULL }; \
	__attribute__((constructor)) static void sb_param_reg_##var(void) \
	{ sb_param_register(&sb_param_##var); }

#define SB_PARAM_STR(var, def, helptext)				\
	static const char *var = (def);					\
	static struct sb_param sb_param_##var = {			\
		#var, helptext, NULL, 0, 0, 0, &var, (def), NULL };	\
	__attribute__((constructor)) static void sb_param_reg_##var(void) \
	{ sb_param_register(&sb_param_##var); }

#endif
