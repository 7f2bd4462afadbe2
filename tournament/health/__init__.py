"""The health endpoint (/healthz) a reverse proxy or a monitor asks before sending requests to a server."""
