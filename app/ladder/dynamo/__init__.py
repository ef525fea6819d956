"""The ladder's store on DynamoDB, by section, over its own table (the schema:
app/store/dynamo/ladder_keys.py; the design and its costs: docs/ladder-dynamodb.md).

- :mod:`.base`: the plumbing every section shares (reads, transactions, conditions);
- :mod:`.items`: an item to a value and back;
- :mod:`.accounts` (accounts and keys, allowances, deletion), :mod:`.passkeys`
  (challenges and passkeys), :mod:`.queue` (the queue and placing: tables, the matcher's
  lease), :mod:`.ratings` (settlements, results, ratings and boards), :mod:`.bots`;
- :mod:`.store`: :class:`~app.ladder.dynamo.store.LadderDynamo`, every section together.

This package's ``__init__`` imports nothing.
"""
