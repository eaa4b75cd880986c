"""Opening a file that must be a regular one, without blocking on what is not.

An ``open()`` for reading of a FIFO waits for a writer, so a FIFO named where a book, an
openings file or a PDN file is expected would hang the reader. :func:`open_regular` opens
without blocking and refuses anything that is not a regular file (a FIFO, a directory, a
device, a socket) at once, with an OSError whose ``strerror`` says what it is, so that a
reader's own ``except OSError`` reports it in that reader's words.
"""

from __future__ import annotations

import errno
import io
import os
import stat


class NotRegularFileError(OSError):
    """A path that is not a regular file: ``strerror`` says what it is instead (``"a FIFO,
    not a regular file"``), ``filename`` is the path."""


def _kind(mode: int) -> str:
    """What a path that is not a regular file is, for a message."""
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode):
        return "a character device"
    if stat.S_ISBLK(mode):
        return "a block device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "something else"


def open_regular(path: str | os.PathLike[str]) -> io.BufferedReader:
    """``path`` opened for reading in binary mode when it is a regular file. The open does
    not block (``O_NONBLOCK``, cleared once the path is known to be a regular file), so a FIFO
    with no writer is refused rather than waited on. Raises :class:`NotRegularFileError` (an
    OSError, ``strerror`` e.g. ``"a FIFO, not a regular file"``) for a path that is not a
    regular file, and OSError when it cannot be opened."""
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            kind = _kind(mode)
            code = errno.EISDIR if kind == "a directory" else errno.EINVAL
            raise NotRegularFileError(code, f"{kind}, not a regular file", os.fspath(path))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
