"""Uploads bounded while they arrive, not after Django has received the whole file.

Two limits work together on a view with `UploadLimitMixin`:

- A request whose declared Content-Length is larger than the limit plus a little room for the other
  form fields is refused before a byte of its body is read.
- Within that, `LimitedUploadHandler` counts the bytes of the files as they arrive and stops the
  upload (`StopUpload`) as soon as there are more than the limit: the file is never kept, nothing
  after it is read, and the form shows the limit.

The handler has to be in place before anything reads `request.POST`, and CsrfViewMiddleware reads it
to find the token. So, as Django's documentation on upload handlers describes ("Modifying upload
handlers on the fly"), the view is `csrf_exempt` for the middleware and checks CSRF itself with
`csrf_protect` once the handler is installed. Every POST still needs the token.
"""

from __future__ import annotations

from django import forms
from django.core.files.uploadhandler import FileUploadHandler, StopUpload
from django.utils.decorators import method_decorator
from django.views.decorators.csrf import csrf_exempt, csrf_protect

# Room in a multipart body for the boundaries, the part headers, the CSRF token and the other fields.
FORM_OVERHEAD = 64 * 1024


def declared_length(request) -> int:
    """The request's Content-Length; Django reads no body at all when it is missing or invalid."""
    try:
        return max(0, int(request.META.get("CONTENT_LENGTH") or 0))
    except (TypeError, ValueError):
        return 0


class LimitedUploadHandler(FileUploadHandler):
    """The first handler: counts the bytes of all files of the request and stops after `max_bytes`.

    It raises before the chunk that goes over the limit reaches the handlers that keep the file (in
    memory or in a temporary file), and Django then closes and drops what they had.
    """

    def __init__(self, request=None, *, max_bytes: int) -> None:
        super().__init__(request)
        self.max_bytes = max_bytes
        self.received = 0  # bytes of file content this handler was given
        self.exceeded = False

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        self.received += len(raw_data)
        if self.received > self.max_bytes:
            self.exceeded = True
            # connection_reset: Django reads nothing more of the body (the default would read it all).
            raise StopUpload(connection_reset=True)
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None  # the next handler builds the file


class LimitedUploadForm(forms.Form):
    """A form with a file field `file`; `too_large=True` when the upload was stopped at the limit."""

    max_bytes: int
    too_large_message: str

    def __init__(self, *args, too_large: bool = False, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.too_large = too_large

    def full_clean(self) -> None:
        super().full_clean()
        if self.is_bound and self.too_large:
            self._errors.pop("file", None)  # "This field is required.": the file was dropped on arrival
            self.add_error("file", str(self.too_large_message))

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > self.max_bytes:  # a form used without the handler
            raise forms.ValidationError(str(self.too_large_message))
        return upload


class UploadLimitMixin:
    """For a view whose POST carries a file of at most `upload_form_class.max_bytes`.

    The view implements `upload_post` (by default the next class's `post`) and renders
    `upload_form_class` with `render_to_response(get_context_data(form=...))`.
    """

    upload_form_class: type[LimitedUploadForm]
    upload_handler: LimitedUploadHandler | None = None

    @method_decorator(csrf_exempt)
    def dispatch(self, request, *args, **kwargs):
        # The middleware would read the body before the handler is in place; post() checks CSRF.
        return super().dispatch(request, *args, **kwargs)

    def post(self, request, *args, **kwargs):
        limit = self.upload_form_class.max_bytes
        if declared_length(request) > limit + FORM_OVERHEAD:
            return self.upload_refused()  # nothing is read, nothing is changed: no CSRF check needed
        self.upload_handler = LimitedUploadHandler(request, max_bytes=limit)
        request.upload_handlers.insert(0, self.upload_handler)
        return self.checked_post(request, *args, **kwargs)

    @method_decorator(csrf_protect)
    def checked_post(self, request, *args, **kwargs):
        request.FILES  # noqa: B018 - read the body here, also when CSRF checks are off (tests)
        if self.upload_handler.exceeded:
            return self.upload_refused()
        return self.upload_post(request, *args, **kwargs)

    def upload_post(self, request, *args, **kwargs):
        return super().post(request, *args, **kwargs)

    def upload_refused(self):
        form = self.upload_form_class(data={}, files={}, too_large=True)
        return self.render_to_response(self.get_context_data(form=form), status=413)
