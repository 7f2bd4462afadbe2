"""Seating optimiser for club UNO tournaments (docs/rules.md §4).

Pure Python, standard library only, no Django.

What it minimises, in this order:

1. pairs of players who meet again at a table: every meeting beyond a pair's first is one repeat,
   a third meeting of a pair costs a fifth of a repeat more, a fourth ten repeats more (so of equally
   many repeats the fewest third meetings, and a fourth meeting almost never);
2. imbalance of the odd tables (the smaller ones, or the larger ones when the organizer fills with
   larger tables): nobody gets a second odd table before every player has had one.  Late arrivals are
   counted fairly by rounds played: the players with the lowest ``odd_tables - share * rounds_played``
   get the odd seats, where ``share`` is the fraction of odd seats in the round.  This is kept as a
   hard constraint (docs/rules.md §4, states it as a rule; the targets demand a spread of at
   most 1); the search only chooses *which* of the tied players get the odd seats and may move odd
   seats between players while the rule holds in every round.  It costs no repeat when there are few
   odd seats, but it does when about half the seats are odd (e.g. 31 players filled with larger
   tables: 4x4+3x5, 19 repeats with the rule, about 2 without);
3. in round 1 (or when ``separate_clubs=True``), players of the same club at one table.

Team-mates (``SeatingPlayer.team``) at one table weigh more than all of these, in every round: a pair
of them costs far more than the repeats that keeping them apart may cost, so they meet only where no
seating keeps them apart (a team larger than the number of tables, or odd tables that the odd-table
rule gives to too many players of one team).  With
teams the known designs are not used: their rounds are fixed, the search would not move team-mates.

Seat order within a table is the playing order; it is chosen so that who sits first (and every other
seat) rotates: each table takes the permutation that puts its players on the seats they had least.

Everything is reproducible from the integer seed: a private ``random.Random(seed)`` is used, players
are processed sorted by id and no set/dict iteration order of strings is relied upon, so
``PYTHONHASHSEED`` does not matter.  The search is bounded by a number of move evaluations, never by
wall-clock time, so the result does not depend on the speed of the machine either.

Algorithm: a conflict-directed tabu search (after Dotu & Van Hentenryck's social golfer search) over
swaps of two players between tables of one round, with an incremental cost (a candidate swap's cost
change is a few lookups in join and leave costs kept for every round and player).  A player is "in conflict"
when a table-mate already met him (or shares his club in a club-separated round); each iteration
moves one of up to 32 conflicting players to the best place in its round (where the odd seats divide
the field, the odd-table rule makes every cycle of rounds a partition of the players, so a swap between
an odd and a normal table can only be made together with the reverse swap of the same two players in
another round: a role exchange over two rounds); a stalled search restarts
from its best schedule with a few random swaps.  A plan is searched from several independent starts
(each a greedy round-by-round seating, which also picks the odd-table roles) sharing one budget of
move evaluations; the search stops early at a lower bound (the meetings so far, and the new ones given
to the pairs where they cost least); where the best plan still makes a pair meet three times and that
bound does not, a new search over it gets a quarter of the budget more (a re-plan's repair as well).
In fields up to 200 players, ``seat_round`` follows one whole plan from round 2 on (``plan_to_follow``
makes it at round 2 from a fixed seed, renamed by round 1; with teams, a plan of the rounds after round 1
made with them; the caller stores it as a :class:`~engine.seating.stored.StoredPlan` and passes it to
every later round) while the rounds played are its beginning, and after a change of the field one plan
of the rounds after it.
Otherwise it plans the round together with all remaining rounds and keeps only the round; with a clean
history (everybody played every round at today's table sizes) it first searches the whole tournament
with the history rounds loosened (changing them costs a little per pair of a history table broken up,
then more and more) and puts the history back before repairing the remaining rounds: fitting rounds into
a fixed history gets stuck far more often than planning them with it. Known designs (resolvable
transversal designs over finite fields, among them the affine plane AG(2,4) for 16 players; resolvable
2-(28,4,1) and 2-(40,4,1) designs; a Kirkman triple system for 21 and a nearly Kirkman one for 18; a
social-golfer solution for 24 players; good 6-round schedules for 12 players; each also with one seat
empty) are shipped in :mod:`engine.seating.designs` and are continued when the history so far is
(isomorphic to) a prefix of one of them.  Where counting leaves some player no slack (he must meet
every other player exactly as often as the busiest pairs meet, e.g. 14 players over 10 rounds at
4+4+3+3) and the searched fresh plan makes a pair meet more often than that, an exact search
(:mod:`engine.seating.exact`: mirrored odd-table roles, then a depth-first search over each round's
tables with forced meetings) gives the plan where it finds one that costs less.

Modules: :mod:`~engine.seating.tables` (table plan), :mod:`~engine.seating.costs` (pair cost, meetings,
odd spread, reports, lower bound), :mod:`~engine.seating.state` (players as indices, odd-table roles),
:mod:`~engine.seating.search` (the tabu search), :mod:`~engine.seating.exact` (the exact search for
formats without slack), :mod:`~engine.seating.designs` (shipped designs and prefix matching),
:mod:`~engine.seating.order` (seat order), :mod:`~engine.seating.plan` (seat_round, plan_schedule,
re-planning, the plan round by round follows), :mod:`~engine.seating.stored` (the stored plan and its
one serialiser).
"""

from __future__ import annotations

from engine.seating.base import Round, SeatingError, SeatingPlayer
from engine.seating.costs import (
    RepeatVerdict,
    SeatingReport,
    lower_bound_repeats,
    repeat_floor,
    repeat_verdict,
    schedule_stats,
    seating_report,
)
from engine.seating.plan import plan_schedule, plan_to_follow, seat_following, seat_round
from engine.seating.stored import PlanKind, StoredPlan
from engine.seating.tables import TableFill, table_plan

__all__ = [
    "PlanKind",
    "RepeatVerdict",
    "Round",
    "SeatingError",
    "SeatingPlayer",
    "SeatingReport",
    "StoredPlan",
    "TableFill",
    "lower_bound_repeats",
    "plan_schedule",
    "plan_to_follow",
    "repeat_floor",
    "repeat_verdict",
    "schedule_stats",
    "seat_following",
    "seat_round",
    "seating_report",
    "table_plan",
]
