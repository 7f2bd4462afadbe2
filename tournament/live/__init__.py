"""What the hall sees: the projector and the public page (seating, standings, seat lookup)."""
