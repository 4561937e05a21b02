/* The reference loop: a fixed user-space CPU loop timed in slices, to show how steady the machine runs. */
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "format/reference.h"
#include "fmt/rate.h"
#include "reference.h"
#include "stat/stats.h"
#include "util.h"

/*
 * The loop: a chain of dependent multiply-adds (a 64-bit LCG) the compiler
 * cannot fold (the empty asm makes x opaque each time round), no memory
 * traffic and no call. Its rate follows the core's speed and what else the
 * core is given to run, nothing of the kernel's.
 */
static __attribute__((noinline)) uint64_t spin(uint64_t x, unsigned long n)
{
	for (unsigned long i = 0; i < n; i++) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		__asm__ volatile("" : "+r"(x));
	}
	return x;
}

static volatile uint64_t sink;	/* the loop's result goes somewhere */

static int now_ns(int64_t *t)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_MONOTONIC, &ts) < 0)
		return -1;
	*t = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
	return 0;
}

/*
 * Iterations of about 1 ms of the loop: doubled from 65,536 (so that the
 * clock's 20-50 ns between chunks stays under 0.1% of a chunk) until a chunk
 * takes that long; the largest of three tries, as a try the CPU was taken
 * from in the middle ends early with too small a chunk.
 */
static int chunk_size(unsigned long *chunk)
{
	int64_t a, b;

	*chunk = 0;
	for (int try = 0; try < 3; try++) {
		unsigned long n = 1UL << 16;

		for (;;) {
			if (now_ns(&a) < 0)
				return -1;
			sink = spin(sink, n);
			if (now_ns(&b) < 0)
				return -1;
			if (b - a >= 1000000 || n >= (1UL << 40))
				break;
			n *= 2;
		}
		if (n > *chunk)
			*chunk = n;
	}
	return 0;
}

/* One slice: chunks until slice_ns have passed; its rate (iterations per second) and its length. */
static int slice(unsigned long chunk, int64_t slice_ns, double *rate, int64_t *took)
{
	int64_t t0, t;
	double iters = 0;

	if (now_ns(&t0) < 0)
		return -1;
	do {
		sink = spin(sink, chunk);
		iters += (double)chunk;
		if (now_ns(&t) < 0)
			return -1;
	} while (t - t0 < slice_ns);
	*rate = iters / ((double)(t - t0) / 1e9);
	*took = t - t0;
	return 0;
}

int sb_reference_run(struct sb_reference *r, int nslices, int slice_ms)
{
	unsigned long chunk;
	int64_t ns = (int64_t)slice_ms * 1000000, took, total = 0;
	int64_t warm = ns < 100000000 ? ns : 100000000;
	struct sb_stats st;
	double rate;

	memset(r, 0, sizeof(*r));
	if (nslices < 1 || nslices > SB_REFERENCE_MAX_SLICES || slice_ms < 1)
		return -1;
	r->slice_ms = slice_ms;
	if (chunk_size(&chunk) < 0 || slice(chunk, warm, &rate, &took) < 0)
		return -1;
	for (int i = 0; i < nslices; i++) {
		if (slice(chunk, ns, &r->rates[i], &took) < 0)
			return -1;
		total += took;
		r->ends[i] = (double)total / 1e9;
	}
	r->nslices = nslices;
	r->seconds = (double)total / 1e9;
	if (sb_stats_compute(r->rates, (size_t)nslices, &st) < 0 || !(st.median > 0))
		return -1;
	r->median = st.median;
	r->span_pct = 100.0 * (st.max - st.min) / st.median;
	r->sd_pct = 100.0 * st.stddev / st.mean;
	return 0;
}

void sb_reference_line(FILE *out, const struct sb_reference *r)
{
	char rate[64];

	/* the words of format/reference.h, in its order */
	fprintf(out, SB_REFERENCE_FORMAT, SB_REFERENCE_LOOP,
		sb_rate_plain(rate, sizeof(rate), r->median), r->span_pct, r->sd_pct, r->nslices,
		r->slice_ms);
	fputc('\n', out);
}

/* "500 ms" or "1 s": a slice's length for people */
static const char *slice_words(int ms, char *buf, size_t size)
{
	if (ms % 1000 == 0)
		snprintf(buf, size, "%d s", ms / 1000);
	else
		snprintf(buf, size, "%d ms", ms);
	return buf;
}

void sb_reference_words(FILE *out, const struct sb_reference *r)
{
	char rate[64], sl[32];
	int unsteady = r->span_pct >= SB_REFERENCE_UNSTEADY_PCT;

	fprintf(out, "%s: the reference loop's %s rates span %.1f%% within %.1f s (sd %.1f%%, median %s "
		"iterations/s, %d slices)%s\n", unsteady ? "unsteady" : "steady",
		slice_words(r->slice_ms, sl, sizeof(sl)), r->span_pct, r->seconds, r->sd_pct,
		sb_rate_human(r->median, rate, sizeof(rate)), r->nslices,
		unsteady ? ": sweeps minutes apart will differ by more than their runs say" :
		": seconds only; minutes may still drift (selftest/bench/steadiness.sh watches longer)");
}

int sb_reference_cmd(long long ms, long long n, int brief, int series)
{
	static struct sb_reference r;	/* (its slices: too many for the stack) */

	if (ms / n < 1)
		sb_usage_error("reference: --ms %lld in %lld slices is under 1 ms a slice", ms, n);
	if (sb_reference_run(&r, (int)n, (int)(ms / n)) < 0)
		sb_die(SB_EXIT_ENV, "reference: the monotonic clock failed: no reading");
	if (series) {
		printf("# slice\tend_s\trate (loop iterations/s)\n");
		for (int i = 0; i < r.nslices; i++)
			printf("%d\t%.3f\t%.0f\n", i + 1, r.ends[i], r.rates[i]);
	}
	if (!brief) {
		sb_reference_words(stdout, &r);
		printf("as meta's reference_start and reference_end record it: ");
	}
	sb_reference_line(stdout, &r);
	sb_flush_stdout();
	return SB_EXIT_OK;
}
