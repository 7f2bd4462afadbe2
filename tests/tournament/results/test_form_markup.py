"""The result pages take every field name and length from `ResultForm`: a page whose markup names a
field the form does not have, or allows more characters than the form takes, fails here."""

from html.parser import HTMLParser

from django.urls import reverse

from tournament.results.forms import ResultForm


class Inputs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.found: list[dict[str, str]] = []

    def handle_starttag(self, tag, attrs):
        if tag == "input":
            self.found.append(dict(attrs))


def result_inputs(html: str, marker: str) -> list[dict[str, str]]:
    """The inputs of the result form (the CSRF token and the second player's check aside)."""
    form_html = html.split(marker, 1)[1].split("</form>", 1)[0]
    parser = Inputs()
    parser.feed(form_html)
    return [i for i in parser.found if i.get("name") not in ("csrfmiddlewaretoken", None)]


def assert_inputs_match_the_form(html, table, marker):
    form = ResultForm(seats=list(table.seats.all()))
    inputs = result_inputs(html, marker)
    names = {i["name"] for i in inputs}
    assert names <= set(form.fields), names - set(form.fields)
    per_seat = {name for name in form.fields if name.split("-")[0] in ("cards", "points", "count")}
    assert per_seat <= names  # every seat's three boxes are on the page
    for attrs in inputs:
        max_length = getattr(form.fields[attrs["name"]], "max_length", None)
        if "maxlength" in attrs or attrs.get("type") == "text":
            assert attrs.get("maxlength") == str(max_length), attrs


def test_the_captain_s_phone_names_and_limits_fields_as_the_form_does(client, table):
    html = client.get(table.get_captain_url()).content.decode()
    assert_inputs_match_the_form(html, table, 'class="report-form"')


def test_the_desk_entry_names_and_limits_fields_as_the_form_does(organizer_client, table):
    round_ = table.round
    url = reverse("organizer:table_result", args=[round_.tournament_id, round_.number, table.number])
    html = organizer_client.get(url).content.decode()
    assert_inputs_match_the_form(html, table, 'id="result-form"')
