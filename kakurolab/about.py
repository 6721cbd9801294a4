"""What kakurolab is, as installed: its version (the lowest layer, so the CLI may ask)."""

from __future__ import annotations


def version() -> str:
    """The installed distribution's version (pyproject.toml is its one source)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as dist_version

    try:
        return dist_version("kakurolab")
    except PackageNotFoundError:  # running from a source tree that was never installed
        return "0+unknown"
