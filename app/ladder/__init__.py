"""The ladder: accounts, rated games, quick play, ratings and leaderboards.

Its own use cases, by area (app/ladder/service.py composes them), over its own store, one
protocol per section (app/ladder/store.py, with SQLite in app/ladder/sqlite/ and DynamoDB in
app/ladder/dynamo/, made from the settings by app/ladder/factory.py), calling the game
service's public use cases to seat a table (create, join, invite, change the rules, start)
and to hear how a finished game ended (``finished``: a typed value), never its insides.
Nothing here is imported by the HTTP entry point at import: the routes load it on first use,
and the rating library (OpenSkill) loads on the first rated result.
"""
