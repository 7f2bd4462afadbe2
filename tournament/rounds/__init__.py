"""Rounds and seating: seat, plan, swap, publish, open, close, reopen."""
