/* Topology (hwloc) and task placement: which PU each task is bound to. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "topology.h"
#include "util.h"

hwloc_topology_t sb_topo;
static int restricted;	/* --cpus given */

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);

	if (!p)
		sb_die(SB_EXIT_ENV, "out of memory placing %zu tasks", n);
	return p;
}

static void restrict_to(const char *cpus)
{
	hwloc_bitmap_t want = hwloc_bitmap_alloc();
	hwloc_const_bitmap_t have = hwloc_topology_get_topology_cpuset(sb_topo);
	char avail[256];

	if (!want)
		sb_die(SB_EXIT_ENV, "out of memory");
	hwloc_bitmap_list_snprintf(avail, sizeof(avail), have);
	if (hwloc_bitmap_list_sscanf(want, cpus) < 0 || hwloc_bitmap_iszero(want) ||
	    hwloc_bitmap_weight(want) < 0)
		sb_die(SB_EXIT_USAGE, "--cpus: '%s' is not a CPU list like 0-3,8 (this machine has %s)",
		       cpus, avail);
	if (!hwloc_bitmap_isincluded(want, have))
		sb_die(SB_EXIT_USAGE, "--cpus: '%s' names PUs this machine does not have (it has %s)",
		       cpus, avail);
	if (hwloc_topology_restrict(sb_topo, want, 0) < 0)
		sb_die(SB_EXIT_ENV, "--cpus: hwloc could not restrict the topology to '%s': %s",
		       cpus, strerror(errno));
	hwloc_bitmap_free(want);
	restricted = 1;
}

