// `#/player/<handle>`: a player's ratings by pool (on the displayed scale, provisional said),
// each with its game, the record of recent wins and losses, one rating chart per pool (each on
// an axis of that pool's own games), and the recent rated games: when, against whom, the
// place, the rating change, the game's table and its replay where its game has one (the
// game's entry in games.js says where). Numbers from ladder.js; the chart is uPlot.
import { useEffect, useMemo, useRef, useState } from "./hooks.js";
import { api } from "./api.js";
import { words } from "./errors.js";
import { accountOf, changeWords, historySeries, points, recordWords, shown, shownChange } from "./ladder.js";
import { byPlaces, gameLinks, gameOfPool, houseName, mostPlayedPool, poolColour, poolFullTitle, poolTitle, usePools } from "./pools.js";
import { html } from "./ui.js";
import uPlot from "./uplot.js";
import { shownName } from "./playernames.js";

/** When a game was settled, in the reader's own words for dates, short: "Nov 26, 9:04 PM"
 * (the year too when it is not this one). */
export function when(seconds) {
  const at = new Date(seconds * 1000);
  const year = at.getFullYear() === new Date().getFullYear() ? undefined : "numeric";
  return at.toLocaleString(undefined, { year, month: "short", day: "numeric", hour: "numeric", minute: "2-digit" });
}

