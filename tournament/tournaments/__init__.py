"""A tournament itself: its settings, logo and deletion."""
