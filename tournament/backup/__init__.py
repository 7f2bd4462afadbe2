"""A whole tournament as one JSON file: its format, reading it out (selectors.py), restoring it and
writing backup files (services.py)."""
