// The rules card: the rules of the game or room in play, in plain words, over the table.
// The server writes the card (the rule book's text of these rules, house changes marked)
// as HTML with every text escaped; this page only places it. The language is the
// browser's own until the person picks one of the card's (kept in this browser).
import { el, clear } from "./render.js";

const KEY = "paiqi-rules-lang";
const $ = (id) => document.getElementById(id);
let fetchCard = null; // (lang) => the card of the game or room on the page
let asked = 0; // only the latest answer is shown

function chosen() {
  try {
    return localStorage.getItem(KEY) || "";
  } catch (e) {
    return "";
  }
}

// `fetcher(lang)` answers the card of what the page shows now (null: nothing to show).
export function initRules(fetcher) {
  fetchCard = fetcher;
  $("rules-open").addEventListener("click", () => openRules());
  $("rules-close").addEventListener("click", () => $("rules-card").close());
  // a click on the backdrop (outside the card's box) closes it too
  $("rules-card").addEventListener("click", (e) => {
    if (e.target === $("rules-card")) $("rules-card").close();
  });
}

export async function openRules() {
  const dialog = $("rules-card");
  if (!dialog.open) dialog.showModal();
  await load(chosen());
}

async function load(lang) {
  const number = ++asked;
  const body = $("rules-body");
  body.setAttribute("aria-busy", "true");
  let card;
  try {
    card = await fetchCard(lang);
  } catch (e) {
    if (number !== asked) return;
    clear(body).append(el("p", { class: "message", text: e.message }));
    body.removeAttribute("aria-busy");
    return;
  }
  if (number !== asked) return;
  $("rules-title").textContent = card.title;
  $("rules-title").lang = card.html_lang;
  body.lang = card.html_lang;
  body.innerHTML = card.html; // escaped by the server: it holds only its own tags
  body.scrollTop = 0;
  body.removeAttribute("aria-busy");
  $("rules-card").dataset.lang = card.lang;
  const langs = clear($("rules-langs"));
  for (const l of card.langs) {
    langs.append(el("button", {
      type: "button", "data-lang": l.id, lang: l.id, "aria-pressed": String(l.id === card.lang),
      onclick: () => {
        try { localStorage.setItem(KEY, l.id); } catch (e) { /* kept for this card only */ }
        load(l.id);
      },
    }, l.text));
  }
}
