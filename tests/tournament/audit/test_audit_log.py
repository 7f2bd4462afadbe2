"""The organizer's audit log page: filters per round and table, changes shown as a diff."""

import pytest
from django.urls import reverse
from django.utils import translation

from tests.factories import RoundFactory, TableFactory, TournamentFactory, UserFactory
from tournament.audit.actions import AuditAction
from tournament.audit.display import NESTING, NO, YES, entry_changes
from tournament.audit.services import audit
from tournament.models import AuditEntry


@pytest.fixture(autouse=True)
def english(settings):
    """Labels are asserted in the English source text, whatever translations exist."""
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


def audit_url(tournament, **params):
    url = reverse("organizer:audit", args=[tournament.pk])
    if params:
        url += "?" + "&".join(f"{k}={v}" for k, v in params.items())
    return url


@pytest.fixture
def logged(tournament, organizer):
    """A small history: a settings change, a registration, two results in round 1 and one in round 2."""
    round1 = RoundFactory(tournament=tournament, number=1)
    round2 = RoundFactory(tournament=tournament, number=2)
    t1, t2 = TableFactory(round=round1, number=1), TableFactory(round=round1, number=2)
    t21 = TableFactory(round=round2, number=1)
    entry = {"start_number": 3, "cards": "R5 G7", "card_count": 2, "hand_points": 12, "score": 12,
             "went_out": False}
    rows = [
        AuditEntry(tournament=tournament, user=organizer, actor="orga", action="tournament_update",
                   before={"rounds_total": 6, "venue": "Halle"}, after={"rounds_total": 5, "venue": "Halle"}),
        AuditEntry(tournament=tournament, user=organizer, actor="orga", action="registration_add",
                   after={"start_number": 3, "name": "Anna Zett", "club": "UNO Freunde"}),
        AuditEntry(tournament=tournament, round=round1, table=t1, actor="captain, table 1",
                   action="result_submit", after={"version": 1, "entries": [entry]}),
        AuditEntry(tournament=tournament, round=round1, table=t2, actor="captain, table 2",
                   action="result_submit",
                   after={"version": 1, "entries": [dict(entry, start_number=4, score=30)]}),
        AuditEntry(tournament=tournament, round=round2, table=t21, user=organizer, actor="orga",
                   action="result_confirm", before={"version": 1}, after={"version": 2}),
        AuditEntry(tournament=tournament, round=round1, user=organizer, actor="orga", action="round_close",
                   before="open", after="closed"),
    ]
    for row in rows:
        row.save()
    return rows


def test_lists_every_change_newest_first(organizer_client, tournament, logged):
    response = organizer_client.get(audit_url(tournament))
    assert response.status_code == 200
    lines = response.context["lines"]
    assert [line.entry.action for line in lines] == [e.action for e in reversed(logged)]
    html = response.content.decode()
    assert "Anna Zett" in html and "UNO Freunde" in html
    assert "captain, table 2" in html


def test_filter_by_round(organizer_client, tournament, logged):
    response = organizer_client.get(audit_url(tournament, round=1))
    actions = [(line.entry.action, line.entry.table.number if line.entry.table else None)
               for line in response.context["lines"]]
    assert actions == [("round_close", None), ("result_submit", 2), ("result_submit", 1)]


def test_filter_by_round_and_table(organizer_client, tournament, logged):
    response = organizer_client.get(audit_url(tournament, round=1, table=2))
    lines = response.context["lines"]
    assert len(lines) == 1
    assert lines[0].entry.actor == "captain, table 2"
    assert response.context["page"].paginator.count == 1


def test_filter_by_table_across_rounds(organizer_client, tournament, logged):
    response = organizer_client.get(audit_url(tournament, table=1))
    assert sorted(line.entry.round.number for line in response.context["lines"]) == [1, 2]


def test_filter_by_action(organizer_client, tournament, logged):
    response = organizer_client.get(audit_url(tournament, action="result_submit"))
    assert {line.entry.action for line in response.context["lines"]} == {"result_submit"}
    assert len(response.context["lines"]) == 2


@pytest.mark.parametrize("params", [
    {"round": "abc"}, {"round": "-1"}, {"table": "1.5"}, {"action": "<script>"}, {"page": "999"},
    {"round": "99999999999999999999"},
])
def test_malformed_filters_are_ignored_not_errors(organizer_client, tournament, logged, params):
    response = organizer_client.get(audit_url(tournament, **params))
    assert response.status_code == 200
    assert "<script>" not in response.content.decode().split("<main", 1)[1]


