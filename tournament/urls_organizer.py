"""Organizer URLs."""

from django.urls import path

from .views import audit, backup

urlpatterns: list = [
    path("<int:tournament_pk>/audit/", audit.AuditLogView.as_view(), name="audit"),
    path("<int:tournament_pk>/backup.json", backup.BackupDownloadView.as_view(), name="backup"),
]
