"""Print URLs (namespace "print", mounted at /print/): the organizer's PDFs and the page listing them."""

from django.urls import path

from .views import printing

T = "<int:tournament_pk>/"
R = T + "rounds/<int:number>/"

urlpatterns = [
    path(T, printing.DocumentsView.as_view(), name="documents"),
    path(T + "logo/", printing.LogoView.as_view(), name="logo"),
    path(R + "table-sheets.pdf", printing.TableSheetsPdfView.as_view(), name="table_sheets"),
    path(R + "seating.pdf", printing.SeatingPdfView.as_view(), name="seating"),
    path(T + "standings.pdf", printing.StandingsPdfView.as_view(), name="standings"),
    path(T + "start-cards.pdf", printing.StartCardsPdfView.as_view(), name="start_cards"),
    path(T + "certificates.pdf", printing.CertificatesPdfView.as_view(), name="certificates"),
    path(T + "cash-report.pdf", printing.CashReportPdfView.as_view(), name="cash_report"),
    path(T + "cash-record.pdf", printing.CashRecordPdfView.as_view(), name="cash_record"),
    path(T + "series-standings.pdf", printing.SeriesStandingsPdfView.as_view(), name="series_standings"),
    path(
        T + "series-certificates.pdf", printing.SeriesCertificatesPdfView.as_view(),
        name="series_certificates",
    ),
    path(
        T + "category-certificates.pdf", printing.CategoryCertificatesPdfView.as_view(),
        name="category_certificates",
    ),
    path(T + "rankings.pdf", printing.RankingsPdfView.as_view(), name="rankings"),
]
