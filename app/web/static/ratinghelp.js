// `#/about-ratings`: the rating explained in plain words (docs/ratings.md has the formulas),
// linked wherever a rating is shown.
import { useEffect } from "./hooks.js";
import { houseName, playersWords, poolsByGame, usePools } from "./pools.js";
import { html } from "./ui.js";

export function AboutRatings() {
  const pools = usePools();
  useEffect(() => { document.title = `What the ratings mean · ${houseName()}`; }, []);
  return html`<section class="panel about-ratings">
    <h1 id="page-heading" tabindex="-1">What the ratings mean</h1>
    <p class="lead">Your rating says how well you play rated games against others here. Everyone starts at <b>1500</b>.</p>
    <h2>How it moves</h2>
    <ul>
      <li>Finish ahead of others and it goes up; finish behind and it goes down.</li>
      <li>Beating someone rated above you gains more than beating someone rated below you; losing to them costs less.</li>
      <li>Each pool is rated apart, and each game's pools apart from another game's: you have one rating in each pool you play.</li>
      <li>After each rated game, your change is shown as old → new (difference) on your profile, and the difference
        is always the new number minus the old one.</li>
      <li>At a rated table that shows ratings, every seat shows its player's rating, and above the table you see what a win and a loss (at a bigger table, first and last place) would change for you,
        worked out by the rating system before the first move, and your change once the game is over.</li>
    </ul>
    <h2>Provisional</h2>
    <p>For your first 10 rated games in a pool, your rating is <b>provisional</b> (marked “provisional”, or with a ? after the number).
      The service does not know you yet, so each game moves your rating a lot.</p>
    <p>Your rating is a careful figure: the level the service is fairly sure you play at, or better. Each game you play makes it surer of you,
      and that adds a little to your rating whatever the result. That is why, in your first games, a win gains more than a loss costs
      (two newcomers play for +103 against −55). The gap closes as your games add up.</p>
    <h2>The numbers behind it</h2>
    <p>The service uses the OpenSkill rating system. It keeps a best guess of your level and how unsure it is, and shows
      1500 + 30 × (best guess − 3 × unsureness), rounded to a whole number. Between two players whose ratings are settled, the one 100 points higher
      is expected to win about 7 games in 10, and 200 points higher about 6 in 7.</p>
    ${pools.length ? html`<h2>The pools and their leaderboards</h2>
    <ul class="pool-list" id="pool-list">${poolsByGame(pools).map((group) => html`<li key=${group.kind}><b>${group.game.name}</b>:${" "}
      ${group.pools.map((p, i) => html`${i ? ", " : ""}<a key=${p.name} href=${`#/ladder/${p.name}`}>${p.title}</a> <span class="muted small">(${playersWords(p)})</span>`)}</li>`)}</ul>` : null}
    <p><a class="button" href="#/ladder">Leaderboard</a> <a class="button" href="#/rated">Rated games</a> <a class="button" href="#/">Back to the lobby</a></p>
  </section>`;
}
