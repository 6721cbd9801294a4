"""The one way kakurolab writes an output file: whole or not at all.

Every file a command writes goes through :func:`write_text` / :func:`write_bytes` (or
:func:`replacing` for writers that want a file object, such as matplotlib): the bytes go to a
temporary file in the target's directory, which then replaces the target with ``os.replace``.
A full disk, a kill or an error midway therefore leaves the old file as it was and no
temporary file behind.  The new file gets the mode of the file it replaces, else what ``open``
would give a new file (0644 under umask 022; ``mkstemp``'s 0600 is for secrets, not puzzles).
A symlink target is written through: its destination is replaced and the link survives.
Any ``OSError`` becomes one :class:`OutputError` line naming the path.
"""

from __future__ import annotations

import errno
import hashlib
import os
import re
import stat
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


@contextmanager
def replacing(path: str | Path) -> Iterator[IO[bytes]]:
    """A binary file object whose content replaces ``path`` when the block ends without error;
    on any error the temporary file is removed and ``path`` is untouched."""
    target = _destination(Path(path))
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
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise OutputError(f"{path}: cannot write: {reason}") from None
    finally:
        if tmp is not None:
            with suppress(OSError):
                os.unlink(tmp)


def check_writable(path: str | Path) -> None:
    """Fail early, in one line, when ``path`` cannot be an output file (its directory is
    missing, or it is a directory), before a command spends minutes on what it would write.
    The write itself still reports anything this cannot foresee (a full disk)."""
    target = _destination(Path(path))
    if target.is_dir():
        raise OutputError(f"{path}: cannot write: {os.strerror(errno.EISDIR)}")
    if not target.parent.is_dir():
        raise OutputError(f"{path}: cannot write: no such directory {str(target.parent)!r}")


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


def read_text(path: str | Path, *, what: str = "") -> str:
    """A small input file's text (UTF-8), or one line naming the path when it is missing, a
    directory, unreadable or not text; ``what`` names the option it came from (``--state``)."""
    label = f"{what}: " if what else ""
    try:
        return Path(path).read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InputError(f"{label}{path}: not a UTF-8 text file (byte {exc.start + 1})") from None
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise InputError(f"{label}{path}: cannot read: {reason}") from None


class InputError(KakuroError, ValueError):
    """An input file that cannot be read as text."""
