"""WSGI entry point, used by gunicorn in the hall and on a server."""

import os
from importlib import import_module

from django.conf import settings
from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tournament.settings")
application = get_wsgi_application()
# Django imports the URLconf, and with it every view and WeasyPrint (about 0.5 s), at the first request.
# Import it here instead: with gunicorn's preload_app the workers are forked with it loaded, so no
# phone's first request to a fresh worker waits for it.
import_module(settings.ROOT_URLCONF)
