// Editor: a profile's YAML with live, located checks and the explain text beside it.
import { api, shared } from "./api.js";
import { el, clear } from "./render.js";

const $ = (id) => document.getElementById(id);
let timer = null;
let lastOk = null; // {yaml, name} of the last text that checked clean
let asked = 0;
let onPlay = null;

export async function initEditor(profiles, playThis) {
  onPlay = playThis;
  const start = $("start-from");
  for (const p of profiles) start.append(el("option", { value: p.id, text: `${p.id} — ${p.name}` }));
  start.value = "doujue";
  $("load-builtin").addEventListener("click", loadBuiltin);
  const text = $("yaml");
  text.addEventListener("input", () => { gutter(); schedule(); });
  text.addEventListener("scroll", () => { $("gutter").scrollTop = text.scrollTop; });
  text.addEventListener("keydown", (e) => {
    if (e.key === "Tab" && !e.shiftKey && !e.ctrlKey && !e.altKey) {
      // two spaces, as YAML wants (Shift+Tab or Esc then Tab leaves the editor)
      e.preventDefault();
      const s = text.selectionStart;
      text.setRangeText("  ", s, text.selectionEnd, "end");
      gutter(); schedule();
    }
  });
  $("profile-name").addEventListener("input", schedule);
  $("profile-file").addEventListener("change", openFile);
  $("play-this").addEventListener("click", playThis_);
  if (!text.value) {
    text.value = "id: my-house\nextends: doujue\nname: My house rules\nscoring:\n  stake: 2\n  bust_above: 50\n";
  }
  gutter();
  check();
}

async function loadBuiltin() {
  const id = $("start-from").value;
  const data = await api.source(id);
  $("yaml").value = data.yaml;
  $("profile-name").value = `${id}.yaml`;
  gutter();
  check();
}

async function openFile(e) {
  const file = e.target.files[0];
  if (!file) return;
  $("yaml").value = await file.text();
  $("profile-name").value = file.name;
  e.target.value = "";
  gutter();
  check();
}

function schedule() {
  clearTimeout(timer);
  timer = setTimeout(check, 300);
}

let bad = new Map(); // line -> messages

function gutter() {
  const lines = $("yaml").value.split("\n").length;
  const g = clear($("gutter"));
  for (let i = 1; i <= lines; i++) {
    if (bad.has(i)) g.append(el("span", { class: "bad", title: bad.get(i).join("\n"), "data-line": i }, String(i)));
    else g.append(String(i));
    g.append("\n");
  }
  g.scrollTop = $("yaml").scrollTop;
}

export async function check() {
  const yaml = $("yaml").value;
  const name = $("profile-name").value.trim() || "my-profile.yaml";
  const mine = ++asked;
  if (!yaml.trim()) { // nothing to check: an empty text is no profile
    bad = new Map();
    clear($("editor-problems"));
    gutter();
    const state = $("editor-state");
    state.textContent = "The editor is empty: type a profile, or start from a built-in one.";
    state.className = "editor-state empty";
    $("editor-explain").classList.add("stale");
    lastOk = null;
    $("play-this").disabled = true;
    return;
  }
  let result;
  try {
    result = await api.check({ yaml, name });
  } catch (e) {
    result = { ok: false, problems: [{ message: e.message, line: null }] };
  }
  if (mine !== asked) return; // a later edit is being checked
  bad = new Map();
  const list = clear($("editor-problems"));
  for (const p of [...result.problems, ...(result.notes || [])]) {
    const note = p.message.startsWith("note:");
    if (p.line && !note) bad.set(p.line, [...(bad.get(p.line) || []), p.message]);
    const where = p.line ? `line ${p.line}, column ${p.col}` : "";
    const item = el("li", { class: note ? "note" : "", "data-line": p.line || "" });
    if (p.line) item.append(el("a", { href: "#", onclick: (e) => { e.preventDefault(); goTo(p.line, p.col); } }, where), ": ");
    item.append((p.rule && p.rule !== "(root)" ? `${p.rule}: ` : "") + p.message);
    list.append(item);
  }
  gutter();
  const state = $("editor-state");
  if (result.ok) {
    state.textContent = `✓ valid: ${result.name} (${result.id}), ${result.players} players`;
    state.className = "editor-state ok";
    $("editor-explain").textContent = result.explain;
    $("editor-explain").classList.remove("stale");
    lastOk = { yaml, name };
  } else {
    const n = result.problems.length;
    state.textContent = `✗ ${n} problem${n === 1 ? "" : "s"}`;
    state.className = "editor-state bad";
    $("editor-explain").classList.add("stale");
    lastOk = null;
  }
  $("play-this").disabled = !lastOk;
}

function goTo(line, col) {
  const text = $("yaml");
  const lines = text.value.split("\n");
  let at = 0;
  for (let i = 0; i < line - 1 && i < lines.length; i++) at += lines[i].length + 1;
  at += Math.max(0, (col || 1) - 1);
  text.focus();
  text.setSelectionRange(at, at);
  const lineHeight = parseFloat(getComputedStyle(text).lineHeight) || 18;
  text.scrollTop = Math.max(0, (line - 3) * lineHeight);
}

async function playThis_() {
  if (!lastOk) return;
  shared.editor = { ...lastOk };
  await onPlay();
}

export function editorKey(e) {
  if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
    playThis_();
    return true;
  }
  return false;
}
