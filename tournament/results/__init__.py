"""Table results: the one result form of phone and desk, storing and confirming versions."""
