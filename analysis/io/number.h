/* A decimal number as the analysis tools accept it: strtod without hex, inf or nan. */
#ifndef SCALEBENCH_NUMBER_H
#define SCALEBENCH_NUMBER_H

/*
 * s whole as [+-]digits[.digits][e[+-]digits] (or .digits), finite: 0 and *out,
 * else -1. strtod alone reads "0x10" as 16 and "inf", "nan" as numbers.
 */
int sb_decimal(const char *s, double *out);

#endif
