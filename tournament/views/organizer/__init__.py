"""The organizer's pages, one module per page group; base.py holds what they share."""
