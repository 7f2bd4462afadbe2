"""Captain URLs: one page per table, reached by the table's secret token only."""

from django.urls import path

from .views.captain import CaptainHandView, CaptainTableView

urlpatterns = [
    path("<str:token>/", CaptainTableView.as_view(), name="table"),
    path("<str:token>/hand/", CaptainHandView.as_view(), name="hand"),
]
