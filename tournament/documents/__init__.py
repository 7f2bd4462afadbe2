"""The printed documents: each document's data and HTML, laid out by engine.printing."""
