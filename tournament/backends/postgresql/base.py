"""Django's PostgreSQL backend, with a health check that asks the operating system, not the server.

Django checks a kept connection before the first query of each request (CONN_HEALTH_CHECKS) by
sending `SELECT 1`: one more round trip for every request, on the same two cores as the server
(docs/performance.md). A server that restarted, or ended the session, has closed its end of the
socket, and the socket then has something to read (its goodbye, the end of the stream), while an
idle healthy connection has nothing. Polling the socket without waiting tells the two apart at no
cost to the server. Django replaces a connection found unusable, as before.
"""

from __future__ import annotations

import select

from django.db.backends.postgresql import base
from psycopg import pq

_HEALTHY = (pq.TransactionStatus.IDLE, pq.TransactionStatus.INTRANS)


class DatabaseWrapper(base.DatabaseWrapper):
    def is_usable(self) -> bool:
        connection = self.connection
        if connection is None or connection.pgconn.status != pq.ConnStatus.OK:  # closed, or known broken
            return False
        if connection.info.transaction_status not in _HEALTHY:
            return False  # a failed transaction: Django's SELECT 1 would fail as well
        poller = select.poll()
        poller.register(connection.fileno(), select.POLLIN)
        return not poller.poll(0)
