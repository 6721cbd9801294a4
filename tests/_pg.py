"""A throwaway PostgreSQL cluster for the tests: Debian's ``postgresql`` (``initdb`` and
``pg_ctl`` from ``/usr/lib/postgresql/*/bin``, or PATH), in a temporary folder, listening on a
unix socket in that folder only (no TCP port to collide with anyone's), trust authentication.
As root the programs run as the ``postgres`` user (``runuser``): PostgreSQL refuses root.

One cluster per test process (``-n auto``: each xdist worker starts its own), one database
per test (:meth:`Cluster.database`).  The cluster runs with ``fsync=off``: the tests kill
server *processes*, never the machine, and a commit still reaches PostgreSQL before the ack.
A missing PostgreSQL fails the test (``.ci/run`` installs it), never skips.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from dataclasses import dataclass
from pathlib import Path


def bin_dir() -> Path:
    """Where ``initdb`` and ``pg_ctl`` are: Debian keeps them off PATH, per version."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("initdb")
    if on_path is None:
        raise RuntimeError("PostgreSQL is not installed: apt-get install postgresql (.ci/run)")
    return Path(on_path).parent


def _as_owner(argv: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv


@dataclass
class Cluster:
    folder: Path
    port: int = 5432

    @property
    def socket_dir(self) -> Path:
        return self.folder / "sock"

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.socket_dir}&port={self.port}"

    def database(self) -> str:
        """A new empty database; its URL."""
        import psycopg

        name = "t_" + uuid.uuid4().hex[:12]
        with psycopg.connect(self.url(), autocommit=True) as db:
            db.execute(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        pg_ctl = str(bin_dir() / "pg_ctl")
        data = str(self.folder / "data")
        subprocess.run(_as_owner([pg_ctl, "-D", data, "-m", "immediate", "-t", "10", "stop"]),
                       capture_output=True, check=False)  # fmt: skip
        shutil.rmtree(self.folder, ignore_errors=True)


def start(*, durable: bool = False) -> Cluster:
    """initdb and pg_ctl start in a fresh temporary folder (see module doc); ``durable``
    keeps PostgreSQL's default ``fsync=on`` (for load figures)."""
    folder = Path(tempfile.mkdtemp(prefix="kakuro-pg-"))
    (folder / "sock").mkdir()
    if os.geteuid() == 0:
        shutil.chown(folder, "postgres")
        shutil.chown(folder / "sock", "postgres")
    cluster = Cluster(folder)
    tools = bin_dir()
    data = str(folder / "data")
    subprocess.run(_as_owner([str(tools / "initdb"), "-D", data, "-U", "postgres", "-A", "trust",
                              "-E", "UTF8", "--no-sync"]),
                   capture_output=True, check=True)  # fmt: skip
    fsync = "on" if durable else "off"
    options = (f"-c listen_addresses='' -c unix_socket_directories='{cluster.socket_dir}' "
               f"-c port={cluster.port} -c fsync={fsync} -c max_connections=500")  # fmt: skip
    subprocess.run(_as_owner([str(tools / "pg_ctl"), "-D", data, "-o", options, "-l",
                              str(folder / "log"), "-w", "start"]),
                   capture_output=True, check=True)  # fmt: skip
    return cluster
