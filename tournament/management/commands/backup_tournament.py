"""Write one tournament as a JSON backup file (or to standard output)."""

from pathlib import Path

from django.core.management.base import BaseCommand, CommandError

from tournament.backup.format import dumps
from tournament.backup.selectors import export_tournament
from tournament.models import Tournament


class Command(BaseCommand):
    help = "Write a whole tournament (players, rounds, results, audit log) as one JSON file."

    def add_arguments(self, parser):
        parser.add_argument("tournament_pk", type=int)
        parser.add_argument("-o", "--output", help="File to write; standard output when left out.")

    def handle(self, *args, tournament_pk: int, output: str | None, **options):
        tournament = Tournament.objects.filter(pk=tournament_pk).first()
        if tournament is None:
            raise CommandError(f"There is no tournament {tournament_pk}.")
        text = dumps(export_tournament(tournament))
        if output is None:
            self.stdout.write(text)
            return
        Path(output).write_text(text, encoding="utf-8")
        self.stderr.write(f"Backup of '{tournament.name}' written to {output}.")
