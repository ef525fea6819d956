"""Why a move is refused: one :class:`~engine.protocol.MoveRefused` subclass per rule.

Each has a stable ``code`` and a default sentence; the state gives a sentence with the
figures of the case (the seat's coins, the card's name, ...). A refused move changes nothing.
"""

from __future__ import annotations

from engine.protocol import MoveRefused


class WrongPhase(MoveRefused):
    code = "wrong_phase"
    default_message = (
        "That kind of move belongs to another phase: investing and attacking take [number], "
        'buying takes [card name] or ["Pass"]'
    )


class IndexOutOfRange(MoveRefused):
    code = "index_out_of_range"
    default_message = "There is no card at that index in your army"


class CannotAttack(MoveRefused):
    code = "cannot_attack"
    default_message = "That card cannot attack (the Stipend and Bubble never attack)"


class CannotDefend(MoveRefused):
    code = "cannot_defend"
    default_message = "That card cannot defend (the Stipend never defends)"


class CardUsedUp(MoveRefused):
    code = "card_used_up"
    default_message = "That card has already been used as often as it may be this attack phase"


class BadInvestment(MoveRefused):
    code = "bad_investment"
    default_message = "An investment is a whole number of coins from 0 to the coins you have"


class CannotAfford(MoveRefused):
    code = "cannot_afford"
    default_message = "You cannot buy a card that costs more than the coins you have"


class NotInShop(MoveRefused):
    code = "not_in_shop"
    default_message = "That card is not sold in this game's shop"


class AlreadyChose(MoveRefused):
    code = "already_chose"
    default_message = "This seat has already made its choice; the others are still choosing"
