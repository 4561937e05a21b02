/* A decimal number as the analysis tools accept it: strtod without hex, inf or nan. */
#include <math.h>
#include <stdlib.h>

#include "number.h"

static const char *digits(const char *p, int *n)
{
	*n = 0;
	while (*p >= '0' && *p <= '9') {
		p++;
		(*n)++;
	}
	return p;
}

int sb_decimal(const char *s, double *out)
{
	const char *p = s;
	char *end;
	int a, b, e;
	double v;

	if (*p == '+' || *p == '-')
		p++;
	p = digits(p, &a);
	b = 0;
	if (*p == '.')
		p = digits(p + 1, &b);
	if (a + b == 0)
		return -1;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		p = digits(p, &e);
		if (e == 0)
			return -1;
	}
	if (*p != '\0')
		return -1;
	v = strtod(s, &end);	/* errno stays for a caller refusing underflow (ERANGE) */
	if (*end != '\0' || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}
