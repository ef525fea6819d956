#!/usr/bin/env python3
"""Economancy player: the built-in ``greedy_attack`` agent as a program speaking the protocol."""

from _player import main

if __name__ == "__main__":
    main("greedy_attack")
