/* Linked into <test>_threads: every task is a thread of one task process. */
int sb_threads_mode(void)
{
	return 1;
}
