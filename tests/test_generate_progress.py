"""Progress for long generations: the stats a generation fills as it goes, and the status
line ``kakuro generate`` draws from them on a terminal."""

from __future__ import annotations

import io
import threading
import time

from kakurolab.commands._common import live_status
from kakurolab.generator import GenerationStats, generate


def test_a_passed_stats_object_is_filled_in_place_and_changes_nothing():
    live = GenerationStats()
    seen: list[str] = []
    done = threading.Event()

    def watch() -> None:  # what a progress display would read meanwhile
        while True:
            seen.append(live.status())
            if done.wait(0.005):
                return

    watcher = threading.Thread(target=watch)
    watcher.start()
    try:
        made = generate(12, 12, "hard", seed=3, stats=live)
    finally:
        done.set()
        watcher.join()
    plain = generate(12, 12, "hard", seed=3)
    assert made.stats is live and made.puzzle.grid == plain.puzzle.grid
    assert live.as_dict() == {**plain.stats.as_dict(), "seconds": live.seconds}
    assert live.layouts >= 1 and live.fills >= 1 and live.stage in ("whiten", "repair")
    assert seen and all(line.startswith("layout ") for line in seen)
    assert live.status().startswith(f"layout {live.layouts}, fill {live.fills}, ")


def test_status_names_the_open_cells_while_repairing_and_the_whitening_after():
    stats = GenerationStats(layouts=1, fills=2, repairs=7, stage="repair", open_cells=40)
    assert stats.status() == "layout 1, fill 2, 7 repairs, 40 cells open"
    stats.stage, stats.whitened, stats.blocks = "whiten", 3, 1
    assert stats.status() == "layout 1, fill 2, 7 repairs, 1 blocks, whitening: 3 kept"


def test_live_status_draws_what_it_reads_and_is_silent_off_a_terminal():
    shown = io.StringIO()
    with live_status("60x60 seed 1", lambda: "fill 3", enabled=True, interval=0.01, file=shown):
        time.sleep(0.1)
    assert "60x60 seed 1" in shown.getvalue() and "fill 3" in shown.getvalue()
    quiet = io.StringIO()  # not a terminal: nothing is drawn, and the work still runs
    ran = []
    with live_status("x", lambda: "y", interval=0.01, file=quiet):
        ran.append(1)
    assert quiet.getvalue() == "" and ran == [1]
