/* sb-topology: the hwloc facts runtest.sh needs (counts, cache and NUMA sizes, --points topology). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sb_version.h"	/* generated: $(BUILD)/gen */
#include "topology.h"
#include "util.h"

#define MAX_POINTS 4096

#ifndef HWLOC_VERSION
#define HWLOC_VERSION "unknown"
#endif

static const char usage_text[] =
	"usage: sb-topology [--cores N]\n"
	"Prints key=value lines about the topology hwloc finds (HWLOC_SYNTHETIC and\n"
	"HWLOC_XMLFILE are honoured): packages, numa, cores, pus, <unit>_per_llc,\n"
	"<unit>_per_numa, <unit>_per_package (unit cores or pus; 0 when hwloc reports\n"
	"no such object), topology_points (in cores), topology_points_pus (in PUs),\n"
	"topology and hwloc_version. --cores N: up to N 'CPU PACKAGE' lines, one CPU (its\n"
	"OS number) of each core this process may run on, by package then core, and the\n"
	"package's OS number (vm/boot.sh pins vCPUs to them).\n";

/* --cores N: one allowed PU a core, in logical order (package, then core) */
static int print_cores(const char *arg)
{
	char *end;
	long n = strtol(arg, &end, 10);
	hwloc_bitmap_t allowed = hwloc_bitmap_alloc();
	hwloc_obj_type_t core = hwloc_get_nbobjs_by_type(sb_topo, HWLOC_OBJ_CORE) > 0 ? HWLOC_OBJ_CORE : HWLOC_OBJ_PU;
	int ncores = hwloc_get_nbobjs_by_type(sb_topo, core);

	if (!*arg || *end || n < 1)
		sb_usage_error("--cores: '%s' is not a whole number >= 1", arg);
	if (!allowed)
		sb_die(SB_EXIT_ENV, "out of memory");
	if (hwloc_get_cpubind(sb_topo, allowed, HWLOC_CPUBIND_PROCESS) < 0)
		hwloc_bitmap_copy(allowed, hwloc_topology_get_complete_cpuset(sb_topo));
	for (int i = 0; i < ncores && n > 0; i++) {
		hwloc_obj_t c = hwloc_get_obj_by_type(sb_topo, core, (unsigned)i);
		hwloc_obj_t pkg = hwloc_get_ancestor_obj_by_type(sb_topo, HWLOC_OBJ_PACKAGE, c);
		int pu = -1;

		hwloc_bitmap_foreach_begin(pu, c->cpuset)
			if (hwloc_bitmap_isset(allowed, (unsigned)pu))
				break;
		hwloc_bitmap_foreach_end();
		if (pu < 0 || !hwloc_bitmap_isset(allowed, (unsigned)pu))
			continue;
		printf("%d %u\n", pu, pkg ? pkg->os_index : 0);
		n--;
	}
	hwloc_bitmap_free(allowed);
	return SB_EXIT_OK;
}


static int count_inside(hwloc_const_cpuset_t set, hwloc_obj_type_t unit)
{
	return hwloc_get_nbobjs_inside_cpuset_by_type(sb_topo, set, unit);
}

/* The outermost data (or unified) cache above the first PU: the last-level cache. */
static hwloc_obj_t first_llc(void)
{
	hwloc_obj_t o = hwloc_get_obj_by_type(sb_topo, HWLOC_OBJ_PU, 0), llc = NULL;

	for (; o; o = o->parent)
		if (hwloc_obj_type_is_dcache(o->type))
			llc = o;
	return llc;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;

	return (x > y) - (x < y);
}

struct points {
	int v[MAX_POINTS];
	int n;
};

static void add(struct points *p, int v)
{
	if (v >= 1 && p->n < MAX_POINTS)
		p->v[p->n++] = v;
}

/*
 * Running totals over the objects of `type`, in logical order: the first
 * node's worth, the first two nodes' worth ... With placement cores (task i
 * on core i, logical order) each of these fills whole nodes.
 */
