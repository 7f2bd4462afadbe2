"""Identity keys of players and clubs (#43 item 3): the columns, then the keys of the rows already there."""

from django.db import migrations, models

from engine.text import name_key, person_key


def fill_keys(apps, schema_editor):
    """Historical models have no `save()` of their own: the keys are computed here, in batches."""
    Club = apps.get_model("tournament", "Club")
    Player = apps.get_model("tournament", "Player")
    clubs = list(Club.objects.only("pk", "name"))
    for club in clubs:
        club.name_key = name_key(club.name)
    Club.objects.bulk_update(clubs, ["name_key"], batch_size=500)
    players = list(Player.objects.only("pk", "first_name", "last_name"))
    for player in players:
        player.name_key = person_key(player.first_name, player.last_name)
    Player.objects.bulk_update(players, ["name_key"], batch_size=500)


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0011_standings_hidden"),
    ]

    operations = [
        migrations.AddField(
            model_name="club",
            name="name_key",
            field=models.TextField(db_index=True, default="", editable=False),
        ),
        migrations.AddField(
            model_name="player",
            name="name_key",
            field=models.TextField(db_index=True, default="", editable=False),
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
    ]
