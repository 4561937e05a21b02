/* Where an analysis tool may rename a finished file into place: a regular file or a new name, nothing else. */
#include <errno.h>
#include <string.h>
#include <sys/stat.h>

#include "msg/msg.h"
#include "outpath.h"

static const char *kind(mode_t m)
{
	if (S_ISLNK(m))
		return "a symbolic link";
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "an unknown kind of file";
}

void sb_outpath_check(const char *path)
{
	struct stat st;

	if (*path == '\0')	/* else the rename's ENOENT said it, exit 3: "cannot rename .tmp.X to " */
		sb_die(SB_EXIT_USAGE, "the output file's name is empty");
	/* lstat: a symlink to a regular file is still a symlink, and the rename would replace it. */
	if (lstat(path, &st) < 0) {
		if (errno == ENOENT)
			return;
		sb_die(SB_EXIT_ENV, "%s: %s", path, strerror(errno));
	}
	if (!S_ISREG(st.st_mode))
		sb_die(SB_EXIT_USAGE, "%s: %s, not a regular file: not replaced (write to a regular file or a new name)",
		       path, kind(st.st_mode));
}
