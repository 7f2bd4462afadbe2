"""The round clock: its state (selectors.py), starting, pausing, resuming, removing it (services.py)."""
