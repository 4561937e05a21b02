/* tlb_flush2: write, then MADV_DONTNEED, each page of a 1 MB anonymous mapping (meant as threads).
 * Stresses: TLB shootdown IPIs (flush_tlb_mm_range) to the partner's CPU; one count per page. */
#define _GNU_SOURCE
#include "tlb_flush.h"

#define MEMSIZE (1024UL * 1024)

char *testcase_description = "TLB flush of anonymous memory private mapping";

void testcase(unsigned long long *iterations, unsigned long nr)
{
	(void)nr;
	tlb_flush_loop(iterations, -1, MEMSIZE, MAP_PRIVATE | MAP_ANONYMOUS, 0,
		       "MADV_DONTNEED did not drop an anonymous page");
}
