/* Linked into <test>_processes: every task is a process. */
int sb_threads_mode(void)
{
	return 0;
}
