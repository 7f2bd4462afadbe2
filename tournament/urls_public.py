"""Public URLs."""

urlpatterns: list = []
