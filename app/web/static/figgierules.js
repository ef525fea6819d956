// The rules of Figgie on a page (app/web/static/figgie_rules.md, served as
// /app/figgie_rules.md), drawn from the small Markdown reader the Blef rules use.
import { useEffect, useState } from "./hooks.js";
import { KindLearn } from "./learnkind.js";
import { parseMarkdown } from "./markdown.js";
import { html } from "./ui.js";

function Inline({ parts }) {
  return parts.map((p, i) => p.t === "b" ? html`<b key=${i}>${p.v}</b>` : p.t === "i" ? html`<em key=${i}>${p.v}</em>`
    : p.t === "code" ? html`<code key=${i}>${p.v}</code>` : p.v);
}

/** The rules, its first heading left out (the place it is shown in names it); headings start
 * at level `top` (3 inside the table, 2 on a page of their own). */
export function FiggieRules({ top = 3 }) {
  const [blocks, setBlocks] = useState(null);
  useEffect(() => {
    fetch("/app/figgie_rules.md", { cache: "no-store" }).then((r) => (r.ok ? r.text() : Promise.reject()))
      .then((text) => setBlocks(parseMarkdown(text).filter((b) => !(b.type === "h" && b.level === 1))))
      .catch(() => setBlocks([]));
  }, []);
  if (blocks === null) return html`<p>Loading the rules…</p>`;
  if (!blocks.length) return html`<p class="error">The rules could not be loaded.</p>`;
  return html`<div class="fig-rules">${blocks.map((b, i) => {
    if (b.type === "h") return b.level <= 2 ? html`<${`h${top}`} key=${i} id=${`fig-rules-${b.id}`}>${b.text}<//>`
      : html`<${`h${top + 1}`} key=${i} id=${`fig-rules-${b.id}`}>${b.text}<//>`;
    if (b.type === "p") return html`<p key=${i}><${Inline} parts=${b.parts} /></p>`;
    const items = b.items.map((it, j) => html`<li key=${j}><${Inline} parts=${it} /></li>`);
    return b.type === "ul" ? html`<ul key=${i}>${items}</ul>` : html`<ol key=${i}>${items}</ol>`;
  })}</div>`;
}

/** The rules as a page of their own (#/learn/figgie), or over the table when `onClose` is
 * given. */
export function FiggieRulesPage({ onClose = null }) {
  return html`<${KindLearn} title="Figgie" onClose=${onClose}><${FiggieRules} top=${2} /><//>`;
}
