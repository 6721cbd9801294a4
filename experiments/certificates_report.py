"""The report of experiments/certificates.toml: proof sizes, solve and check times, their ratio.

The generic experiment report shows status and time per configuration; a certificate run has
more to say (proof size, two check times, ratios), so this step reads the same runs.jsonl and
writes report.md, table.csv and the check-time-against-solve-time plot next to it.

    python experiments/certificates_report.py results/certificates
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path
from typing import Any

from kakurolab.experiments.report import markdown, to_csv
from kakurolab.experiments.runner import latest_rows, read_rows
from kakurolab.fileio import write_text

ORDER = ("reference", "fast", "strong", "naive-pb")
SETS = ("pe424", "janko", "all")


def latest(path: Path) -> list[dict[str, Any]]:
    """The last row of each run, under the shared key names (``kakurolab.schema``)."""
    return list(latest_rows(read_rows(path)).values())


def _median(values: list[float]) -> float | None:
    return statistics.median(values) if values else None


def _num(row: dict[str, Any], key: str) -> float | None:
    value = row.get(key)
    return float(value) if isinstance(value, int | float) else None


def summarise(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    table = []
    labels = [c for c in ORDER if any(r["config"] == c for r in rows)]
    labels += sorted({r["config"] for r in rows} - set(labels))
    for label in labels:
        for name in SETS:
            group = [r for r in rows if r["config"] == label and name in ("all", r["set"])]
            if not group:
                continue
            done = [r for r in group if r.get("verified")]

            def col(key: str, rows: list[dict[str, Any]] = done) -> list[float]:
                return [v for r in rows if (v := _num(r, key)) is not None]

            kib = [b / 1024 for b in col("proof_bytes")]
            steps = [r["check_times"]["steps"] for r in done if "steps" in r.get("check_times", {})]
            table.append(
                {
                    "config": label,
                    "set": name,
                    "puzzles": len(group),
                    "verified": len(done),
                    "median proof KiB": _median(kib),
                    "max proof KiB": max(kib) if kib else None,
                    "median proof lines": _median(col("proof_lines")),
                    "median solve s": _median(col("solve_s")),
                    "median check s (python)": _median(col("check_python")),
                    "median check s (native)": _median(col("check_native")),
                    "median ratio (python)": _median(col("ratio_python")),
                    "median ratio (native)": _median(col("ratio_native")),
                    "total solve s": sum(col("solve_s")),
                    "total check s (python)": sum(col("check_python")),
                    "total check s (native)": sum(col("check_native")),
                    "steps certificates": len(steps),
                    "median steps check s": _median(steps),
                }
            )
    return table


def plot(rows: list[dict[str, Any]], directory: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    matplotlib.rcParams["svg.hashsalt"] = "kakurolab"
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.8), sharey=True)
    labels = [c for c in ORDER if any(r["config"] == c for r in rows)]
    for ax, engine in zip(axes, ("python", "native"), strict=True):
        for label in labels:
            pts = [
                (r["solve_s"], r[f"check_{engine}"])
                for r in rows
                if r["config"] == label and r.get("verified") and r.get(f"check_{engine}")
            ]
            if pts:
                xs, ys = zip(*pts, strict=True)
                ax.scatter(xs, ys, s=9, alpha=0.6, label=f"{label} ({len(pts)})")
        lo, hi = 1e-4, 1e3
        for factor, style in ((1, "-"), (10, "--"), (100, ":")):
            ax.plot(
                [lo, hi],
                [lo * factor, hi * factor],
                "k" + style,
                lw=0.6,
                label=f"check = {factor} x solve",
            )
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(1e-3, 1e2)
        ax.set_ylim(1e-3, 1e3)
        ax.set_xlabel("solve time, find + refute with proof logging (s)")
        ax.set_title(f"dratify {engine} engine")
        ax.grid(True, which="major", lw=0.3)
    axes[0].set_ylabel("proof check time (s)")
    for ax in axes:
        ax.legend(fontsize=7, loc="upper left")
    fig.suptitle("Certificates: DRAT check time against solve time (PE424 + janko dev)")
    for suffix, metadata in (("png", {"Software": None}), ("svg", {"Date": None})):
        fig.savefig(
            directory / f"check_vs_solve.{suffix}",
            dpi=120,
            bbox_inches="tight",
            metadata=metadata,
        )
    plt.close(fig)


def main(argv: list[str]) -> int:
    directory = Path(argv[0] if argv else "results/certificates")
    rows = latest(directory / "runs.jsonl")
    table = summarise(rows)
    failed = [r for r in rows if not r.get("verified")]
    write_text(directory / "table.csv", to_csv(table))
    plot(rows, directory)
    notes = [
        "# Certificates: proof sizes, solve and check times",
        "",
        "Every PE424 and janko dev puzzle certified (`kakuro certify`: CaDiCaL 1.9.5 through "
        "PySAT writes a DRAT proof that no other solution exists) and the certificate verified "
        "(`kakuro verify`: rule checker, re-encoding, dratify's pure-Python and native engines). "
        "Solve time = finding the solution + refuting every other one with proof logging on; "
        "check time = one dratify engine parsing and checking the proof against the formula; "
        "ratio = check time / solve time, per puzzle.  `reference` is the encoding certify "
        "uses by default (cell=direct,sum=combo,alldiff=pairwise,amo=pairwise); `naive-pb` is "
        "the naive preset (sum=pb:best).  Steps certificates (deduction steps replayed by "
        "kakurolab.stepcheck) exist for standard puzzles that deduction solves; their check "
        "time means something only in the reference rows: the experiment's worker process is "
        "reused, so for the later encodings the step checker's memo of run fillings is warm.",
        "",
        markdown(table),
        "",
        f"Runs not verified: {len(failed)}"
        + "".join(f"\n- {r['key']}: {r.get('status')} {r.get('message', '')}" for r in failed),
        "",
        "![check time against solve time](check_vs_solve.png)",
        "",
        "Regenerate: `kakuro experiment run experiments/certificates.toml --jobs 1` then "
        "`python experiments/certificates_report.py results/certificates`.",
        "",
    ]
    write_text(directory / "report.md", "\n".join(notes))
    print(markdown(table), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
