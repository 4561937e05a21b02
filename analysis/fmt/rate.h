/* The one formatter of an ops/s rate for people: with a unit (tables, progress) or plain (reports). */
#ifndef SCALEBENCH_RATE_H
#define SCALEBENCH_RATE_H

#include <stddef.h>

/* v with a unit: "4.81M", "12.3K", "250"; "-" for NAN (a static string). Returns buf or "-". */
const char *sb_rate_human(double v, char *buf, size_t len);

/* v as a number: whole when |v| >= 100 ("4812345"), else 4 significant digits. Returns buf. */
const char *sb_rate_plain(char *buf, size_t len, double v);

#endif
