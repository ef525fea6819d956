"""What watchers send (credentials) and receive (the envelope), shared by both websockets."""

from __future__ import annotations

import doctest
import json

from app.service.errors import GameNotFound
from app.watch import messages
from app.watch.messages import Credentials, credentials, error_message, state_message


def test_the_doctests_of_the_messages_module_pass() -> None:
    assert doctest.testmod(messages).failed == 0


def test_a_header_wins_over_a_query_parameter_and_a_blank_one_does_not_count() -> None:
    assert credentials({"game_uuid": "h"}, {"game_uuid": "q"}) == Credentials("h", None)
    assert credentials({"game_uuid": ""}, {"game_uuid": "q"}) == Credentials("q", None)
    assert credentials(None, None) == Credentials(None, None)


def test_the_body_of_every_message_is_a_string_of_json() -> None:
    state = json.loads(state_message({"public": "false", "hands": []}))
    assert state == {"statusCode": 200, "body": '{"public": "false", "hands": []}'}
    error = json.loads(error_message(400, GameNotFound()))
    assert error["statusCode"] == 400
    assert json.loads(error["body"]) == {"error": "Game does not exist", "code": "game_not_found"}


def test_a_seats_secret_is_read_from_a_bearer_header_as_the_tables_routes_take_it() -> None:
    assert credentials({"Authorization": "Bearer p"}, None) == Credentials(None, "p")
    assert credentials({"authorization": "bearer  p "}, {"game_uuid": "g"}) == Credentials("g", "p")
    assert credentials({"player_uuid": "q", "Authorization": "Bearer p"}, None).player_uuid == "q"


def test_an_authorization_header_of_another_scheme_or_without_a_token_is_no_secret() -> None:
    for value in ("Basic cDpw", "Bearer", "Bearer   ", "", "p"):
        assert credentials({"Authorization": value}, None) == Credentials(None, None)
