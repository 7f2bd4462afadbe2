"""People's own accounts: their name and password, reset links an organizer hands over in the hall."""
