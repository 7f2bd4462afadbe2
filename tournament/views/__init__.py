"""The pages, grouped by audience: organizer/, captain, public and projector, printing."""
