// Checking a round's deal in the page, by the algorithm documented in engine/dealing.py:
// commitment = SHA-256(seed); n = SHA-256("blef/deal/v1" + seed) read as a big-endian
// number; pick cards from [0..23] by n's digits in the mixed radix 24, 23, 22, ...
const DEAL_TAG = new TextEncoder().encode("blef/deal/v1");

export function hexToBytes(hex) {
  if (!/^([0-9a-f]{2})*$/i.test(hex)) throw new Error("not hex");
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(2 * i, 2 * i + 2), 16);
  return out;
}

function toHex(buffer) {
  return [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export async function sha256Hex(bytes) {
  return toHex(await crypto.subtle.digest("SHA-256", bytes));
}

/** The first `count` card indices (value * 4 + colour) of the ordering `seed` picks. */
export async function dealIndices(seed, count) {
  const joined = new Uint8Array(DEAL_TAG.length + seed.length);
  joined.set(DEAL_TAG);
  joined.set(seed, DEAL_TAG.length);
  let n = BigInt("0x" + (await sha256Hex(joined)));
  const remaining = Array.from({ length: 24 }, (_, i) => i);
  const picked = [];
  for (let left = 24; left > 24 - count; left--) {
    const i = Number(n % BigInt(left));
    n /= BigInt(left);
    picked.push(remaining.splice(i, 1)[0]);
  }
  return picked;
}

/** Hands of card indices, each sorted, for hand sizes in seating order. */
export async function dealHands(seed, sizes) {
  const total = sizes.reduce((a, b) => a + b, 0);
  const order = await dealIndices(seed, total);
  const hands = [];
  let at = 0;
  for (const size of sizes) {
    hands.push(order.slice(at, at + size).sort((a, b) => a - b));
    at += size;
  }
  return hands;
}

/**
 * Verify one round snapshot ({players, hands, commitment, seed}): the seed matches the
 * commitment and re-deals exactly the hands shown. Returns {ok, reason}.
 */
export async function verifyRound(round) {
  let seed;
  try {
    seed = hexToBytes(round.seed || "");
  } catch {
    return { ok: false, reason: "the seed is not hexadecimal" };
  }
  if (seed.length !== 32) return { ok: false, reason: "the seed is not 32 bytes" };
  if ((await sha256Hex(seed)) !== round.commitment)
    return { ok: false, reason: "SHA-256 of the seed differs from the commitment" };
  const seated = round.players.filter((p) => p.n_cards > 0);
  const dealt = await dealHands(seed, seated.map((p) => p.n_cards));
  const shown = new Map(round.hands.map((h) => [h.nickname, h.hand]));
  for (let i = 0; i < seated.length; i++) {
    const hand = (shown.get(seated[i].nickname) || []).map((c) => c.value * 4 + c.colour);
    hand.sort((a, b) => a - b);
    if (hand.join(",") !== dealt[i].join(","))
      return { ok: false, reason: `${seated[i].nickname}'s hand is not the one the seed deals` };
  }
  return { ok: true, reason: "the seed matches the commitment and deals every hand shown" };
}
