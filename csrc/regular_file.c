/* Opening a file that must be a regular one, without blocking on what is not
 * (regular_file.h). */
#define _POSIX_C_SOURCE 200809L /* open, fstat, fdopen under -std=c11 */
#include "regular_file.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a path that is not a regular file is, for a message. */
static const char *kind_of(mode_t mode)
{
    return S_ISDIR(mode)    ? "a directory"
           : S_ISFIFO(mode) ? "a FIFO"
           : S_ISCHR(mode)  ? "a character device"
           : S_ISBLK(mode)  ? "a block device"
           : S_ISSOCK(mode) ? "a socket"
                            : "something else";
}

FILE *open_regular(const char *path, const char **kind)
{
    *kind = NULL;
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return NULL;
    struct stat st;
    FILE *f = NULL;
    if (fstat(fd, &st) == 0) {
        if (!S_ISREG(st.st_mode)) {
            *kind = kind_of(st.st_mode);
        } else {
            int flags = fcntl(fd, F_GETFL);
            if (flags >= 0 && fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0)
                f = fdopen(fd, "rb");
        }
    }
    if (!f) {
        int saved = errno;
        close(fd);
        errno = saved;
    }
    return f;
}
