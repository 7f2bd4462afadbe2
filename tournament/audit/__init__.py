"""The audit log: its actions (actions.py), writing an entry (services.py), reading it (selectors.py)."""
