"""Seating round by round as the app does it, for the engine's tests."""

from __future__ import annotations

from engine.seating import Round, StoredPlan, seat_following


class Evening:
    """Seats round after round with ``seat_following``, keeping the plan it follows between rounds as
    the app stores it (a fresh ``Evening`` is an app that has no plan stored)."""

    def __init__(self) -> None:
        self.plan: StoredPlan | None = None

    def seat(self, players, history, sizes, **kwargs) -> Round:
        rnd, self.plan = seat_following(players, history, sizes, plan=self.plan, **kwargs)
        return rnd
