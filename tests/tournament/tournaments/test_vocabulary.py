"""One vocabulary: the tournament's choices are the engine's enums, with a label for every member."""

import pytest
from django.core.exceptions import ImproperlyConfigured

from engine.scoring import EndRule, ScoringFormat
from engine.seating import TableFill
from engine.standings import MissedRoundPolicy
from tournament.models import Tournament, engine_choices


@pytest.mark.parametrize(
    ("choices", "enum"),
    [
        (Tournament.SCORING_CHOICES, ScoringFormat),
        (Tournament.END_RULE_CHOICES, EndRule),
        (Tournament.MISSED_ROUNDS_CHOICES, MissedRoundPolicy),
    ],
)
def test_model_choices_are_the_engines_values(choices, enum):
    assert [value for value, _label in choices] == [member.value for member in enum]
    assert all(str(label) for _value, label in choices)


def test_a_member_without_a_label_fails_at_start_up():
    with pytest.raises(ImproperlyConfigured):
        engine_choices(EndRule, {EndRule.ROUNDS: "fixed"})


def test_fields_use_those_choices():
    fields = {f.name: f for f in Tournament._meta.get_fields()}
    assert fields["scoring"].choices == Tournament.SCORING_CHOICES
    assert fields["end_rule"].default == EndRule.ROUNDS
    assert fields["missed_rounds"].default == MissedRoundPolicy.RANK_AFTER


def test_fill_choices_are_the_seating_engines():
    assert [value for value, _label in Tournament.FILL_CHOICES] == [member.value for member in TableFill]
    fields = {f.name: f for f in Tournament._meta.get_fields()}
    assert fields["fill"].default == TableFill.SMALLER
