"""First-start set-up for `make run`: the organizer account, the demo tournament, the addresses."""

import secrets
import subprocess

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand

from tournament.models import Tournament

ORGANIZER = "organizer"


def lan_addresses() -> list[str]:
    """IPv4 addresses of this machine that phones in the same network can reach."""
    try:
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return [a for a in out.split() if "." in a and not a.startswith("127.")]


class Command(BaseCommand):
    help = "Create the organizer account on first start, load the demo once, print how to log in."

    def add_arguments(self, parser):
        parser.add_argument("--port", default="8000")
        parser.add_argument("--no-demo", action="store_true", help="Do not load the demo tournament.")

    def handle(self, *args, port: str, no_demo: bool, **options):
        password_file = settings.VAR_DIR / "organizer_password.txt"
        user_model = get_user_model()
        user = user_model.objects.filter(username=ORGANIZER).first()
        if user is None and not user_model.objects.filter(is_superuser=True).exists():
            password = secrets.token_urlsafe(9)
            user = user_model.objects.create_superuser(ORGANIZER, password=password)
            password_file.write_text(password)
            password_file.chmod(0o600)
        demo_marker = settings.VAR_DIR / "demo_loaded"
        if not no_demo and not demo_marker.exists() and not Tournament.objects.exists():
            call_command("load_demo", owner=user.username if user else None)
            demo_marker.touch()

        self.stdout.write("")
        self.stdout.write(self.style.SUCCESS("UNO tournament manager is starting."))
        for host in ["localhost", *lan_addresses()]:
            self.stdout.write(f"  http://{host}:{port}/")
        if user is not None and password_file.exists() and user.check_password(password_file.read_text()):
            self.stdout.write(
                f"Log in as '{ORGANIZER}' with password '{password_file.read_text()}' "
                f"(change it under /admin/; it is kept in {password_file})."
            )
        self.stdout.write("")
