"""Proofs anyone can check: uniqueness certificates, the independent step checker, and what an
encoding decides without search.

The package's face; its parts, lowest first:

- :mod:`.formula`: what a certificate holds and both sides agree on (file names, the reference
  encoding, the encoder's version, the blocking clause, the formula's text);
- :mod:`.produce`: :func:`certify` and :func:`write_certificate`;
- :mod:`.verify`: :func:`verify_certificate`, trusting none of the solver;
- :mod:`.selftest`: the encoder against brute force (``kakuro verify --self-test``);
- :mod:`.stepcheck`: the deduction-steps checker, sharing no code with :mod:`kakurolab.logic`;
- :mod:`.analysis`: unit-propagation closures and exact model counts;
- :mod:`.row`: the experiments' ``certify`` task row.

``kakurolab.certify``, ``kakurolab.stepcheck`` and ``kakurolab.analysis`` still import: they
re-export from here.
"""

from __future__ import annotations

from .analysis import (
    CountTimeout,
    candidates,
    exact_count,
    pysat_closure,
    unit_closure,
    up_fixed_cells,
)
from .formula import (
    DEFAULT_SOLVER,
    ENCODER_VERSION,
    ENGINES,
    FORMAT,
    FORMULA,
    LEGACY_PARTS,
    MANIFEST,
    PROOF,
    PROOF_SOLVERS,
    PUZZLE,
    REFERENCE_ENCODING,
    SOLUTION,
    STEPS,
    CertifyError,
    blocking_clause,
    certificate_spec,
    digest,
    directory_name,
    formula_text,
    proof_solver,
)
from .produce import (
    Certification,
    certify,
    solution_json,
    steps_json,
    tool_versions,
    write_certificate,
)
from .row import certificate_row
from .selftest import SelfTest, brute_force, run_models, self_test, self_test_specs, single_run
from .stepcheck import (
    ClaimedStep,
    Justified,
    StepError,
    StepReport,
    check_steps,
    read_steps,
    replay,
)
from .verify import (
    Check,
    Rejected,
    Verification,
    available_engines,
    certificate_dirs,
    dratify_module,
    read_solution,
    verify_certificate,
)

__all__ = [
    "DEFAULT_SOLVER",
    "ENCODER_VERSION",
    "ENGINES",
    "FORMAT",
    "FORMULA",
    "LEGACY_PARTS",
    "MANIFEST",
    "PROOF",
    "PROOF_SOLVERS",
    "PUZZLE",
    "REFERENCE_ENCODING",
    "SOLUTION",
    "STEPS",
    "Certification",
    "CertifyError",
    "Check",
    "ClaimedStep",
    "CountTimeout",
    "Justified",
    "Rejected",
    "SelfTest",
    "StepError",
    "StepReport",
    "Verification",
    "available_engines",
    "blocking_clause",
    "brute_force",
    "candidates",
    "certificate_dirs",
    "certificate_row",
    "certificate_spec",
    "certify",
    "check_steps",
    "digest",
    "directory_name",
    "dratify_module",
    "exact_count",
    "formula_text",
    "proof_solver",
    "pysat_closure",
    "read_solution",
    "read_steps",
    "replay",
    "run_models",
    "self_test",
    "self_test_specs",
    "single_run",
    "solution_json",
    "steps_json",
    "tool_versions",
    "unit_closure",
    "up_fixed_cells",
    "verify_certificate",
    "write_certificate",
]
