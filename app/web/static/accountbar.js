// The account at hand on every screen: the header's link to your profile with your name and
// rating (or, signed out, to the rated games), and "You have a rated game in play" at the top
// of the page while you are seated at a rated table you are not looking at; at a rated table
// of a game whose own view shows no ratings, the ladder's strip (ladderview.js) instead.
import { useEffect, useState } from "./hooks.js";
import { api, keepSeat, seatOf } from "./api.js";
import { ACCOUNT_CHANGED, accountOf, points, shown, tableHref } from "./ladder.js";
import { RatedTableStrip } from "./ladderview.js";
import { html } from "./ui.js";

/** The rating the header shows: the pool the account has played most ({display,
 * provisional}), or a newcomer's 1500, provisional. */
export function headerRating(ratings) {
  const most = (ratings || []).reduce((best, r) => (!best || r.games > best.games ? r : best), null);
  return most ? { display: shown(most), provisional: !!most.provisional } : { display: 1500, provisional: true };
}

/** The signed-in account, kept in step with sign-ins and sign-outs (here or in another tab). */
function useAccount() {
  const [account, setAccount] = useState(accountOf());
  useEffect(() => {
    const on = () => setAccount(accountOf());
    addEventListener(ACCOUNT_CHANGED, on);
    addEventListener("storage", on);
    return () => { removeEventListener(ACCOUNT_CHANGED, on); removeEventListener("storage", on); };
  }, []);
  return account;
}

/** A counter bumped whenever this browser's account or its rating changes. */
function useAccountVersion() {
  const [version, setVersion] = useState(0);
  useEffect(() => {
    const on = () => setVersion((n) => n + 1);
    addEventListener(ACCOUNT_CHANGED, on);
    return () => removeEventListener(ACCOUNT_CHANGED, on);
  }, []);
  return version;
}

/** In the header: "alice · 1603" (a link to the profile), or "Rated play" when signed out. */
export function AccountLink({ route }) {
  const account = useAccount();
  const version = useAccountVersion();
  const [rated, setRated] = useState(null);
  const handle = account && account.handle;
  useEffect(() => {
    if (!handle) { setRated(null); return undefined; }
    let alive = true;
    api(`/ladder/players/${encodeURIComponent(handle)}`)
      .then(({ data }) => alive && setRated(headerRating(data.ratings)))
      .catch(() => { /* the name alone until the next screen */ });
    return () => { alive = false; };
  }, [handle, route, version]);
  if (!account) return html`<a class="button small" id="header-account" href="#/rated">Rated play</a>`;
  return html`<a class="button small account-link" id="header-account" href=${`#/player/${encodeURIComponent(handle)}`}>
    <span class="sr-only">Your profile: </span><b>${handle}</b>${rated ? html` <span class="header-rating"><span class="sr-only">rating </span>${points(rated.display)}${rated.provisional
      ? html`<span aria-hidden="true">?</span><span class="sr-only">, provisional</span>` : null}</span>` : null}</a>`;
}

/** At the top of every screen but your table's: your rated game in play, with its link. */
export function RatedInPlay({ route }) {
  const account = useAccount();
  const [game, setGame] = useState(null);
  const [last, setLast] = useState(null); // the last rated game's result, once no more in play
  const secret = account && account.secret;
  useEffect(() => {
    if (!secret) { setGame(null); return undefined; }
    let alive = true;
    const look = () => api("/ladder/queue", { token: secret }).then(({ data }) => {
      if (!alive) return;
      if (data.state === "seated" && data.game_uuid) {
        // (a seat already kept here may have moved to this browser since: never replaced)
        if (!seatOf(data.game_uuid)) keepSeat(data.game_uuid, { player_uuid: data.player_uuid, nickname: account.handle, rated: data.pool });
        setGame({ game: data.game_uuid, href: tableHref(data), pool: data.pool });
      } else {
        setGame(null);
        setLast(data.last_result || null);
      }
    }).catch(() => {});
    look();
    const timer = setInterval(look, 15000);
    return () => { alive = false; clearInterval(timer); };
  }, [secret, route]);
  // At the table of a game whose own view shows no ratings (every kind but Blef's): its strip.
  const playing = route.name === "table" && game && game.game === route.game;
  const over = route.name === "table" && !playing && last && last.game_uuid === route.game && !last.called_off;
  if (playing || over)
    return html`<${RatedTableStrip} key=${route.game} game=${route.game} handle=${account.handle} pool=${playing ? game.pool : last.pool} over=${!!over} />`;
  if (!game || ((route.name === "game" || route.name === "table") && route.game === game.game)) return null;
  return html`<p class="notice in-play" id="rated-in-play-top" role="status">You have a rated game in play.${" "}
    <a href=${game.href}>Go to your table</a>.</p>`;
}
