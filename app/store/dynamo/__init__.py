"""The DynamoDB store and the one home of the games table's schema.

- :mod:`app.store.dynamo.keys`: every item's key and the attribute names the indexes and
  TTL use, declared once (the websocket's items too);
- :mod:`app.store.dynamo.paging`: the one loop that reads every page of a Query;
- :mod:`app.store.dynamo.stream`: what a stream record's image holds (a game's state, an
  ended round), for the pusher and the clock;
- :mod:`app.store.dynamo.store`: :class:`~app.store.dynamo.store.DynamoStore` and the
  table's creation.

Nothing here is imported by the SQLite paths; this package's ``__init__`` imports nothing.
"""
