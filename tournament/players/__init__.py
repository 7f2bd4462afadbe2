"""Players and registrations: register, import, change, check in, withdraw."""
