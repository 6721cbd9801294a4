"""The one way kakurolab writes an output file: whole or not at all.

Every file a command writes goes through :func:`write_text` / :func:`write_bytes` (or
:func:`replacing` for writers that want a file object, such as matplotlib): the bytes go to a
temporary file in the target's directory, which then replaces the target with ``os.replace``.
A full disk, a kill or an error midway therefore leaves the old file as it was and no
temporary file behind.  The new file gets the mode of the file it replaces, else what ``open``
would give a new file (0644 under umask 022; ``mkstemp``'s 0600 is for secrets, not puzzles).
A symlink target is written through: its destination is replaced and the link survives.
A target that exists and is not a regular file (a device such as ``/dev/null``, a FIFO,
``/dev/stdout`` on a pipe) is written in place, never replaced: renaming over it would destroy
the node (as root, ``/dev/null`` itself).  ``-`` is standard output.  Any ``OSError``, a full
device's ENOSPC included, becomes one :class:`OutputError` line naming the path.

Input goes through :func:`read_input`: a regular file (or ``-``, standard input) read to at
most :data:`MAX_INPUT_BYTES` + 1 bytes.  A device, a FIFO or a socket is refused before a
byte is read (``/dev/zero`` never ends, a FIFO may never open), and a file over the limit is
refused from its size.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import IO

from .errors import KakuroError


class OutputError(KakuroError, OSError):
    """An output file that cannot be written (missing directory, a directory, full disk)."""


def write_text(path: str | Path, text: str) -> None:
    """Write ``text`` (UTF-8) to ``path`` atomically."""
    write_bytes(path, text.encode("utf-8"))


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write ``data`` to ``path`` atomically."""
    with replacing(path) as handle:
        handle.write(data)


DASH = "-"
"""The path that means standard output (for output) or standard input (for input)."""


@contextmanager
def replacing(path: str | Path) -> Iterator[IO[bytes]]:
    """A binary file object whose content replaces ``path`` when the block ends without error;
    on any error the temporary file is removed and ``path`` is untouched.  Standard output
    (``-``) and targets that are not regular files are written in place instead."""
    try:
        special = _special_target(path)
        if special is not None:
            with special as handle:
                yield handle
            return
        with _atomically(_destination(Path(path))) as handle:
            yield handle
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise OutputError(f"{path}: cannot write: {reason}") from None


def _special_target(path: str | Path) -> IO[bytes] | None:
    """The open target when ``path`` is written in place (stdout, a device, a FIFO), else
    None.  ``os.stat`` follows links: ``/dev/stdout`` is a link to a pipe or a terminal."""
    if str(path) == DASH:
        sys.stdout.flush()
        return os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    if _names_a_descriptor(path):  # /dev/stdout onto a file: that file, not a new one
        return open(path, "ab")
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return None  # a new file (or a dangling link): made atomically
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return open(path, "wb")


@contextmanager
def _atomically(target: Path) -> Iterator[IO[bytes]]:
    tmp: str | None = None
    try:
        if target.is_dir():
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name[:64]}.", suffix=".tmp")
        os.fchmod(fd, _new_file_mode(target))
        with os.fdopen(fd, "wb") as handle:
            yield handle
        os.replace(tmp, target)
        tmp = None
    finally:
        if tmp is not None:
            with suppress(OSError):
                os.unlink(tmp)


def check_writable(path: str | Path) -> None:
    """Fail early, in one line, when ``path`` cannot be an output file (its directory is
    missing, or it is a directory), before a command spends minutes on what it would write.
    The write itself still reports anything this cannot foresee (a full disk)."""
    if str(path) == DASH or _is_special(path) or _names_a_descriptor(path):
        return
    target = _destination(Path(path))
    if target.is_dir():
        raise OutputError(f"{path}: cannot write: {os.strerror(errno.EISDIR)}")
    if not target.parent.is_dir():
        raise OutputError(f"{path}: cannot write: no such directory {str(target.parent)!r}")


_DESCRIPTOR = re.compile(r"/(proc/(self|\d+)|dev)/fd/\d+")


def _names_a_descriptor(path: str | Path) -> bool:
    """Whether ``path`` is, or links through, an open descriptor (``/dev/stdout`` ->
    ``/proc/self/fd/1``): replacing its destination would miss the descriptor's file."""
    here = str(path)
    for _ in range(40):  # the kernel's own bound on links followed
        if _DESCRIPTOR.fullmatch(here):
            return True
        if not os.path.islink(here):
            return False
        here = os.path.join(os.path.dirname(here), os.readlink(here))
    return False


