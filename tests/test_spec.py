"""Encoding specs: presets, canonical form, defaults, and one-line errors for bad names."""

from __future__ import annotations

import pytest

from kakurolab.encodings import ENCODERS, PRESETS, Spec, encode, parse_spec
from kakurolab.errors import KakuroError, UnknownNameError


def test_canonical_form_is_sorted_with_defaults():
    spec = parse_spec("sum=combo")
    assert str(spec) == "alldiff=none,amo=auto,cell=direct,redundant=none,sum=combo:full"
    assert parse_spec("cell=direct , sum=combo,alldiff=none") == spec


def test_alldiff_default_depends_on_the_sum():
    assert parse_spec("sum=pb:bdd")["alldiff"] == "pairwise"
    assert parse_spec("sum=lazy")["alldiff"] == "pairwise"
    assert parse_spec("sum=table")["alldiff"] == "none"


def test_argument_default_is_filled():
    spec = parse_spec("sum=pb")
    assert spec["sum"] == "pb:best"
    assert spec.name("sum") == "pb" and spec.arg("sum") == "best"


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_every_preset_parses(name):
    spec = parse_spec(name)
    assert isinstance(spec, Spec)
    assert parse_spec(str(spec)) == spec


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("nosuchpreset", "unknown encoding preset 'nosuchpreset'"),
        ("sum=magic", "unknown sum encoding 'magic'; known: combo"),
        ("sum=combo:x", "unknown sum=combo argument 'x'; known: full, lean"),
        ("colour=red", "unknown encoding part kind 'colour'"),
        ("sum=pb:nosuch", "unknown sum=pb argument 'nosuch'"),
        ("alldiff=nosuch", "unknown alldiff encoding"),
        ("sum", "unknown encoding preset 'sum'"),
    ],
)
def test_unknown_names(text, match):
    with pytest.raises(UnknownNameError, match=match):
        parse_spec(text)


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ("sum=mdd:x", "takes no argument"),
        ("sum=pb:bdd,alldiff=none", "alldiff=none needs"),
        ("sum=combo,sum=table", "given twice"),
        ("cell=,sum=combo", "expected kind=value"),
        ("", "empty encoding spec"),
    ],
)
def test_malformed_specs(text, match):
    with pytest.raises(KakuroError, match=match):
        parse_spec(text)


def test_errors_are_one_line():
    with pytest.raises(KakuroError) as info:
        parse_spec("sum=magic")
    assert "\n" not in str(info.value)


def test_every_part_has_a_doc():
    for kind, table in ENCODERS.items():
        for name, part in table.items():
            assert part.doc, f"{kind}={name} has no doc"
            assert "\n" not in part.doc


def test_spec_objects_pass_through():
    spec = parse_spec("strong")
    assert parse_spec(spec) is spec
    assert spec.replace(sum="combo:full") == parse_spec("combo")


def test_smt_family_is_routed_to_the_smt_registry():
    if not ENCODERS["smt"]:
        with pytest.raises(UnknownNameError, match="unknown smt encoding"):
            parse_spec("smt=lia")
        return
    name = sorted(ENCODERS["smt"])[0]
    assert parse_spec(f"smt={name}").family == "smt"
    with pytest.raises(UnknownNameError, match="option of smt="):
        parse_spec(f"smt={name},nosuchoption=1")


def test_encode_accepts_presets_and_specs():
    from _cnf_cases import hand_made

    puzzle = hand_made("unique")
    assert encode(puzzle, "combo").spec == parse_spec("cell=direct,sum=combo")
