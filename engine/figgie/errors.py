"""Why Figgie refuses an order: one :class:`~engine.protocol.MoveRefused` subclass per rule,
each with a stable ``code`` and a sentence naming the rule. Nothing changes on a refusal.

A price that is not an integer and a suit that does not exist are also
:class:`~engine.protocol.MalformedMove`: :meth:`FiggieGame.parse_move` raises them when it
reads JSON, and the state raises them for a move built by hand.
"""

from __future__ import annotations

from engine.protocol import MalformedMove, MoveRefused


class PriceNotInteger(MalformedMove, MoveRefused):
    code = "price_not_integer"
    default_message = "A price is a whole number of chips"


class UnknownSuit(MalformedMove, MoveRefused):
    code = "unknown_suit"
    default_message = "The suits are spades, clubs, hearts and diamonds"


class PriceOutOfRange(MoveRefused):
    code = "price_out_of_range"
    default_message = "A price must be within the table's range"


class NoCardToSell(MoveRefused):
    code = "no_card_to_sell"
    default_message = "You can only offer or sell a suit you hold"


class NothingToTake(MoveRefused):
    code = "nothing_to_take"
    default_message = "There is no quote from another player on that side of that suit"


class CrossesTheBook(MoveRefused):
    code = "crosses_the_book"
    default_message = "A bid must be below the best ask, and an ask above the best bid"


class NoQuoteToCancel(MoveRefused):
    code = "no_quote_to_cancel"
    default_message = "You have no quote there to cancel"


class TradingOver(MoveRefused):
    code = "trading_over"
    default_message = "Trading has ended: orders are taken only before the deadline"


class NotSeated(MoveRefused):
    code = "not_seated"
    default_message = "Only a player seated in this game may trade"
