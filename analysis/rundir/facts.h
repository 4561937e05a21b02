/* The machine's facts meta records (sb-rundir facts). */
#ifndef SB_RUNDIR_FACTS_H
#define SB_RUNDIR_FACTS_H

#include <stdio.h>

/* host, kernel (uname -srvm), arch, os, cpu and start (process pid's BOOT_ID/STARTTIME,
 * empty where /proc cannot tell) as key=value lines on out; -1 when uname fails */
int sb_rundir_facts(long pid, FILE *out);

#endif
