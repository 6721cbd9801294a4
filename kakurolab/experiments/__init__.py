"""Experiments: grids of puzzles x configurations x repetitions, run in killable children.

``kakuro experiment run experiments/NAME.toml`` appends one JSON row per run to
``results/NAME/runs.jsonl`` (resuming where it stopped); ``kakuro experiment report NAME``
turns the rows into Markdown/CSV tables, plots and mkplot JSON.  See docs/experiments.md.
"""

from .executors import EXECUTORS, DaskExecutor, LocalExecutor, make_executor
from .plan import Configuration, Experiment, Instance, load_experiment, load_instances
from .runner import Plan, Summary, find_disagreements, plan, run_experiment
from .runs import RunSpec
from .runsfile import read_rows
from .tasks import TASKS, Task

__all__ = [
    "EXECUTORS",
    "TASKS",
    "Configuration",
    "DaskExecutor",
    "Experiment",
    "Instance",
    "LocalExecutor",
    "Plan",
    "RunSpec",
    "Summary",
    "Task",
    "find_disagreements",
    "load_experiment",
    "load_instances",
    "make_executor",
    "plan",
    "read_rows",
    "run_experiment",
]
