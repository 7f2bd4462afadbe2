from tests.tournament.conftest import english, fast_password_hashing  # noqa: F401  (autouse fixtures)
