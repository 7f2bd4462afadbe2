"""Every success message is shown once: on pages that show messages inside an htmx partial and on the rest."""

from django.urls import reverse

from tournament.rounds.services import round_seat


def url(name, tournament, *args):
    return reverse(f"organizer:{name}", args=[tournament.pk, *args])


def test_round_action_message_is_shown_once(organizer_client, tournament, players, organizer):
    round_seat(tournament=tournament, user=organizer, seed=3)
    response = organizer_client.post(url("round_publish", tournament, 1), follow=True)
    html = response.content.decode()
    assert html.count("Round 1 published: the seating can be printed and shown.") == 1


def test_player_added_message_is_shown_once(organizer_client, tournament):
    response = organizer_client.post(
        url("player_add", tournament), {"first_name": "Anna", "last_name": "Berg", "club": ""}, follow=True
    )
    html = response.content.decode()
    assert html.count("Anna Berg has start number 1.") == 1


def test_settings_saved_message_is_shown_once(organizer_client, tournament):
    page = organizer_client.get(url("tournament_edit", tournament))
    form = page.context["form"]
    data = {}
    for name, field in form.fields.items():
        value = form.initial.get(name, field.initial)
        if value is None:
            continue
        if isinstance(value, (list, tuple)):
            data[name] = [str(v) for v in value]
        elif isinstance(value, bool):
            if value:
                data[name] = "on"
        else:
            data[name] = str(value)
    response = organizer_client.post(url("tournament_edit", tournament), data, follow=True)
    assert response.redirect_chain, response.context["form"].errors
    assert response.content.decode().count("Settings saved.") == 1
