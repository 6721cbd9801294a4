"""The garbage collector paused while formulas are built, and encodings freed without it."""

from __future__ import annotations

import gc
import weakref

import pytest

from kakurolab.encodings import encode
from kakurolab.gcpause import gc_paused


@pytest.fixture
def collector():
    """Restore the collector's state whatever a test does to it."""
    was = gc.isenabled()
    yield
    if was:
        gc.enable()
    else:
        gc.disable()


def test_paused_inside_and_restored_after(collector) -> None:
    gc.enable()
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():  # nested: the inner block does not switch it back on
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()
    with pytest.raises(RuntimeError), gc_paused():
        raise RuntimeError  # restored on the way out of an error too
    assert gc.isenabled()


def test_a_disabled_collector_stays_disabled(collector) -> None:
    gc.disable()
    with gc_paused():
        assert not gc.isenabled()
    assert not gc.isenabled()


@pytest.mark.parametrize("spec", ["fast", "cell=order,sum=combo", "cell=log,sum=table"])
def test_an_encoding_is_freed_without_the_collector(collector, spec, pe424_puzzles) -> None:
    """No reference cycle (the cell encoding holds its pool weakly): the last reference gone,
    the encoding and its clause lists are freed at once, with the collector off."""
    gc.disable()
    enc = encode(pe424_puzzles[0], spec)
    assert not gc.isenabled()  # encode restored the state it found
    assert enc.cells.allowed  # the cell encoding still reaches its pool while it lives
    ref = weakref.ref(enc)
    del enc
    assert ref() is None
