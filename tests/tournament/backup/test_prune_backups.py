"""Old backups are deleted: the newest BACKUPS_KEPT of each tournament stay (deploy/systemd's weekly
uno-backup-cleanup.timer runs `manage.py prune_backups`)."""

import io

import pytest
from django.core.exceptions import ValidationError
from django.core.management import CommandError, call_command

from tests.factories import TournamentFactory
from tournament.backup.selectors import stored_backups
from tournament.backup.services import prune_backups, write_backup


@pytest.mark.django_db
def test_only_the_newest_backups_of_each_tournament_are_kept(tournament, backup_dir):
    other = TournamentFactory(name="Another evening")
    mine = [write_backup(tournament, number) for number in range(1, 5)]
    theirs = [write_backup(other, number) for number in range(1, 3)]
    deleted = prune_backups(keep=2)
    assert sorted(deleted) == sorted(mine[:2])
    assert [b.name for b in stored_backups(tournament)] == [mine[3], mine[2]]
    assert [b.name for b in stored_backups(other)] == [theirs[1], theirs[0]]
    assert sorted(p.name for p in backup_dir.iterdir()) == sorted(mine[2:] + theirs)


@pytest.mark.django_db
def test_the_command_keeps_the_setting_s_number(tournament, settings):
    settings.BACKUPS_KEPT = 1
    names = [write_backup(tournament, number) for number in range(1, 4)]
    out = io.StringIO()
    call_command("prune_backups", stdout=out)
    assert out.getvalue() == "2 backup(s) deleted.\n"
    assert [b.name for b in stored_backups(tournament)] == [names[2]]


@pytest.mark.django_db
def test_keeping_none_is_refused(tournament):
    write_backup(tournament, 1)
    with pytest.raises(ValidationError) as refused:
        prune_backups(keep=0)
    assert refused.value.code == "keep_too_small"
    with pytest.raises(CommandError):
        call_command("prune_backups", "--keep", "0")
    assert len(stored_backups(tournament)) == 1
