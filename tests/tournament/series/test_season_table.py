"""The season table's page body (`SeasonTable.page_lines`, built without django-tables2's per-cell
machinery) renders exactly what django-tables2's own template renders for the same table."""

import datetime
import re

import pytest
from django.test import RequestFactory
from django_tables2 import RequestConfig

from tests.factories import PlayerFactory, SeriesFactory, played_evening
from tournament.series.selectors import series_standings
from tournament.series.tables import MISSING, SeasonTable, season_rows

pytestmark = pytest.mark.django_db


def squeezed(html: str) -> str:
    html = re.sub(r"\s+", " ", html)
    html = re.sub(r">\s+", ">", re.sub(r"\s+<", "<", html))
    return re.sub(r"<(\w+) >", r"<\1>", html)


@pytest.fixture
def data():
    """Four evenings, the best three count: bracketed and missed evenings, a line without a club, and a
    player below the minimum of three evenings (not ranked, grey)."""
    series = SeriesFactory(best_of=3, min_evenings=3)
    people = PlayerFactory.create_batch(9)
    people[0].club = None
    people[0].save()
    for index, present in enumerate([people, people[1:], people[:-2], people[2:]]):
        played_evening(series=series, players=present, date=datetime.date(2026, 1, 10 + 7 * index),
                       scores={player: (player.pk * (index + 3)) % 11 for player in present})
    return series_standings(series)


def test_the_lean_body_renders_what_django_tables2_renders(data):
    pages = []
    for page in (1, 2, 3):
        request = RequestFactory().get("/", {"page": page})
        rendered = []
        for template in (None, "django_tables2/table.html"):
            table = SeasonTable(data, season_rows(data), **({"template_name": template} if template else {}))
            RequestConfig(request, paginate={"per_page": 4}).configure(table)
            rendered.append(squeezed(table.as_html(request)))
        ours, theirs = rendered
        assert ours == theirs
        pages.append(ours)
    assert [page.count("<tr") for page in pages] == [5, 5, 2]  # the header line and 4, 4, 1 players
    body = "".join(pages)
    # Every kind of cell was compared: an evening that does not count, a missed one, a line not ranked.
    assert "(" in body and MISSING in body and 'class="incomplete even"' in body and 'class="odd"' in body
