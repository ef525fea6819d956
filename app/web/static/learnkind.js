// How to play a game of another kind than Blef: its rules as a page of their own, or over its
// table as a modal dialog (the table stays as it is beneath). Each game brings the rules'
// body (econrules.js, figgierules.js); the frame is this one.
import { useEffect, useRef } from "./hooks.js";
import { html } from "./ui.js";

/** The rules of `title` as a page, or inside the dialog when `onClose` is given. */
export function KindLearn({ title, onClose = null, children }) {
  return html`<section class="panel learn">
    <div class="row spread"><h1 id="learn-title" tabindex="-1">How to play ${title}</h1>
      ${onClose ? html`<button class="primary" id="close-help" onClick=${onClose}>Back to the game</button>` : html`<a class="button" href="#/">To the lobby</a>`}</div>
    ${children}
    ${onClose ? html`<p><button class="primary" onClick=${onClose}>Back to the game</button></p>` : null}
  </section>`;
}

/** `Page` (a game's rules page, given `onClose`; Blef's too, learn.js) over the table: a
 * modal dialog, closed by Escape or its buttons. */
export function KindLearnDialog({ Page, onClose }) {
  const box = useRef(null);
  useEffect(() => {
    const dialog = box.current;
    if (dialog && !dialog.open) dialog.showModal();
    document.getElementById("learn-title")?.focus();
  }, []);
  return html`<dialog ref=${box} class="help-dialog" aria-labelledby="learn-title" onClose=${() => onClose()}>
    <${Page} onClose=${onClose} /></dialog>`;
}
