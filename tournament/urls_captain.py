"""Captain URLs: one page per table, reached by the table's secret token only."""

from django.urls import path

from .views.captain import CaptainCheckView, CaptainHandView, CaptainTableView

urlpatterns = [
    path("<str:token>/", CaptainTableView.as_view(), name="table"),
    path("<str:token>/hand/", CaptainHandView.as_view(), name="hand"),
    path("<str:token>/check/", CaptainCheckView.as_view(), name="check"),
]
