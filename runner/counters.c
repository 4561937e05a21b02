/* Shared memory: one padded counter slot and one control record per task; anonymous shared maps. */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "counters.h"
#include "util.h"

struct sb_counters sb_ctr = { .lock_fd = -1 };

void *sb_map_shared(size_t size)
{
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	return p == MAP_FAILED ? NULL : p;
}

void sb_counters_init(unsigned long n)
{
	size_t page = 4096;
	size_t hdr = page;
	size_t ctl = (n * sizeof(struct sb_task_ctl) + page - 1) / page * page;
	size_t slots = n * SB_SLOT_BYTES;
	char *base = sb_map_shared(hdr + ctl + slots);

	if (!base)
		sb_die(SB_EXIT_ENV, "cannot map %zu bytes of shared counters for %lu tasks: %s",
		       hdr + ctl + slots, n, strerror(errno));
	/* Control records sit apart from the counters so a task's state
	 * writes never share a line with another task's hot counter. */
	sb_ctr.n = n;
	sb_ctr.hdr = (struct sb_shared_hdr *)base;
	sb_ctr.ctl = (struct sb_task_ctl *)(base + hdr);
	sb_ctr.slots = base + hdr + ctl;
	sb_ctr.hdr->crashed_task = -1;
	sb_ctr.hdr->exited_task = -1;
}
