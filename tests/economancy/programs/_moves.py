"""The one decision every example program here shares, so that each file shows only its
way of reading and writing: invest nothing, stop attacking, defend with the first usable
card, buy the first card it can afford that is not sold out (else pass)."""

DEFENDS = {"Sorcerer's Stipend": 0, "Wall of Wealth": 2}
COST = {
    "Board of Monopoly": 2, "Incantation": 4, "Worker": 1, "Magic Bean Stock": 1, "Bubble": 2,
    "Ghost": 2, "Senior Worker": 2, "Gold Fish": 3, "Wall of Wealth": 1, "Apprentice": 3,
    "Thug": 3, "Shield of Greed": 4, "Golem": 5,
}  # fmt: skip


def choose(state):
    """The move as a bare value: an integer, or a card name (or "Pass")."""
    phase = state["phase"]
    me = state["players"][state["player"]]
    if phase["name"] == "investing":
        return 0
    if phase["name"] == "buy":
        for name, left in state["shop"].items():
            if left and COST[name] <= me["coins"]:
                return name
        return "Pass"
    if phase["attacker"] == state["player"]:
        return 0
    for i, card in enumerate(me["cards"]):
        if card["uses"] < DEFENDS.get(card["name"], 1):
            return i
    raise AssertionError("asked to defend with no usable defender")
