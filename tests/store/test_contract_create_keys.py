"""The store contract, keyed creates: a hash of a create's Idempotency-Key maps to the one
game it made, claimed by an atomic insert-if-absent."""

from __future__ import annotations

import threading

from app.store.base import GameStore

GAME_A = "11111111-1111-4111-8111-111111111111"
GAME_B = "22222222-2222-4222-8222-222222222222"


def test_an_unclaimed_key_finds_no_game(store: GameStore) -> None:
    assert store.find_create_key("sha256:nobody") is None


def test_the_first_claim_of_a_key_wins_and_later_claims_get_its_game(store: GameStore) -> None:
    assert store.claim_create_key("sha256:k", GAME_A, 4_000_000_000) == GAME_A
    assert store.claim_create_key("sha256:k", GAME_B, 4_000_000_000) == GAME_A
    assert store.find_create_key("sha256:k") == GAME_A


def test_different_keys_claim_different_games(store: GameStore) -> None:
    assert store.claim_create_key("sha256:one", GAME_A, 4_000_000_000) == GAME_A
    assert store.claim_create_key("sha256:two", GAME_B, 4_000_000_000) == GAME_B


def test_racing_claims_of_one_key_all_learn_the_same_single_winner(store: GameStore) -> None:
    candidates = [f"{n:08d}-0000-4000-8000-000000000000" for n in range(8)]
    answers: list[str] = []
    lock = threading.Lock()
    barrier = threading.Barrier(len(candidates))

    def claim(game: str) -> None:
        barrier.wait()
        owner = store.claim_create_key("sha256:race", game, 4_000_000_000)
        with lock:
            answers.append(owner)

    threads = [threading.Thread(target=claim, args=(g,)) for g in candidates]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(answers)) == 1 and answers[0] in candidates
    assert store.find_create_key("sha256:race") == answers[0]
