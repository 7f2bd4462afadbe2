"""Best-known repeats for the seating grid of ``bench/seating.py``, written to
``bench/data/seating_best_known.json``.

Run as ``nice -n 10 python bench/seating_best_known.py --jobs 2`` (both cores, about 10 minutes; without
``--jobs`` one core, about 20).  For every instance it takes the fewest repeats of

* two long whole-plan runs of the app's own search, seeds 1001 and 1002, each with ``effort=10``
  (ten times the app's budget, so twenty times in all), and
* the app's own runs at ``effort=1`` (round by round and whole plan, as ``bench/seating.py`` runs them),

all under the same rules as the app (the odd-table rule is a hard constraint).  A value the file already
holds is kept when the new runs do not reach it (the search changes; a schedule found once is known):
``found_by`` then names the earlier run, with the commit it was computed at.  Next to it: the counting
lower bound, known results (``note``; ``known_optimum`` where a design gives the optimum, which the
search may miss), ``proven`` when the best equals the bound or a known optimum, and the most meetings of
any pair in the best schedule found.  ``--only N`` restricts the run to one player count (for trying
things out; it then prints and does not write); ``--annotate`` only updates the notes of the file.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from multiprocessing import Pool
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from seating import BEST_KNOWN, HEAD, by_round, grid, key, line, sizes_for, whole_plan

from engine.seating import lower_bound_repeats, schedule_stats

PARTIAL = BEST_KNOWN.with_suffix(".partial.json")
LONG_SEEDS = (1001, 1002)
LONG_EFFORT = 10

# Known results about an instance.  key -> (note, the optimum when a known result gives it, or None).
# A resolvable 2-(v,4,1) design (v = 4 mod 12: 16, 28, 40, ...) has (v-1)/3 rounds without a repeat.
NOTES: dict[str, tuple[str, int | None]] = {
    key(12, 6, 4, "smaller"): ("3 tables: any two rounds share >= 3 pairs; 42 is the counting bound", 42),
    key(16, 6, 4, "smaller"): ("AG(2,4) gives 5 rounds without a repeat; 24 is the counting bound", 24),
    key(20, 6, 4, "smaller"): ("social golfer 5-4-6 is reported unsolvable: at least 1 repeat", None),
    key(24, 6, 4, "smaller"): ("social golfer 6-4-7 solution (shipped design)", 0),
    key(24, 7, 4, "smaller"): ("social golfer 6-4-7 solution (shipped design)", 0),
    **{
        key(28, r, 4, "smaller"): ("a resolvable 2-(28,4,1) design has 9 rounds without a repeat", 0)
        for r in range(3, 10)
    },
    **{
        key(40, r, 4, "smaller"): ("a resolvable 2-(40,4,1) design (shipped): 13 rounds without a repeat", 0)
        for r in range(3, 11)
    },
}


def annotate(inst: dict, k: str) -> None:
    """The counting bound, the known results and whether the best value is proven optimal."""
    note, optimum = NOTES.get(k, ("", None))
    inst["note"] = note
    inst["known_optimum"] = optimum
    inst["proven"] = inst["best"] == inst["bound"] or inst["best"] == optimum


def main() -> None:
    if "--annotate" in sys.argv:  # only bring notes and proven marks of the written file up to date
        doc = json.loads(BEST_KNOWN.read_text())
        for k, inst in doc["instances"].items():
            annotate(inst, k)
        BEST_KNOWN.write_text(json.dumps(doc, indent=1) + "\n")
        return
    only = int(sys.argv[sys.argv.index("--only") + 1]) if "--only" in sys.argv else None
    jobs = int(sys.argv[sys.argv.index("--jobs") + 1]) if "--jobs" in sys.argv else 1
    earlier = json.loads(BEST_KNOWN.read_text()) if BEST_KNOWN.exists() else {"instances": {}}
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                            cwd=BEST_KNOWN.parent).stdout.strip()
    out: dict[str, dict] = {}
    started = time.perf_counter()
    print(HEAD, flush=True)
    insts = [inst for inst in grid() if only is None or inst[0] == only]
    with Pool(jobs) as pool:
        for inst, found, rbr, t_rbr, plan, t_plan, seconds in pool.imap(runs, insts):
            n, rounds, preferred, fill = inst
            sizes = sizes_for(n, preferred, fill)
            bound = lower_bound_repeats(n, sizes, rounds)
            best, best_max, how = found
            k = key(*inst)
            how = f"{how} (commit {commit})"
            known = earlier["instances"].get(k)
            if known and (known["best"], known["best_max_meetings"]) < (best, best_max):
                best, best_max, how = known["best"], known["best_max_meetings"], known["found_by"]
            out[k] = {
                "players": n,
                "rounds": rounds,
                "preferred": preferred,
                "fill": fill,
                "sizes": sizes,
                "bound": bound,
                "best": best,
                "best_max_meetings": best_max,
                "found_by": how,
                "seconds": round(seconds, 1),
            }
            annotate(out[k], k)
            print(line(inst, str(best), rbr, t_rbr, plan, t_plan), f"  [{how}]", flush=True)
            if only is None:
                write(out, time.perf_counter() - started, commit, partial=True)
    if only is None:
        write(out, time.perf_counter() - started, commit, partial=False)


def runs(inst: tuple[int, int, int, str]):
    """The app's own runs and the long runs of one instance: (inst, (fewest repeats, their most
    meetings, which run), round-by-round schedule and seconds, whole plan and seconds, seconds)."""
    t0 = time.perf_counter()
    rbr, t_rbr = by_round(*inst)
    plan, t_plan = whole_plan(*inst)
    found = [("by-round", rbr), ("plan", plan)]
    for seed in LONG_SEEDS:
        found.append((f"long seed {seed}", whole_plan(*inst, seed=seed, effort=LONG_EFFORT)[0]))
    scored = []
    for how, sched in found:
        st = schedule_stats(sched, inst[2])
        scored.append((st.repeated_pairs, st.max_meetings, how))
    return inst, min(scored), rbr, t_rbr, plan, t_plan, time.perf_counter() - t0


def write(out: dict, seconds: float, commit: str, partial: bool) -> None:
    """The finished file, or while running the instances so far beside it (``PARTIAL``, git-ignored),
    so that the data file is never left half written."""
    BEST_KNOWN.parent.mkdir(parents=True, exist_ok=True)
    doc = {
        "command": "nice -n 10 python bench/seating_best_known.py --jobs 2",
        "method": (
            f"fewest repeats of: whole plans with effort={LONG_EFFORT} (the app's budget times "
            f"{LONG_EFFORT}) for seeds {list(LONG_SEEDS)}, and the app's own round-by-round and whole-plan "
            "runs (effort=1, seed 1); odd-table rule as a hard constraint; tables preferred-1..preferred+1; "
            "a value found by an earlier run is kept where the new runs do not reach it"
        ),
        "computed_at": f"commit {commit}",
        "partial": partial,
        "seconds": round(seconds),
        "instances": out,
    }
    (PARTIAL if partial else BEST_KNOWN).write_text(json.dumps(doc, indent=1) + "\n")
    if not partial:
        PARTIAL.unlink(missing_ok=True)


if __name__ == "__main__":
    main()