def test_only_changed_keys_shown_in_diff(organizer_client, tournament, logged):
    response = organizer_client.get(audit_url(tournament, action="tournament_update"))
    (line,) = response.context["lines"]
    assert [(c.key, c.before, c.after) for c in line.changes] == [("number of rounds", "6", "5")]
    html = response.content.decode()
    assert "<del>6</del>" in html and "<ins>5</ins>" in html


def test_diff_of_status_change_and_nested_entries():
    changes = entry_changes("round_close", "open", "closed")
    assert [(c.key, c.before, c.after) for c in changes] == [("", "results open", "closed")]
    changes = entry_changes(
        "result_submit",
        {"version": 1, "entries": [{"start_number": 7, "hand_points": 10, "went_out": False}]},
        {"version": 2, "entries": [{"start_number": 7, "hand_points": 0, "went_out": True}]},
    )
    assert [(c.key, c.before, c.after) for c in changes] == [
        ("version", "1", "2"),
        ("no. 7", "hand value: 10", f"hand value: 0, went out: {YES}"),
    ]
    # A created thing shows all its values (its empty ones say nothing).
    created = entry_changes("round_seat", None, {"seed": 42, "tables": [[1, 2, 3], [4, 5, 6]], "x": None})
    assert [(c.key, c.before, c.after) for c in created] == [
        ("seating seed", "", "42"), ("tables", "", "Table 1: 1, 2, 3 | Table 2: 4, 5, 6"),
    ]
    assert all(c.added for c in created)
    flags = entry_changes("tournament_update", {"public": True}, {"public": False})
    assert [(c.before, c.after) for c in flags] == [(YES, NO)]
    assert NESTING in entry_changes("round_swap", [[1, 2]], [[2, 1]])[0].key


def test_htmx_request_gets_only_the_log(organizer_client, tournament, logged):
    response = organizer_client.get(audit_url(tournament, round=2), headers={"HX-Request": "true"})
    html = response.content.decode()
    assert html.lstrip().startswith('<section id="audit-log">')
    assert "<html" not in html
    assert html.count('<span class="badge">') == 1
    assert "result confirmed" in html


def test_other_organizers_and_anonymous_are_kept_out(client, tournament, logged):
    response = client.get(audit_url(tournament))
    assert response.status_code == 302 and reverse("login") in response["Location"]
    client.force_login(UserFactory(username="someone-else"))
    assert client.get(audit_url(tournament)).status_code == 403


def test_entries_of_other_tournaments_are_not_shown(organizer_client, tournament, logged, organizer):
    other = TournamentFactory(organizers=[organizer])
    AuditEntry.objects.create(tournament=other, actor="orga", action="tournament_create", after={"name": "X"})
    response = organizer_client.get(audit_url(tournament))
    assert len(response.context["lines"]) == len(logged)


def test_query_count_does_not_grow_with_the_log(
    organizer_client, tournament, logged, django_assert_num_queries
):
    url = audit_url(tournament)
    organizer_client.get(url)  # session and user loaded once; the counted run is the steady state
    with django_assert_num_queries(8):
        organizer_client.get(url)
    round1 = logged[2].round
    for number in range(3, 40):
        table = TableFactory(round=round1, number=number)
        AuditEntry.objects.create(
            tournament=tournament, round=round1, table=table, actor="x", action="result_submit",
            after={"version": 1},
        )
    with django_assert_num_queries(8):
        response = organizer_client.get(url)
    assert len(response.context["lines"]) == len(logged) + 37


def test_every_action_is_shown_by_its_label_in_both_languages(organizer_client, tournament, organizer):
    """One vocabulary: each action the services record has a label, translated (none shown as a code)."""
    AuditEntry.objects.bulk_create(
        AuditEntry(tournament=tournament, user=organizer, actor="orga", action=action)
        for action in AuditAction.values
    )
    html = organizer_client.get(audit_url(tournament)).content.decode()
    for action in AuditAction:
        assert f">{action.label}<" in html
    with translation.override("de"):
        german = {str(action.label) for action in AuditAction}
    assert "Rundenuhr gestartet" in german and "alle Runden geplant" in german
    assert not german & {str(action.label) for action in AuditAction}  # every label is translated


def test_an_unknown_action_is_refused_when_recorded(tournament):
    with pytest.raises(ValueError):
        audit(tournament=tournament, action="clock_explode")
