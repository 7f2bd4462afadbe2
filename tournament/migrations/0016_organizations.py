"""Clubs (Organization) own tournaments, series and player records.

Upgrading keeps every tournament with its organizers: each distinct first organizer of a tournament gets a
club ("Verein von <user>") that owns their tournaments; all organizers of those tournaments become its
admins. A series and a player record follow the earliest tournament they belong to. Tournaments without
an organizer stay unowned (null), managed as before.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def _unique_name(Organization, base: str) -> str:
    name, n = base, 1
    while Organization.objects.filter(name=name).exists():
        n += 1
        name = f"{base} ({n})"
    return name


def assign_organizations(apps, schema_editor):
    Organization = apps.get_model("tournament", "Organization")
    Tournament = apps.get_model("tournament", "Tournament")
    Series = apps.get_model("tournament", "Series")
    Player = apps.get_model("tournament", "Player")
    by_user: dict[int, object] = {}
    admins: dict[int, set[int]] = {}
    for tournament in Tournament.objects.order_by("date", "pk"):
        organizers = list(tournament.organizers.order_by("pk"))
        if not organizers:
            continue
        first = organizers[0]
        organization = by_user.get(first.pk)
        if organization is None:
            name = _unique_name(Organization, f"Verein von {first.username}")
            organization = by_user[first.pk] = Organization.objects.create(name=name)
        admins.setdefault(organization.pk, set()).update(user.pk for user in organizers)
        tournament.organization = organization
        tournament.save(update_fields=["organization"])
    # Added once per club: the admins' unique index is created only after this function (deferred SQL),
    # so a fast add that relies on it to skip duplicates would insert them.
    for organization in by_user.values():
        organization.admins.add(*sorted(admins[organization.pk]))
    for series in Series.objects.all():
        first = (
            Tournament.objects.filter(series=series, organization__isnull=False).order_by("date", "pk").first()
        )
        if first is not None:
            series.organization_id = first.organization_id
        else:
            owner = series.organizers.order_by("pk").first()
            series.organization = by_user.get(owner.pk) if owner else None
        series.save(update_fields=["organization"])
    for player in Player.objects.all():
        first = (
            Tournament.objects.filter(registrations__player=player, organization__isnull=False)
            .order_by("date", "pk").first()
        )
        if first is not None:
            player.organization_id = first.organization_id
            player.save(update_fields=["organization"])


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0015_roles'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Organization',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=150, unique=True, verbose_name='name')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('admins', models.ManyToManyField(related_name='administered_organizations', to=settings.AUTH_USER_MODEL, verbose_name='admins')),
            ],
            options={
                'verbose_name': 'organization',
                'verbose_name_plural': 'organizations',
                'ordering': ['name'],
            },
        ),
        migrations.AddField(
            model_name='player',
            name='organization',
            field=models.ForeignKey(blank=True, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tournament.organization', verbose_name='organization'),
        ),
        migrations.AddField(
            model_name='series',
            name='organization',
            field=models.ForeignKey(blank=True, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tournament.organization', verbose_name='organization'),
        ),
        migrations.AddField(
            model_name='tournament',
            name='organization',
            field=models.ForeignKey(blank=True, editable=False, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tournament.organization', verbose_name='organization'),
        ),
        migrations.CreateModel(
            name='OrganizationLog',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('action', models.CharField(choices=[('create', 'club created'), ('admin_add', 'admin added'), ('admin_remove', 'admin removed')], max_length=20, verbose_name='action')),
                ('detail', models.CharField(blank=True, max_length=150, verbose_name='detail')),
                ('created_at', models.DateTimeField(auto_now_add=True)),
                ('organization', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='log', to='tournament.organization')),
                ('user', models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='+', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'ordering': ['-created_at', '-pk'],
            },
        ),
        migrations.RunPython(assign_organizations, migrations.RunPython.noop),
    ]
