/* The exit codes of every analysis tool (docs/ARCHITECTURE.md; DESIGN.md): declared here only. */
#ifndef SCALEBENCH_EXIT_H
#define SCALEBENCH_EXIT_H

enum sb_exit {
	SB_EXIT_OK = 0,		/* done; compare: no regression */
	SB_EXIT_FAIL = 1,	/* a measurement failed, or a regression (compare's gate) */
	SB_EXIT_USAGE = 2,	/* usage or input error: the message names the argument or file:line */
	SB_EXIT_ENV = 3,	/* environment error: memory, a write, a rename */
	SB_EXIT_INTERRUPTED = 130,
};

#endif