void sb_topology_load(const char *cpus)
{
	const char *synth = getenv("HWLOC_SYNTHETIC");
	const char *xml = getenv("HWLOC_XMLFILE");

	/* The library's ABI must match the headers we were built with. */
	if ((hwloc_get_api_version() >> 16) != (HWLOC_API_VERSION >> 16))
		sb_die(SB_EXIT_ENV, "hwloc library %#x does not match the headers %#x: rebuild",
		       hwloc_get_api_version(), HWLOC_API_VERSION);
	if (hwloc_topology_init(&sb_topo) < 0)
		sb_die(SB_EXIT_ENV, "hwloc_topology_init: %s", strerror(errno));
	/* Set them ourselves so a typo is an error, not a silent fallback to this machine. */
	if (synth && *synth && hwloc_topology_set_synthetic(sb_topo, synth) < 0)
		sb_die(SB_EXIT_USAGE, "HWLOC_SYNTHETIC='%s' is not a valid synthetic topology", synth);
	if (synth && *synth)
		xml = NULL;
	if (xml && *xml) {
		struct stat st;

		if (stat(xml, &st) == 0 && S_ISDIR(st.st_mode))
			sb_die(SB_EXIT_USAGE, "HWLOC_XMLFILE='%s' is a directory, not an hwloc XML topology", xml);
		if (stat(xml, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0)
			sb_die(SB_EXIT_USAGE, "HWLOC_XMLFILE='%s' is an empty file, not an hwloc XML topology", xml);
		if (hwloc_topology_set_xml(sb_topo, xml) < 0)
			sb_die(SB_EXIT_USAGE, "HWLOC_XMLFILE='%s' cannot be loaded: %s", xml, strerror(errno));
	}
	if (hwloc_topology_load(sb_topo) < 0) {
		int e = errno;

		/* The usual cause is the file or string the user gave: name it. */
		if (synth && *synth)
			sb_die(SB_EXIT_USAGE, "HWLOC_SYNTHETIC='%s' cannot be loaded: %s", synth, strerror(e));
		if (xml && *xml)
			sb_die(SB_EXIT_USAGE, "HWLOC_XMLFILE='%s' is not a valid hwloc XML topology (%s)",
			       xml, strerror(e));
		sb_die(SB_EXIT_ENV, "hwloc_topology_load: %s", strerror(e));
	}
	if (cpus)
		restrict_to(cpus);
}

void sb_topology_describe(char *buf, size_t size)
{
	snprintf(buf, size, "packages=%d numa=%d cores=%d pus=%d",
		 hwloc_get_nbobjs_by_type(sb_topo, HWLOC_OBJ_PACKAGE),
		 hwloc_get_nbobjs_by_type(sb_topo, HWLOC_OBJ_NUMANODE),
		 hwloc_get_nbobjs_by_type(sb_topo, HWLOC_OBJ_CORE),
		 hwloc_get_nbobjs_by_type(sb_topo, HWLOC_OBJ_PU));
}

static int ancestor_index(hwloc_obj_t pu, hwloc_obj_type_t type)
{
	hwloc_obj_t a = hwloc_get_ancestor_obj_by_type(sb_topo, type, pu);

	return a ? (int)a->logical_index : -1;
}

static int numa_of(int pu_os)
{
	hwloc_obj_t node = NULL;

	while ((node = hwloc_get_next_obj_by_type(sb_topo, HWLOC_OBJ_NUMANODE, node)))
		if (hwloc_bitmap_isset(node->cpuset, (unsigned)pu_os))
			return (int)node->logical_index;
	return -1;
}

/* Fill p from any cpuset: its first PU is where the task goes. */
static void place_at(struct sb_place *p, hwloc_const_bitmap_t set)
{
	hwloc_obj_t pu;

	p->set = hwloc_bitmap_dup(set);
	if (!p->set)
		sb_die(SB_EXIT_ENV, "out of memory");
	/* One PU, so a task never migrates between hardware threads. */
	hwloc_bitmap_singlify(p->set);
	p->pu = hwloc_bitmap_first(p->set);
	pu = hwloc_get_pu_obj_by_os_index(sb_topo, (unsigned)p->pu);
	p->core = pu ? ancestor_index(pu, HWLOC_OBJ_CORE) : -1;
	p->package = pu ? ancestor_index(pu, HWLOC_OBJ_PACKAGE) : -1;
	p->numa = numa_of(p->pu);
}

/*
 * Order spread places round-robin over the tree: consecutive tasks go to
 * different packages, then different NUMA nodes, then cores.
 */
struct spread_key {
	int rank_in_numa, numa_rank, pkg_rank;
	struct sb_place place;
};

static int cmp_spread(const void *a, const void *b)
{
	const struct spread_key *x = a, *y = b;

	if (x->rank_in_numa != y->rank_in_numa)
		return x->rank_in_numa < y->rank_in_numa ? -1 : 1;
	if (x->numa_rank != y->numa_rank)
		return x->numa_rank < y->numa_rank ? -1 : 1;
	if (x->pkg_rank != y->pkg_rank)
		return x->pkg_rank < y->pkg_rank ? -1 : 1;
	return x->place.pu < y->place.pu ? -1 : x->place.pu > y->place.pu;
}

static void spread(struct sb_placement *out, unsigned n, int depth)
{
	hwloc_obj_t root = hwloc_get_root_obj(sb_topo);
	hwloc_bitmap_t *sets = xcalloc(n, sizeof(*sets));
	struct spread_key *k = xcalloc(n, sizeof(*k));

	for (unsigned i = 0; i < n; i++)
		if (!(sets[i] = hwloc_bitmap_alloc()))
			sb_die(SB_EXIT_ENV, "out of memory");
	if (hwloc_distrib(sb_topo, &root, 1, sets, n, depth, 0) < 0)
		sb_die(SB_EXIT_ENV, "hwloc_distrib: %s", strerror(errno));
	/* hwloc_distrib returns the sets in tree order, so each package's and
	 * each NUMA node's places are contiguous: rank them by counting changes. */
	int pkg_rank = 0, numa_rank = 0, in_numa = 0;
	for (unsigned i = 0; i < n; i++) {
		place_at(&k[i].place, sets[i]);
		hwloc_bitmap_free(sets[i]);
		if (i > 0 && k[i].place.package != k[i - 1].place.package) {
			pkg_rank++;
			numa_rank = in_numa = 0;
		} else if (i > 0 && k[i].place.numa != k[i - 1].place.numa) {
			numa_rank++;
			in_numa = 0;
		} else if (i > 0) {
			in_numa++;
		}
		k[i].pkg_rank = pkg_rank;
		k[i].numa_rank = numa_rank;
		k[i].rank_in_numa = in_numa;
	}
	qsort(k, n, sizeof(*k), cmp_spread);
	for (unsigned i = 0; i < n; i++)
		out->place[i] = k[i].place;
	free(k);
	free(sets);
}

void sb_placement_compute(enum sb_policy policy, unsigned long ntasks,
			  struct sb_placement *out)
{
	int ncores = hwloc_get_nbobjs_by_type(sb_topo, HWLOC_OBJ_CORE);
	int npus = hwloc_get_nbobjs_by_type(sb_topo, HWLOC_OBJ_PU);
	hwloc_obj_type_t type = HWLOC_OBJ_CORE;

	*out = (struct sb_placement){ .units = (unsigned long)ncores, .unit = "cores" };
	if (policy == SB_PLACE_PUS || policy == SB_PLACE_NONE || ncores <= 0) {
		out->no_cores = policy != SB_PLACE_PUS && policy != SB_PLACE_NONE;
		type = HWLOC_OBJ_PU;
		out->units = (unsigned long)npus;
		out->unit = "PUs";
	}

	if (policy == SB_PLACE_NONE && restricted) {
		/* No per-task binding, but --cpus still confines every task. */
		out->nplaces = 1;
		out->place = xcalloc(1, sizeof(*out->place));
		out->place[0] = (struct sb_place){
			.set = hwloc_bitmap_dup(hwloc_topology_get_topology_cpuset(sb_topo)),
			.pu = -1, .core = -1, .numa = -1, .package = -1 };
		if (!out->place[0].set)
			sb_die(SB_EXIT_ENV, "out of memory");
	} else if (policy != SB_PLACE_NONE) {
		out->nplaces = ntasks < out->units ? ntasks : out->units;
		out->place = xcalloc(out->nplaces, sizeof(*out->place));
		if (policy == SB_PLACE_SPREAD)
			spread(out, (unsigned)out->nplaces, hwloc_get_type_depth(sb_topo, type));
		else
			for (unsigned long i = 0; i < out->nplaces; i++)
				place_at(&out->place[i],
					 hwloc_get_obj_by_type(sb_topo, type, (unsigned)i)->cpuset);
	}

	out->cpus = hwloc_bitmap_alloc();
	if (!out->cpus)
		sb_die(SB_EXIT_ENV, "out of memory");
	if (policy == SB_PLACE_NONE)
		hwloc_bitmap_copy(out->cpus, hwloc_topology_get_topology_cpuset(sb_topo));
	for (unsigned long i = 0; i < out->nplaces; i++)
		hwloc_bitmap_or(out->cpus, out->cpus, out->place[i].set);
}

void sb_placement_warn(const struct sb_placement *pl, unsigned long ntasks)
{
	if (pl->no_cores)
		sb_warn("note: hwloc reports no cores here; placing tasks on PUs");
	if (ntasks > pl->units)
		sb_warn("oversubscribed: %lu tasks on %lu %s", ntasks, pl->units, pl->unit);
}

static void print_index(FILE *f, int v)
{
	if (v < 0)
		fprintf(f, " -");
	else
		fprintf(f, " %d", v);
}

void sb_placement_print(FILE *f, const struct sb_placement *pl, unsigned long ntasks)
{
	fprintf(f, "task pu core numa package\n");
	for (unsigned long i = 0; i < ntasks; i++) {
		fprintf(f, "%lu", i);
		if (!pl->nplaces) {
			fprintf(f, " - - - -\n");
			continue;
		}
		const struct sb_place *p = &pl->place[i % pl->nplaces];
		print_index(f, p->pu);
		print_index(f, p->core);
		print_index(f, p->numa);
		print_index(f, p->package);
		fputc('\n', f);
	}
}

int sb_bind_self(const struct sb_place *p)
{
	return hwloc_set_cpubind(sb_topo, p->set, HWLOC_CPUBIND_THREAD);
}
