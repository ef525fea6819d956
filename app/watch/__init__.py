"""Watching a game over a websocket: what watchers send and receive.

The established iOS client opens a websocket with the game's UUID and its player's UUID (in
lower-case request headers, or here also as query parameters) and expects, for every change,
one text message ``{"statusCode": 200, "body": "<the state object as a JSON string>"}``.

- :mod:`app.watch.messages`: reading the credentials, shaping the messages (shared by the
  local websocket route and the AWS handlers).
- :mod:`app.watch.connections`: the AWS side's open connections, as items of the games table.
- :mod:`app.watch.pusher`: the AWS side's pusher, fed by the table's stream.
"""
