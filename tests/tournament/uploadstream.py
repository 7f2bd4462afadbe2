"""Request bodies for the upload limits: a multipart body given to the view as a stream that counts
what was read from it, and may be endless (a huge Content-Length that must not be read)."""

from __future__ import annotations

from django.test import Client

BOUNDARY = "uploadlimitboundary"
CONTENT_TYPE = f"multipart/form-data; boundary={BOUNDARY}"


def multipart_head(filename: str, token: str | None = None) -> bytes:
    """The body up to the file's content: the CSRF token first (as the page's form sends it)."""
    lines = []
    if token is not None:
        lines += [f"--{BOUNDARY}", 'Content-Disposition: form-data; name="csrfmiddlewaretoken"', "", token]
    lines += [
        f"--{BOUNDARY}",
        f'Content-Disposition: form-data; name="file"; filename="{filename}"',
        "Content-Type: application/octet-stream",
        "",
        "",
    ]
    return "\r\n".join(lines).encode()


def multipart_tail() -> bytes:
    return f"\r\n--{BOUNDARY}--\r\n".encode()


class CountingBody:
    """`head`, then `content` (or b"x" without end), then the closing boundary; counts the bytes read.

    Reading more than `cap` bytes fails the test at once instead of filling the memory.
    """

    def __init__(self, head: bytes, content: bytes | None = None, *, cap: int = 8 * 1024 * 1024) -> None:
        self.data = head + content + multipart_tail() if content is not None else head
        self.endless = content is None
        self.cap = cap
        self.read_bytes = 0

    def __len__(self) -> int:
        return len(self.data)

    def read(self, size: int | None = -1) -> bytes:
        if size is None or size < 0:
            assert not self.endless, "the whole of an endless body was asked for"
            size = len(self.data) - self.read_bytes
        assert self.read_bytes + size <= self.cap, f"read {self.read_bytes + size} bytes of the body"
        start = self.read_bytes
        chunk = self.data[start:start + size]
        if self.endless and len(chunk) < size:
            chunk += b"x" * (size - len(chunk))
        self.read_bytes += len(chunk)
        return chunk

    def readline(self, size: int | None = -1) -> bytes:
        """Used when Django drains a body; counted like read(), an endless one in 64 kB pieces."""
        if size is None or size < 0:
            size = 64 * 1024
        end = self.data.find(b"\n", self.read_bytes, self.read_bytes + size)
        return self.read(size if end == -1 else end + 1 - self.read_bytes)


def post_body(client: Client, url: str, body: CountingBody, *, length: int | None = None, headers=None):
    """POST `body` as the request's stream, declaring `length` (default: its real length)."""
    return client.generic(
        "POST",
        url,
        headers=headers,
        **{
            "wsgi.input": body,
            "CONTENT_LENGTH": str(len(body) if length is None else length),
            "CONTENT_TYPE": CONTENT_TYPE,
        },
    )
