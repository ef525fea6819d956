// A rated table's ratings (GET /ladder/games/{game}): each seat's rating and what a win and a
// loss would change, then each seat's change once the game is settled. Pure helpers first
// (tested under node), then the hook and the line the table shows above the felt.
import { useEffect, useState } from "./hooks.js";
import { api, ApiError } from "./api.js";
import { points, shown, shownChange, signedPoints, stakeWords } from "./ladder.js";
import { poolTitle, usePools } from "./pools.js";
import { html } from "./ui.js";

/** The rated seat of a game's player: a person's by the handle they play under, a computer
 * level's by its agent (each level sits at most once at a rated table); or null. */
export function ratedSeatOf(rated, player) {
  if (!rated || !player) return null;
  if (player.ai_agent) return rated.seats.find((s) => s.agent && s.agent === player.ai_agent) || null;
  return rated.seats.find((s) => !s.agent && s.handle === player.nickname) || null;
}

/** A seat's rating at the table: its rating ("1500", marked provisional), or once settled
 * its new rating and change ("1603 (+103)"). */
export function SeatRating({ seat }) {
  if (!seat) return null;
  if (typeof seat.place === "number") {
    const c = shownChange(seat);
    return html`<span class="seat-rating">${points(c.after)} (${signedPoints(c.change)})<span class="sr-only"> rating after this game</span></span>`;
  }
  if (typeof seat.display_rating !== "number") return null;
  return html`<span class="seat-rating">${points(seat.display_rating)}${seat.provisional
    ? html`<span aria-hidden="true">?</span><span class="sr-only"> rating, provisional</span>` : html`<span class="sr-only"> rating</span>`}</span>`;
}

/** The table's rated seats, asked once, and again after the game ends until it is settled;
 * null for a game no rated table plays. */
export function useRatedTable(game, finished) {
  const [rated, setRated] = useState(null);
  useEffect(() => {
    let alive = true;
    let tries = 0;
    let timer = null;
    const ask = () => api(`/ladder/games/${game}`).then(({ data }) => {
      if (!alive) return;
      setRated(data);
      tries += 1;
      if (finished && data.state !== "settled" && tries < 30) timer = setTimeout(ask, 1000);
    }).catch((e) => {
      if (alive && e instanceof ApiError && e.code === "not_a_rated_game") setRated(null);
    });
    ask();
    return () => { alive = false; clearTimeout(timer); };
  }, [game, finished]);
  return rated;
}

/** Above the felt: "Rated game (standard, 2 players). Your rating 1500 (provisional): a win
 * +103, a loss −55." and the link to what the numbers mean. */
export function RatedLine({ rated, st, me }) {
  const pools = usePools();
  const mine = ratedSeatOf(rated, st.players.find((p) => p.nickname === me));
  const stake = mine && rated.state !== "settled" ? stakeWords(mine, rated.seats.filter((x) => x.rated !== false).length) : "";
  return html`<p class="small" id="rated-line"><b>Rated game</b> (${poolTitle(rated.pool, pools)}).
    ${mine && rated.state !== "settled" ? html` Your rating <b>${points(shown(mine))}</b>${mine.provisional ? " (provisional)" : ""}${stake ? html`: <span id="stakes">${stake}</span>` : ": this game does not change it (you have played these players often today)"}.` : null}
    ${" "}<a href="#/about-ratings">What the numbers mean</a></p>`;
}

/** Above the felt before the table's ratings are read: "Rated game (standard, 2 players):
 * your place changes your rating." */
export function SeatRatedLine({ pool }) {
  const pools = usePools();
  return html`<p class="small" id="rated-line"><b>Rated game</b> (${poolTitle(pool, pools)}): your place changes your rating.</p>`;
}
