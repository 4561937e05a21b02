/* Testcase parameters (--param name=value): setting and listing those the testcase registered (api.c). */
#include <stdio.h>
#include <string.h>

#include "api.h"
#include "params.h"
#include "util.h"

static struct sb_param *find(const char *name, size_t len)
{
	for (struct sb_param *p = sb_api_params(); p; p = p->next)
		if (strlen(p->name) == len && strncmp(p->name, name, len) == 0)
			return p;
	return NULL;
}

static void known_names(char *buf, size_t size)
{
	size_t off = 0;

	buf[0] = '\0';
	for (struct sb_param *p = sb_api_params(); p && off < size; p = p->next)
		off += snprintf(buf + off, size - off, "%s%s", off ? ", " : "", p->name);
}

void sb_params_set(const char *kv)
{
	const char *eq = strchr(kv, '=');
	struct sb_param *p;
	char names[512], opt[160];

	if (!eq || eq == kv)
		sb_die(SB_EXIT_USAGE, "--param: '%s' is not name=value", kv);
	p = find(kv, (size_t)(eq - kv));
	if (!p) {
		known_names(names, sizeof(names));
		sb_die(SB_EXIT_USAGE, "--param: unknown parameter '%.*s' (%s%s)",
		       (int)(eq - kv), kv,
		       sb_api_params() ? "this testcase has: " : "this testcase has no parameters",
		       names);
	}
	if (p->ival) {
		snprintf(opt, sizeof(opt), "--param %s", p->name);
		*p->ival = sb_parse_ll(opt, eq + 1, p->min, p->max);
	} else {
		*p->sval = eq + 1;
	}
}

void sb_params_usage(FILE *f)
{
	if (!sb_api_params())
		return;
	fprintf(f, "\nParameters of this testcase (--param name=value):\n");
	for (struct sb_param *p = sb_api_params(); p; p = p->next) {
		if (p->ival)
			fprintf(f, "  %s=%lld  %s (%lld..%lld)\n", p->name, p->idef,
				p->help, p->min, p->max);
		else
			fprintf(f, "  %s=%s  %s\n", p->name, p->sdef, p->help);
	}
}

void sb_params_info(FILE *f)
{
	for (struct sb_param *p = sb_api_params(); p; p = p->next) {
		if (p->ival)
			fprintf(f, "param=%s\t%lld\tint %lld..%lld\t%s\n", p->name,
				p->idef, p->min, p->max, p->help);
		else
			fprintf(f, "param=%s\t%s\tstring\t%s\n", p->name, p->sdef, p->help);
	}
}
