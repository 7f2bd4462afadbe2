"""Print URLs."""

urlpatterns: list = []
