"""The ladder: accounts, rated games, quick play, ratings and leaderboards.

Its own use cases (app/ladder/service.py) over its own store protocol (app/ladder/store.py,
with SQLite in app/ladder/sqlite/ and DynamoDB in app/ladder/dynamo/, made from the
settings by app/ladder/factory.py), calling the game service's public use cases to seat a
table (create, join, change the rules, start, read a finished game's record), never its
insides. Nothing here is imported by the HTTP entry point at import: the routes load it on
first use, and the rating library (OpenSkill) loads on the first rated result.
"""
