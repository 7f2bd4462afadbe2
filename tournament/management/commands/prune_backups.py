"""Delete all but the newest backups of each tournament (deploy/systemd/uno-backup-cleanup.timer)."""

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError

from tournament.backup.services import prune_backups


class Command(BaseCommand):
    help = "Delete all but the newest backups of each tournament from the backups storage."

    def add_arguments(self, parser):
        parser.add_argument("--keep", type=int, default=None,
                            help="Backups kept per tournament (default: BACKUPS_KEPT).")

    def handle(self, *args, keep: int | None, **options):
        try:
            deleted = prune_backups(keep=keep if keep is not None else settings.BACKUPS_KEPT)
        except ValidationError as exc:
            raise CommandError(" ".join(exc.messages)) from None
        self.stdout.write(f"{len(deleted)} backup(s) deleted.")
