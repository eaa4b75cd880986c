/* Opening a file that must be a regular one, without blocking on what is not. */
#ifndef DAMIERA_REGULAR_FILE_H
#define DAMIERA_REGULAR_FILE_H

#include <stdio.h>

/* path opened for reading ("rb") when it is a regular file. The open itself does not block
 * (O_NONBLOCK, cleared once the path is known to be a regular file), so a FIFO with no writer
 * is refused rather than waited on. Returns the stream; NULL with errno set when the path
 * cannot be opened (*kind left NULL); or NULL with *kind naming what the path is instead
 * ("a FIFO", "a directory", "a character device", "a block device", "a socket", "something
 * else") for a message such as "PATH: a FIFO, not a regular file". */
FILE *open_regular(const char *path, const char **kind);

#endif
