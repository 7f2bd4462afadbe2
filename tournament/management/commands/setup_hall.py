"""First-start set-up for `make run`: the organizer account, the demo tournament, the addresses."""

import secrets
import subprocess

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import BaseCommand
from django.db import transaction

from tournament.accounts.selectors import password_change_due
from tournament.accounts.services import password_change_clear_due, password_change_mark_due
from tournament.models import Account, Tournament

ORGANIZER = "organizer"


def lan_addresses() -> list[str]:
    """IPv4 addresses of this machine that phones in the same network can reach."""
    try:
        out = subprocess.run(["hostname", "-I"], capture_output=True, text=True, timeout=2).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    return [a for a in out.split() if "." in a and not a.startswith("127.")]


class Command(BaseCommand):
    help = (
        "Create the organizer account on first start and print its password once, load the demo once, "
        "print the addresses."
    )

    def add_arguments(self, parser):
        parser.add_argument("--port", default="8000")
        parser.add_argument("--no-demo", action="store_true", help="Do not load the demo tournament.")

    def handle(self, *args, port: str, no_demo: bool, **options):
        password_file = settings.VAR_DIR / "organizer_password.txt"
        user_model = get_user_model()
        user = user_model.objects.filter(username=ORGANIZER).first()
        new_password = None
        if user is None and not user_model.objects.filter(is_superuser=True).exists():
            new_password = secrets.token_urlsafe(9)
            with transaction.atomic():
                user = user_model.objects.create_superuser(ORGANIZER, password=new_password)
                password_change_mark_due(user=user)
            password_file.write_text(new_password)
            password_file.chmod(0o600)
        elif (
            # Set up before accounts had the flag: still the made-up password, then it is due.
            user is not None and password_file.exists() and not Account.objects.filter(user=user).exists()
            and user.check_password(password_file.read_text())
        ):
            password_change_mark_due(user=user)
        due = user is not None and password_change_due(user)
        if due and new_password is None and password_file.exists() and not user.check_password(
            password_file.read_text()
        ):
            password_change_clear_due(user=user)  # changed elsewhere (the Django admin)
            due = False
        if not due and password_file.exists():
            password_file.unlink()  # its owner chose their own: the made-up one opens nothing any more
        demo_marker = settings.VAR_DIR / "demo_loaded"
        if not no_demo and not demo_marker.exists() and not Tournament.objects.exists():
            call_command("load_demo", owner=user.username if user else None)
            demo_marker.touch()

        self.stdout.write("")
        self.stdout.write(self.style.SUCCESS("UNO tournament manager is starting."))
        for host in ["localhost", *lan_addresses()]:
            self.stdout.write(f"  http://{host}:{port}/")
        if new_password is not None:
            self.stdout.write(
                f"Log in as '{ORGANIZER}' with password '{new_password}'. It is shown only this once: "
                f"after logging in, choose your own password (the app asks for it)."
            )
        elif due:
            self.stdout.write(
                f"The password of '{ORGANIZER}' is still the one shown at the first start (kept in "
                f"{password_file} until you change it): log in and choose your own under /account/."
            )
        self.stdout.write("")