def _is_special(path: str | Path) -> bool:
    """Whether ``path`` exists and is neither a regular file nor a directory."""
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return False
    return not (stat.S_ISREG(mode) or stat.S_ISDIR(mode))


def _destination(path: Path) -> Path:
    """The file to replace: a symlink's (final) destination, so the link itself survives."""
    if path.is_symlink():
        return Path(os.path.realpath(path))
    return path


def _new_file_mode(path: Path) -> int:
    """The mode of the file being replaced, else what ``open`` gives a new file."""
    try:
        return stat.S_IMODE(path.stat().st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


MAX_NAME = 80
"""The longest file name stem :func:`safe_name` makes (well under every file system's 255)."""

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def safe_name(text: str, *, fallback: str = "puzzle") -> str:
    """A file name stem for ``text`` (a puzzle id from a file we did not write).

    Only ``[A-Za-z0-9._-]``, no leading dot or dash, at most :data:`MAX_NAME` characters, never
    a path: an id can never choose where we write.  A text that had to change gets a short
    hash of the original, so two ids that clean up alike (``a/b``, ``a_b``) never share a
    file; a clean id is kept as it is.
    """
    name = _UNSAFE.sub("_", text).lstrip(".-")[:MAX_NAME] or fallback
    if name == text:
        return name
    digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:8]
    return f"{name[: MAX_NAME - 9]}-{digest}"


MAX_INPUT_BYTES = 64_000_000
"""The largest input file read (64 MB): far above any real collection (the largest shipped
file is under 1 MB, a pycsp3 grid at the size limit about 0.3 MB), far below what would
exhaust memory."""


def read_input(path: str | Path, *, limit: int | None = None, what: str = "") -> bytes:
    """The bytes of an input file, or one :class:`InputError` line naming the path (``what``
    names the option it came from): :func:`read_limited` with every ``OSError`` in one line."""
    label = f"{what}: " if what else ""
    try:
        return read_limited(path, limit=limit, what=what)
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise InputError(f"{label}{path}: cannot read: {reason}") from None


def read_limited(path: str | Path, *, limit: int | None = None, what: str = "") -> bytes:
    """The bytes of a regular file, or of standard input for ``-``, read to at most ``limit``
    (default :data:`MAX_INPUT_BYTES`) + 1 bytes: more is refused (:class:`InputError`), not
    truncated.  A device, a FIFO or a socket is refused before a byte is read; the file is
    opened without blocking, so a FIFO with no writer is refused, not waited on.  Errors of
    the file system (missing, a directory, no permission) stay ``OSError`` for the caller."""
    limit = MAX_INPUT_BYTES if limit is None else limit
    label = f"{what}: " if what else ""
    if str(path) == DASH:
        data = sys.stdin.buffer.read(limit + 1)
    else:
        data = _read_regular(path, limit, label)
    if len(data) > limit:
        raise TooLarge(f"{label}{path}: larger than {limit:,} bytes, the input limit")
    return data


def _read_regular(path: str | Path, limit: int, label: str) -> bytes:
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    with open(fd, "rb") as handle:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        if not stat.S_ISREG(info.st_mode):
            raise InputError(f"{label}{path}: not a regular file ({_kind(info.st_mode)})")
        if info.st_size > limit:
            raise TooLarge(f"{label}{path}: larger than {limit:,} bytes, the input limit")
        os.set_blocking(fd, True)
        return handle.read(limit + 1)


def _kind(mode: int) -> str:
    kinds = (
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((name for test, name in kinds if test(mode)), "not a file")


def read_text(path: str | Path, *, what: str = "") -> str:
    """A small input file's text (UTF-8), or one line naming the path when it is missing, a
    directory, not a regular file, too large, unreadable or not text; ``what`` names the
    option it came from (``--state``)."""
    label = f"{what}: " if what else ""
    data = read_input(path, what=what)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{label}{path}: not a UTF-8 text file (byte {exc.start + 1})") from None


class InputError(KakuroError, ValueError):
    """An input file that cannot be read as text."""


class TooLarge(InputError):
    """An input file over its limit (refused, not truncated)."""
