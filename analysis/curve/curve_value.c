/* The curve as one number a run (curve_value.h): one arithmetic and one positivity rule for compare, sb-history and sb-bisect. */
#include <math.h>

#include "curve_value.h"

size_t sb_curve_value(const double *const *v, size_t npts, size_t runs, double *out, size_t *bad)
{
	size_t got = 0;

	if (bad)
		*bad = npts;
	if (npts == 0 || runs == 0)
		return 0;
	for (size_t k = 0; k < runs; k++) {
		out[k] = 0;
		for (size_t i = 0; i < npts && !isnan(out[k]); i++) {
			if (v[i][k] > 0 && isfinite(v[i][k])) {
				out[k] += log(v[i][k]) / (double)npts;
				continue;
			}
			out[k] = NAN;
			if (bad && i < *bad)
				*bad = i;
		}
		got += !isnan(out[k]);
	}
	return got;
}

size_t sb_curve_value_pack(double *out, size_t runs)
{
	size_t m = 0;

	for (size_t k = 0; k < runs; k++)
		if (!isnan(out[k]))
			out[m++] = out[k];
	return m;
}