static void add_cumulative(struct points *p, hwloc_obj_type_t type, hwloc_obj_type_t unit)
{
	int n = hwloc_get_nbobjs_by_type(sb_topo, type), total = 0;

	for (int i = 0; i < n; i++) {
		total += count_inside(hwloc_get_obj_by_type(sb_topo, type, (unsigned)i)->cpuset, unit);
		add(p, total);
	}
}

static int per_first(hwloc_obj_type_t type, hwloc_obj_type_t unit)
{
	hwloc_obj_t o = hwloc_get_obj_by_type(sb_topo, type, 0);

	return o ? count_inside(o->cpuset, unit) : 0;
}

/* 1, one LLC, each NUMA node's worth, each package's worth, 3/4 and all of the machine. */
static void print_points(const char *key, hwloc_obj_type_t unit)
{
	struct points p = { .n = 0 };
	hwloc_obj_t llc = first_llc();
	int all = hwloc_get_nbobjs_by_type(sb_topo, unit);

	add(&p, 1);
	if (llc)
		add(&p, count_inside(llc->cpuset, unit));
	add_cumulative(&p, HWLOC_OBJ_NUMANODE, unit);
	add_cumulative(&p, HWLOC_OBJ_PACKAGE, unit);
	add(&p, all * 3 / 4);
	add(&p, all);
	qsort(p.v, (size_t)p.n, sizeof(p.v[0]), cmp_int);
	printf("%s=", key);
	for (int i = 0; i < p.n; i++)
		if (i == 0 || p.v[i] != p.v[i - 1])
			printf("%s%d", i ? "," : "", p.v[i]);
	putchar('\n');
}

static void print_unit(const char *name, hwloc_obj_type_t unit)
{
	hwloc_obj_t llc = first_llc();

	printf("%s_per_llc=%d\n", name, llc ? count_inside(llc->cpuset, unit) : 0);
	printf("%s_per_numa=%d\n", name, per_first(HWLOC_OBJ_NUMANODE, unit));
	printf("%s_per_package=%d\n", name, per_first(HWLOC_OBJ_PACKAGE, unit));
}

int main(int argc, char **argv)
{
	char desc[256];
	hwloc_obj_type_t core = HWLOC_OBJ_CORE;

	sb_util_init(argv[0]);
	if (argc == 2 && (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0)) {
		fputs(usage_text, stdout);
		return SB_EXIT_OK;
	}
	if (argc == 2 && strcmp(argv[1], "--version") == 0) {
		printf("%s (scalebench) %s git %s\n", sb_prog, SB_VERSION, SB_GIT_REVISION);
		return SB_EXIT_OK;
	}
	if (argc == 3 && strcmp(argv[1], "--cores") == 0) {
		sb_topology_load(NULL);
		return print_cores(argv[2]);
	}
	if (argc > 1)
		sb_usage_error("unexpected argument '%s'", argv[1]);
	sb_topology_load(NULL);
	/* Some virtual machines show no cores: then a PU is the unit, as the runner places. */
	if (hwloc_get_nbobjs_by_type(sb_topo, HWLOC_OBJ_CORE) <= 0)
		core = HWLOC_OBJ_PU;

	sb_topology_describe(desc, sizeof(desc));
	printf("hwloc_version=%s\n", HWLOC_VERSION);
	printf("topology=%s\n", desc);
	printf("packages=%d\n", hwloc_get_nbobjs_by_type(sb_topo, HWLOC_OBJ_PACKAGE));
	printf("numa=%d\n", hwloc_get_nbobjs_by_type(sb_topo, HWLOC_OBJ_NUMANODE));
	printf("cores=%d\n", hwloc_get_nbobjs_by_type(sb_topo, core));
	printf("pus=%d\n", hwloc_get_nbobjs_by_type(sb_topo, HWLOC_OBJ_PU));
	print_unit("cores", core);
	print_unit("pus", HWLOC_OBJ_PU);
	print_points("topology_points", core);
	print_points("topology_points_pus", HWLOC_OBJ_PU);
	sb_flush_stdout();
	return SB_EXIT_OK;
}
