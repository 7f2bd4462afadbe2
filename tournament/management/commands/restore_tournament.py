"""Create a tournament from a JSON backup file."""

from pathlib import Path

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from tournament.backup.format import BackupError, loads
from tournament.backup.services import import_tournament


class Command(BaseCommand):
    help = "Restore a tournament from a backup file as a new tournament (players and clubs reused by name)."

    def add_arguments(self, parser):
        parser.add_argument("file")
        parser.add_argument("--owner", help="User name of the organizer of the restored tournament.")

    def handle(self, *args, file: str, owner: str | None, **options):
        user = None
        if owner:
            user = get_user_model().objects.filter(username=owner).first()
            if user is None:
                raise CommandError(f"There is no user '{owner}'.")
        try:
            data = loads(Path(file).read_bytes())
            tournament = import_tournament(data, owner=user)
        except OSError as exc:
            raise CommandError(f"Cannot read {file}: {exc.strerror}") from exc
        except BackupError as exc:
            raise CommandError(str(exc)) from exc
        self.stdout.write(f"Restored '{tournament.name}' as tournament {tournament.pk}.")
