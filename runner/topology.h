/* Topology (hwloc) and task placement: which PU each task is bound to. */
#ifndef SCALEBENCH_TOPOLOGY_H
#define SCALEBENCH_TOPOLOGY_H

#include <stdio.h>
#include <hwloc.h>

#include "options.h"

struct sb_place {
	hwloc_bitmap_t set;	/* one PU */
	int pu;			/* OS index, as the kernel numbers CPUs */
	int core, numa, package;	/* logical indexes, -1 when absent */
};

/* Task i runs on place[i % nplaces]; nplaces == 0 means unbound. */
struct sb_placement {
	unsigned long nplaces;
	struct sb_place *place;
	hwloc_bitmap_t cpus;	/* every PU the tasks may run on, for idle % */
	unsigned long units;	/* cores or PUs the policy places on... */
	const char *unit;	/* ..."cores" or "PUs" */
	int no_cores;		/* hwloc shows no cores: placed on PUs instead */
};

extern hwloc_topology_t sb_topo;

/* Load (honouring HWLOC_SYNTHETIC / HWLOC_XMLFILE) and restrict to --cpus; exits on error. */
void sb_topology_load(const char *cpus);
/* "packages=2 numa=4 cores=48 pus=96" */
void sb_topology_describe(char *buf, size_t size);
/* Where each task goes; prints nothing (a --check must be silent). */
void sb_placement_compute(enum sb_policy policy, unsigned long ntasks,
			  struct sb_placement *out);
/* The notes a run prints: no cores, more tasks than places. */
void sb_placement_warn(const struct sb_placement *pl, unsigned long ntasks);
void sb_placement_print(FILE *f, const struct sb_placement *pl, unsigned long ntasks);
/* Bind the calling thread to place p; returns -1 with errno set on failure. */
int sb_bind_self(const struct sb_place *p);

#endif
