"""Time the standings of a 200-player, 6-round tournament (pure engine, no database)."""

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engine.standings import RoundResult, compute_standings


def main() -> None:
    rnd = random.Random(3)
    results = [
        RoundResult(p, n, rnd.randint(0, 150), rnd.random() < 0.25) for p in range(200) for n in range(1, 7)
    ]
    runs = []
    for _ in range(20):
        start = time.perf_counter()
        compute_standings(range(200), results, range(1, 7))
        runs.append(time.perf_counter() - start)
    print(f"standings 200 players x 6 rounds: best {min(runs) * 1000:.2f} ms, median "
          f"{sorted(runs)[len(runs) // 2] * 1000:.2f} ms")


if __name__ == "__main__":
    main()
