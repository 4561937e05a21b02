/* The curve as one number a run (curve_value.h): one arithmetic for compare, sb-history and sb-bisect. */
#include <math.h>

#include "curve_value.h"

size_t sb_curve_value(const double *const *v, const size_t *n, size_t npts, size_t runs,
		      enum sb_curve_rule rule, double *out)
{
	if (npts == 0 || runs == 0)
		return 0;
	for (size_t i = 0; rule != SB_CURVE_ANY && i < npts; i++)
		for (size_t k = 0; k < (rule == SB_CURVE_EVERY ? n[i] : runs); k++)
			if (!(v[i][k] > 0))
				return 0;
	for (size_t k = 0; k < runs; k++)
		out[k] = 0;
	for (size_t i = 0; i < npts; i++)
		for (size_t k = 0; k < runs; k++)
			out[k] += log(v[i][k]) / (double)npts;
	return runs;
}
