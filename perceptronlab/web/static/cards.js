// The cards: R, the best margin ρ*, the bound R²/ρ*², mistakes so far against the bound, and whether
// the data is separable (with the page's pocket switch as the remedy). Reads the state only.

import { h } from "./dom.js";
import { view } from "./state.js";

/** The cards' row: {node, render()}; `onPocket` is the remedy's switch. */
export function createCards(state, { onPocket }) {
  const card = (testid, title) => {
    const value = h("div", { class: "plab-card-value" });
    const detail = h("div", { class: "plab-card-detail" });
    const remedy = h("div", { class: "plab-card-remedy", hidden: true });
    const heading = h("div", { class: "plab-card-title", title }, title);
    const node = h("div", { class: "plab-card", "data-testid": testid }, heading, value, detail, remedy);
    return { node, heading, value, detail, remedy };
  };
  const cards = {
    R: card("card-R", "Radius R"),
    rho: card("card-rho", "Best margin ρ*"),
    bound: card("card-bound", "Bound R²/ρ*²"),
    mistakes: card("card-mistakes", "Mistakes"),
    separable: card("card-separable", "Separable"),
  };
  const node = h("div", { class: "plab-cards", "data-ctl": "cards" }, Object.values(cards).map((c) => c.node));
  cards.separable.remedy.append(
    h("button", { type: "button", class: "plab-link", "data-testid": "remedy-pocket", onclick: onPocket }, "Switch on pocket"),
    ": it keeps the best weights seen.");

  const set = (c, value, detail, tone) => {
    if (c.value.textContent !== value) c.value.textContent = value;
    if (c.detail.textContent !== detail) { c.detail.textContent = detail; c.detail.title = detail; }
    if ((c.node.dataset.tone || "") !== (tone || "")) c.node.dataset.tone = tone || "";
  };

  function render() {
    // with pocket every update is counted, not only the mistakes of the final weights
    const updates = state.options.pocket ? "Updates" : "Mistakes";
    if (cards.mistakes.heading.textContent !== updates) { cards.mistakes.heading.textContent = updates; cards.mistakes.heading.title = updates; }
    const result = state.result;
    if (!result) {
      for (const c of Object.values(cards)) set(c, "–", "");
      cards.separable.remedy.hidden = true;
      return;
    }
    const k = result.cards;
    set(cards.R, k.R.text, k.R.detail);
    set(cards.rho, k.rho.text, k.rho.detail);
    set(cards.bound, k.bound.text, k.bound.detail);
    const v = view(state);
    const sofar = v ? (v.final && !result.run.complete ? result.run.mistakes : v.k) : 0;
    const bound = k.mistakes.bound;
    const boundText = k.bound.text.split(" ≈")[0];
    const detail = `of ${result.run.mistakes} in the whole run` + (bound === null ? "; no bound (not separable)" : ` · bound ${boundText}`);
    set(cards.mistakes, String(sofar), detail, bound === null ? "" : sofar <= bound + 1e-9 ? "good" : "bad");
    const sep = k.separable;
    set(cards.separable, sep.separable ? "yes" : "no", sep.detail, sep.separable ? "good" : "bad");
    // the page's own remedy: its pocket switch (not a Python call)
    cards.separable.remedy.hidden = !(sep.remedy && !state.options.pocket && !state.hidden.has("pocket"));
  }

  return { node, render };
}
