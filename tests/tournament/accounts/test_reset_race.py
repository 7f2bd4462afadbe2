"""The same reset link sent twice at the same moment (two taps, two tabs) sets the password once."""

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError

from tests.factories import UserFactory
from tests.tournament.signup.test_services import run_together
from tournament.accounts import tokens
from tournament.accounts.services import RefusalCode, password_reset
from tournament.audit.actions import AuditAction
from tournament.models import AuditEntry

pytestmark = pytest.mark.django_db(transaction=True)


def test_one_link_used_from_two_devices_at_once_sets_one_password():
    vera = UserFactory(username="vera-race")
    token = tokens.make_token(vera)
    passwords = ["Erstes-Passwort-1", "Zweites-Passwort-2"]
    results = run_together([
        lambda password=password: password_reset(
            person=get_user_model().objects.get(pk=vera.pk), token=token, new_password=password
        )
        for password in passwords
    ])
    refused = [r for r in results if isinstance(r, ValidationError)]
    assert len(refused) == 1 and refused[0].code == RefusalCode.LINK_INVALID
    vera.refresh_from_db()
    assert [vera.check_password(p) for p in passwords].count(True) == 1
    assert AuditEntry.objects.filter(action=AuditAction.ACCOUNT_PASSWORD_RESET).count() == 1
