/* tlb_flush1: write, then MADV_DONTNEED, each page of a 128 MB private file mapping (meant as threads).
 * Stresses: TLB shootdown IPIs (flush_tlb_mm_range) to the partner's CPU; one count per page. */
#define _GNU_SOURCE
#include <limits.h>
#include <unistd.h>

#include "tlb_flush.h"

#define FILESIZE (128UL * 1024 * 1024)

char *testcase_description = "TLB flush of separate file private mapping";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	char path[PATH_MAX];
	int fd;

	sb_path(path, sizeof(path), "task%lu", nr);
	fd = sb_create(path, 0, 0);
	if (ftruncate(fd, FILESIZE) < 0)
		sb_fatal("ftruncate %s to 128 MB", path);
	tlb_flush_loop(iterations, fd, FILESIZE, MAP_PRIVATE, 0,
		       "MADV_DONTNEED did not drop the private copy of a page");
}
