// paiqi serve: tabs and keyboard routing.
import { api } from "./api.js";
import { initPlay, playKey, useEditorProfile } from "./play.js";
import { initEditor, editorKey } from "./editor.js";
import { initReplay, replayKey } from "./replay.js";

const $ = (id) => document.getElementById(id);
let current = "play";
const TABS = ["play", "editor", "replay", "keys"];

function show(tab) {
  current = tab;
  for (const section of document.querySelectorAll(".view")) section.hidden = section.id !== tab;
  for (const button of document.querySelectorAll(".tab")) {
    if (button.dataset.tab === tab) button.setAttribute("aria-current", "page");
    else button.removeAttribute("aria-current");
  }
  if (location.hash !== `#${tab}`) history.replaceState(null, "", `${location.search}#${tab}`);
}

function typing(target) {
  return target && (target.tagName === "TEXTAREA" || target.tagName === "SELECT" ||
    (target.tagName === "INPUT" && target.type !== "range" && target.type !== "file"));
}

document.addEventListener("keydown", (e) => {
  if (document.querySelector("dialog[open]")) return; // a card over the page takes its keys (Esc closes it)
  if (current === "editor" && editorKey(e)) { e.preventDefault(); return; }
  if (typing(e.target)) {
    if (e.key === "Escape") e.target.blur();
    return;
  }
  if (e.altKey || e.ctrlKey || e.metaKey) return;
  const tabs = { 1: "play", 2: "editor", 3: "replay", "?": "keys" };
  if (tabs[e.key]) { show(tabs[e.key]); e.preventDefault(); return; }
  let done = false;
  if (current === "play") done = playKey(e);
  else if (current === "replay") done = replayKey(e);
  if (done) e.preventDefault();
});

async function start() {
  for (const button of document.querySelectorAll(".tab")) {
    button.addEventListener("click", () => show(button.dataset.tab));
  }
  const wanted = location.hash.slice(1);
  show(TABS.includes(wanted) ? wanted : "play");
  // a changed address (a link, the back button, a typed #replay) switches the view
  window.addEventListener("hashchange", () => {
    const tab = location.hash.slice(1);
    if (TABS.includes(tab) && tab !== current) show(tab);
  });
  const data = await api.profiles();
  await initPlay();
  await initEditor(data.profiles, async () => {
    show("play");
    await useEditorProfile();
  });
  await initReplay();
  document.body.dataset.ready = "true";
}

start().catch((e) => {
  const m = $("message");
  if (m) m.textContent = `The page could not start: ${e.message}`;
  document.body.dataset.ready = "error";
});
