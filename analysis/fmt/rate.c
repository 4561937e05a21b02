/* The one formatter of an ops/s rate for people: with a unit (tables, progress) or plain (reports). */
#include <math.h>
#include <stdio.h>

#include "rate.h"

const char *sb_rate_human(double v, char *buf, size_t len)
{
	const char *u = "";

	if (isnan(v))
		return "-";
	if (v >= 1e9) {
		v /= 1e9;
		u = "G";
	} else if (v >= 1e6) {
		v /= 1e6;
		u = "M";
	} else if (v >= 1e3) {
		v /= 1e3;
		u = "K";
	}
	snprintf(buf, len, v >= 100 ? "%.0f%s" : v >= 10 ? "%.1f%s" : "%.2f%s", v, u);
	return buf;
}

const char *sb_rate_plain(char *buf, size_t len, double v)
{
	if (fabs(v) >= 100)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.4g", v);
	return buf;
}
