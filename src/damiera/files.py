"""Reading and writing files that must be regular ones, without blocking on what is not.

An ``open()`` for reading of a FIFO waits for a writer, so a FIFO named where a book, an
openings file or a PDN file is expected would hang the reader. :func:`open_regular` opens
without blocking and refuses anything that is not a regular file (a FIFO, a directory, a
device, a socket) at once, with an OSError whose ``strerror`` says what it is, so that a
reader's own ``except OSError`` reports it in that reader's words.

:func:`replace_regular` is the one way a command writes an output file whole or not at all:
through a temporary file beside the file a symlink points to, renamed over it at the end, with
the replaced file's permissions (or the umask's for a new one); a FIFO, a device or a directory
named as the output is refused with the same :class:`NotRegularFileError`.
"""

from __future__ import annotations

import contextlib
import errno
import io
import os
import secrets
import stat
from collections.abc import Iterator


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


def _refused(mode: int, path: str) -> NotRegularFileError:
    kind = _kind(mode)
    code = errno.EISDIR if kind == "a directory" else errno.EINVAL
    return NotRegularFileError(code, f"{kind}, not a regular file", path)


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
            raise _refused(mode, os.fspath(path))
        os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


@contextlib.contextmanager
def replace_regular(path: str | os.PathLike[str]) -> Iterator[io.BufferedWriter]:
    """A binary handle whose bytes replace the file at ``path`` when the ``with`` block ends
    without an exception, all at once (``os.replace`` of a temporary file beside it, so a
    reader, a crash or an error in the block never leaves half a file; the temporary file is
    removed on an error). A symlink is followed: the file it points to is replaced, the link
    kept (a dangling link's target is created). The file keeps its permission bits; a new one
    gets the umask's (``0o666 & ~umask``, as ``open(path, "w")``). Raises
    :class:`NotRegularFileError` (an OSError, ``strerror`` e.g. ``"a FIFO, not a regular
    file"``) before anything is written when ``path`` names a FIFO, a device, a directory or
    a socket, or ends with ``/``; FileNotFoundError for an empty path; OSError when it cannot
    be written."""
    name = os.fspath(path)
    if not name:
        raise FileNotFoundError(errno.ENOENT, "an empty file name", name)
    if name.endswith(("/", os.sep)):   # realpath would drop the slash and write a file
        raise NotRegularFileError(errno.EISDIR, "a folder's name (it ends with /), not a file",
                                  name)
    target = os.path.realpath(path)
    try:
        st: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise _refused(st.st_mode, os.fspath(path))
    folder, name = os.path.split(target)
    while True:
        temporary = os.path.join(folder, f".{name}.{secrets.token_hex(4)}.part")
        try:  # mode 0o666: the kernel applies the umask (and a folder's default ACL)
            fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
            break
        except FileExistsError:
            continue
    handle = os.fdopen(fd, "wb")
    try:
        with handle:
            if st is not None:
                os.fchmod(fd, stat.S_IMODE(st.st_mode))
            yield handle
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
