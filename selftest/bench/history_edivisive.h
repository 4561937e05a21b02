/* The comparator of history_sim: E-divisive means with Student's t on each split (Otava's way), the same error control. */
#ifndef SCALEBENCH_HISTORY_EDIVISIVE_H
#define SCALEBENCH_HISTORY_EDIVISIVE_H

#include "history/changepoint.h"

/* sb_cp_detect's contract (series of equal length), only series, at, pct and p filled. */
int ed_detect(const struct sb_cp_series *s, size_t ns, double alpha, size_t min_seg,
	      struct sb_cp_change **out, size_t *nout);

#endif