export function Profile({ handle }) {
  const [profile, setProfile] = useState(null);
  const [error, setError] = useState(null);
  const pools = usePools();
  useEffect(() => {
    api(`/ladder/players/${encodeURIComponent(handle)}`).then(({ data }) => setProfile(data)).catch((e) => setError(e));
  }, [handle]);
  const most = profile ? mostPlayedPool(profile.ratings) : null;
  const site = most && pools.length ? gameOfPool(most, pools).name : houseName();
  useEffect(() => { document.title = `${shownName(handle)} · ${site}`; }, [handle, site]);
  const series = useMemo(() => profile ? historySeries(profile.games, pools.map((p) => p.name)) : [], [profile, pools]);
  if (error) return html`<section class="panel"><h1 id="page-heading" tabindex="-1">${shownName(handle)}</h1>
    <p class="problem">${words(error)}</p><p><a class="button" href="#/">Back to the lobby</a></p></section>`;
  if (!profile) return html`<section class="panel"><h1 id="page-heading" tabindex="-1">${shownName(handle)}</h1><p>Loading…</p></section>`;
  const me = accountOf();
  const record = Object.fromEntries((profile.recent_record || []).map((r) => [r.pool, r]));
  return html`<section class="panel profile">
    <h1 id="page-heading" tabindex="-1">${shownName(profile.handle)}${profile.bot ? html` <span class="badge bot">${profile.level ? "computer player" : "bot"}</span>` : null}${me && me.handle === profile.handle ? html` <span class="badge">you</span>` : null}</h1>
    <h2>Ratings</h2>
    ${profile.ratings.length ? html`<table class="ratings" id="pool-ratings">
      <caption class="sr-only">Ratings by pool</caption>
      <thead><tr><th scope="col">Pool</th><th scope="col">Rating</th><th scope="col">Rank</th><th scope="col">Games</th></tr></thead>
      <tbody>${profile.ratings.map((r) => html`<tr key=${r.pool}>
        <td><a href=${`#/ladder/${r.pool}`}>${poolFullTitle(r.pool, pools)}</a></td>
        <td><b>${points(shown(r))}</b>${r.provisional ? html` <span class="prov-word">provisional</span>` : ""}</td>
        <td>${r.rank ?? "–"}</td><td>${r.games}</td></tr>`)}</tbody>
    </table>
    <p class="muted small">Provisional: fewer than 10 rated games in that pool, so the rating may still move a lot.${" "}
      <a href="#/about-ratings">What the numbers mean</a>.</p>`
      : html`<p>No rated game yet. Everyone starts at 1500. <a href="#/about-ratings">What the numbers mean</a>.</p>`}
    ${series.map((p) => html`<section key=${p.name} class="pool-history" aria-labelledby=${`history-${p.name}`}>
      <h2 id=${`history-${p.name}`}>${poolFullTitle(p.name, pools)}</h2>
      ${record[p.name] ? html`<p class="record" id=${`record-${p.name}`}>Record in the ${p.games.length === 1 ? "last rated game" : `last ${p.games.length} rated games`} of this pool:${" "}
        <b>${recordWords(record[p.name])}</b> <span class="muted small">(a win is first place)</span></p>` : null}
      <figure class="chart-figure" aria-labelledby=${`caption-${p.name}`}>
        <${RatingChart} pool=${p.name} series=${p} colour=${poolColour(p.name, pools)} />
        <figcaption id=${`caption-${p.name}`} class="muted small">${p.games.length === 1 ? "The rating before and after the one rated game of this pool."
          : `The rating before the first of these ${p.games.length} games of this pool, then after each, oldest on the left.`}${" "}
          The same numbers are in the table below.</figcaption>
      </figure>
    </section>`)}
    ${profile.games.length ? html`<${HistoryTable} games=${profile.games} pools=${pools} handle=${profile.handle} />` : null}
    <p><a class="button small" href=${most ? `#/ladder/${most}` : "#/ladder"}>Leaderboard</a>
      <a class="button small" href="#/">Back to the lobby</a></p>
  </section>`;
}

function HistoryTable({ games, pools, handle }) {
  return html`<div class="table-scroll"><table class="ratings history-table" id="rating-history">
    <caption>Recent rated games, newest first</caption>
    <thead><tr><th scope="col">When</th><th scope="col">Place</th><th scope="col">Rating</th><th scope="col">Against</th><th scope="col">Pool</th><th scope="col">Game</th><th scope="col">Replay</th></tr></thead>
    <tbody>${games.map((g) => {
      const up = !g.void && shownChange(g).change > 0;
      const game = gameOfPool(g.pool, pools).name;
      const links = gameLinks(g, pools);
      const at = when(g.settled_at);
      return html`<tr key=${g.game_uuid}>
      <td><time datetime=${new Date(g.settled_at * 1000).toISOString()}>${when(g.settled_at)}</time></td>
      <td>${g.void ? "not rated" : `${g.place} of ${g.of}${g.place === 1 ? " (won)" : ""}`}</td>
      <td class=${g.void ? "" : up ? "up" : "down"}>${g.void ? "–" : changeWords(g)}</td>
      <td>${(g.opponents || []).map((o, i) => html`${i ? ", " : ""}<a href=${`#/player/${encodeURIComponent(o.handle)}`}>${shownName(o.handle)}</a>`)}</td>
      <td>${poolTitle(g.pool, pools)}</td>
      <td><a href=${links.table} aria-label=${`The ${game} table of ${at}`}>${game}</a></td>
      <td><a href=${links.replay} aria-label=${`Replay of the game of ${at}: ${byPlaces(g, handle)}`}>Replay</a></td></tr>`;
    })}</tbody>
  </table></div>`;
}

/** One pool's chart (uPlot on a canvas, hidden from screen readers: the table says the same),
 * its x axis that pool's own games. */
function RatingChart({ pool, series, colour }) {
  const box = useRef(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return undefined;
    const width = () => Math.max(240, Math.min(640, el.clientWidth || 320));
    const opts = {
      width: width(),
      height: 200,
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: { x: { time: false } },
      axes: [
        { label: "games in this pool", stroke: "#1b1b1b", grid: { stroke: "#e5e0d4" }, incrs: [1, 2, 5, 10], values: (u, v) => v.map((x) => String(x)) },
        { label: "rating", stroke: "#1b1b1b", grid: { stroke: "#e5e0d4" }, size: 56, values: (u, v) => v.map((y) => points(Math.round(y))) },
      ],
      series: [{}, { label: pool, stroke: colour, width: 2.5, points: { show: true, size: 7 } }],
    };
    const chart = new uPlot(opts, [series.x, series.values], el);
    const onResize = () => chart.setSize({ width: width(), height: 200 });
    addEventListener("resize", onResize);
    return () => { removeEventListener("resize", onResize); chart.destroy(); };
  }, [series]);
  return html`<div class="chart" id=${`rating-chart-${pool}`} ref=${box} aria-hidden="true"></div>`;
}
