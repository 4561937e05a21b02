/* signal1: raise SIGUSR1 to the calling task and run its empty handler; one count per delivered signal.
 * Stresses: signal generation and delivery to self (siglock, signal frame setup, rt_sigreturn). */
#include <signal.h>
#include <string.h>

#include "testcase.h"

char *testcase_description = "signal delivery";

/* raise() targets the calling thread, so each task sees only its own deliveries. */
static __thread volatile sig_atomic_t delivered;

static void on_usr1(int sig)
{
	(void)sig;
	delivered = 1;
}

void testcase(unsigned long long *iterations, unsigned long nr)
{
	struct sigaction sa;

	(void)nr;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	if (sigemptyset(&sa.sa_mask) < 0 || sigaction(SIGUSR1, &sa, NULL) < 0)
		sb_fatal("sigaction(SIGUSR1)");
	for (;;) {
		delivered = 0;
		if (raise(SIGUSR1) != 0)
			sb_fatal("raise(SIGUSR1)");
		/* POSIX: raise() returns only after the handler has run. */
		if (!delivered)
			sb_fatalx("SIGUSR1 raised but its handler did not run");
		sb_count(iterations);
	}
}
