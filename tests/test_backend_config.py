"""Backend lookup in the backends package: configurations as text, ``available()`` from the
declared solver module, sessions as context managers."""

from __future__ import annotations

import shutil

import pytest
from _puzzles import square

from kakurolab.backends import BACKENDS, Backend, Config, get_backend
from kakurolab.backends.pysat import PySATBackend
from kakurolab.errors import KakuroError


def test_get_backend_takes_a_configuration() -> None:
    backend = get_backend("pysat:encoding=fast,solver=g4")
    assert isinstance(backend, PySATBackend)
    assert backend.solver == "glucose4"
    assert backend.options["encoding"] == str(Config.parse("pysat:encoding=fast").backend().spec)
    # keyword options add to the ones in the text
    assert get_backend("pysat:encoding=fast", solver="g4").solver == "glucose4"
    with pytest.raises(KakuroError, match="does not take option"):
        get_backend("pysat:encodng=fast")


@pytest.mark.parametrize("name", list(BACKENDS))
def test_available_reads_the_declared_module(name: str) -> None:
    cls = BACKENDS[name]
    assert "available" not in vars(cls)  # written once, in the base class
    program = cls.requires_program is None or shutil.which(cls.requires_program) is not None
    assert cls.available() == (program and (cls.requires is None or _importable(cls.requires)))


def _importable(module: str) -> bool:
    import importlib

    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True


def test_missing_module_is_unavailable() -> None:
    class Ghost(PySATBackend):
        requires = "kakurolab_no_such_solver_module"

    assert not Ghost.available()
    assert issubclass(Ghost, Backend)


def test_session_is_a_context_manager() -> None:
    closed = []
    backend = get_backend("pysat:encoding=fast")
    with backend.open(square((4, 6), (3, 7))) as session:
        inner = session.inner  # type: ignore[attr-defined]
        original = inner.close
        inner.close = lambda: (closed.append(True), original())
        assert session.next()[1] is not None
    assert closed == [True]
