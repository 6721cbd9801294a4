"""Package metadata a user meets before the README: licence, citation, changelog, version, types.

CITATION.cff is checked against the Citation File Format 1.2.0 JSON schema, copied unchanged
into tests/data from the cffconvert 2.0.0 wheel (the schema is the CFF project's, CC-BY-4.0).
cffconvert itself pins jsonschema < 4, which the notebook tools cannot share a venv with.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent


def _pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())


def _citation() -> dict:
    # CFF dates are strings in the schema; YAML would read an unquoted one as a date
    return yaml.safe_load((ROOT / "CITATION.cff").read_text())


def test_citation_is_valid_cff_1_2_0() -> None:
    schema = json.loads((ROOT / "tests/data/cff-1.2.0.schema.json").read_text())
    jsonschema.validate(_citation(), schema, cls=jsonschema.Draft7Validator)


def test_the_schema_check_can_fail() -> None:
    schema = json.loads((ROOT / "tests/data/cff-1.2.0.schema.json").read_text())
    broken = {**_citation(), "authors": []}  # CFF wants at least one author
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(broken, schema, cls=jsonschema.Draft7Validator)


def test_versions_agree() -> None:
    """pyproject is the one source; the citation and the changelog's newest entry follow it."""
    version = _pyproject()["project"]["version"]
    assert str(_citation()["version"]) == version
    changelog = (ROOT / "CHANGELOG.md").read_text()
    releases = re.findall(r"^## \[(\d+\.\d+\.\d+)\]", changelog, flags=re.M)
    assert releases[0] == version
    assert releases[-1] == "0.1.0"


def test_licence_metadata_is_spdx() -> None:
    project = _pyproject()["project"]
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


def test_package_ships_py_typed() -> None:
    assert (ROOT / "kakurolab/py.typed").is_file()
    assert "py.typed" in _pyproject()["tool"]["setuptools"]["package-data"]["kakurolab"]
