"""Organizer URLs."""

urlpatterns: list = []

# Captain links and table history (tournament/views/captain_links.py).
from .views.captain_links import organizer_urlpatterns as captain_link_urlpatterns  # noqa: E402

urlpatterns += captain_link_urlpatterns
