"""The ladder's store in SQLite (the same file as the games, its own tables), by section.

- :mod:`.schema`: the tables, made (and brought up to date) by the first connection;
- :mod:`.base`: the connections and the rows every section reads (an account, a table);
- :mod:`.accounts` (accounts and keys, allowances, deletion), :mod:`.passkeys`,
  :mod:`.queue` (the queue and placing, the matcher's lease), :mod:`.ratings`
  (settlements, results, ratings and boards), :mod:`.bots`;
- :mod:`.store`: :class:`~app.ladder.sqlite.store.LadderSqlite`, every section together.

Each change of an account's state is one ``BEGIN IMMEDIATE`` transaction whose updates are
conditional on the state read (``WHERE state = ...``): a lost condition rolls everything
back. This package's ``__init__`` imports nothing.
"""
