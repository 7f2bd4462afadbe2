"""Organizer URLs."""

urlpatterns: list = []
