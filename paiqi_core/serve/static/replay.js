// Replay: a record file's games (or a stored run's game), stepped forward and back.
import { api } from "./api.js";
import { el, clear, face, isRed, moveWords, laidBy, renderBoard, renderSeats, renderHistory, renderSettlement, renderEnding } from "./render.js";

const $ = (id) => document.getElementById(id);
let file = null; // {name, games, problems}
let replay = null; // {rules, steps, problems, record}
let at = 0;

export async function initReplay() {
  $("record-file").addEventListener("change", openFile);
  $("record-game").addEventListener("change", () => openGame(Number($("record-game").value)));
  $("step-first").addEventListener("click", () => go(0));
  $("step-back").addEventListener("click", () => go(at - 1));
  $("step-forward").addEventListener("click", () => go(at + 1));
  $("step-last").addEventListener("click", () => go(Infinity));
  $("step-range").addEventListener("input", (e) => go(Number(e.target.value)));
  $("run-open").addEventListener("click", openRun);
  try {
    const runs = await api.runs();
    if (runs.runs.length) {
      const select = $("run-select");
      for (const r of runs.runs) {
        for (const p of r.profiles) {
          select.append(el("option", { value: JSON.stringify([r.run, p]), text: `${r.run} · ${p} (${r.played} games)` }));
        }
      }
      $("runs-box").hidden = false;
    }
  } catch (e) { /* no results file: only record files */ }
}

function problems(list) {
  const ul = clear($("replay-problems"));
  for (const p of list) {
    const text = typeof p === "string" ? p : (p.line ? `line ${p.line}, column ${p.col}: ` : "") + (p.rule && p.rule !== "(root)" ? `${p.rule}: ` : "") + p.message;
    ul.append(el("li", { text }));
  }
}

export async function loadText(text, name) {
  try {
    file = await api.readReplays(text, name);
  } catch (e) {
    problems([e.message]);
    return;
  }
  const select = clear($("record-game"));
  file.games.forEach((g, i) => {
    select.append(el("option", { value: i, text: `line ${g.line}: ${g.profile}${g.seed !== null && g.seed !== undefined ? ", seed " + g.seed : ""}` }));
  });
  problems(file.problems);
  if (file.games.length) await openGame(0);
  else $("replay-game").hidden = true;
}

async function openFile(e) {
  const f = e.target.files[0];
  if (!f) return;
  const text = await f.text();
  e.target.value = "";
  await loadText(text, f.name);
}

async function openGame(i) {
  const g = file.games[i];
  await show(() => api.replay({ record: g.record, name: file.name, line: g.line }), file.problems);
}

async function openRun() {
  const [run, profile] = JSON.parse($("run-select").value);
  const game = Number($("run-game").value || 0);
  await show(() => api.replay({ run, profile, game }), []);
}

async function show(fetcher, before) {
  try {
    replay = await fetcher();
  } catch (e) {
    problems([...(before || []), ...(e.data?.problems || []), ...(e.data?.problems ? [] : [e.message])]);
    return;
  }
  problems([...(before || []), ...replay.problems]);
  $("replay-game").hidden = false;
  const range = $("step-range");
  range.max = String(replay.steps.length - 1);
  const r = replay.record;
  $("replay-title").textContent = `${replay.rules.name}` + (r.seed !== null && r.seed !== undefined ? ` · seed ${r.seed}` : "");
  go(0);
}

function go(i) {
  if (!replay || !replay.steps.length) return;
  at = Math.max(0, Math.min(replay.steps.length - 1, i === Infinity ? replay.steps.length - 1 : i));
  const step = replay.steps[at];
  const rules = replay.rules;
  $("step-range").value = String(at);
  const stepAt = clear($("step-at"));
  stepAt.append(`move ${at} of ${replay.steps.length - 1} · `);
  if (step.move) stepAt.append(`${step.seats[step.move.seat].name}: `, ...moveWords(step.move, true, step.seats.map((x) => x.name)));
  else stepAt.append("the deal");
  const just = new Set(laidBy(step.move));
  renderBoard($("replay-board"), step, rules, new Set(), null, just);
  renderSeats($("replay-seats"), step, rules, null);
  const hands = clear($("replay-hands"));
  step.hands.forEach((hand, s) => {
    hands.append(el("div", { class: "who", text: step.seats[s].name + (step.seats[s].to_move ? " — to move" : "") }));
    const row = el("div", { class: "hand", "data-seat": s });
    for (const c of hand) row.append(el("span", { class: "card" + (isRed(c) ? " red" : "") + (c === "JOKER" ? " joker-card" : ""), "data-card": c }, face(c)));
    const covered = step.covered_cards[s];
    if (covered.length) {
      const cov = el("span", { class: "covered-cards", title: "covered" }, " covered: ");
      for (const c of covered) cov.append(el("span", { class: "card" + (isRed(c) ? " red" : "") }, face(c)));
      row.append(cov);
    }
    hands.append(row);
  });
  renderHistory($("replay-history"), step, step.history.length - 1);
  const s = $("replay-settlement");
  if (step.settlement) renderSettlement(s, step.settlement, step.seats, renderEnding(step, step.settlement));
  else { s.hidden = true; clear(s); }
}

export function replayKey(e) {
  if (!replay) return false;
  const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: Infinity, PageUp: at - 10, PageDown: at + 10 };
  if (e.key in moves) { go(moves[e.key]); return true; }
  return false;
}
