// Play: choose a profile, options, seat and opponents; then the game, move by move.
import { api, ApiError, shared } from "./api.js";
import { loadRoom, saveRoom, roomLink, followRoom, renderRoom } from "./room.js";
import { initRules, openRules } from "./rules.js";
import { el, clear, face, isRed, cardName, cardText, mini, moveText, moveWords, trumpWords, laidBy, plural, renderBoard, renderSeats, renderHistory, renderSettlement, renderEnding } from "./render.js";

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const SPEED = params.has("speed") ? Number(params.get("speed")) : 350; // ms between computer moves

let levels = [];
let checked = null; // the last check of the chosen profile and options
let view = null; // the current game's view
let coverMode = false;
// a card or place with several moves was chosen: its moves are offered (`choiceOf`):
// {joker: true} (the joker card), {card} (a trump card) or {place} (a place on the table)
let choice = null;
let received = new Set(); // cards just handed to the person (turn.pass_takes)
let justDrawn = null; // the card the person just drew from the stock (turn.draw)
let pumping = 0; // a token: a new game stops the previous game's computer moves
let busy = false;
let room = null; // in a room: {id, token, host, code} as this browser holds them
let following = null; // the room's event stream

function profileBody() {
  const choice = $("profile").value;
  const options = $("options").value.split("\n").map((s) => s.trim()).filter(Boolean);
  if (choice === "@editor" && shared.editor) {
    return { yaml: shared.editor.yaml, name: shared.editor.name, options };
  }
  return { profile: choice, options };
}

function showProblems(list, problems, where) {
  clear(list);
  for (const p of problems || []) {
    let at = "";
    if (p.option) at = `option line ${p.option}: `;
    else if (p.line) at = `${where || p.file} line ${p.line}, column ${p.col}: `;
    list.append(el("li", { class: p.message.startsWith("note:") ? "note" : "" },
      at + (p.rule && p.rule !== "(root)" ? `${p.rule}: ` : "") + p.message));
  }
}

let checkTimer = null;
export function scheduleCheck() {
  clearTimeout(checkTimer);
  checkTimer = setTimeout(() => { checkTimer = null; checkSetup(); }, 250);
}

let checks = 0; // checks asked for: only the latest one's answer is used
let checking = null; // the latest check, while it is under way

function checkSetup() {
  const run = runCheck(++checks);
  checking = run;
  return run;
}

async function runCheck(number) {
  let result;
  try {
    result = await api.check(profileBody());
  } catch (e) {
    if (number === checks) showProblems($("setup-problems"), [{ message: e.message }]);
    return;
  }
  if (number !== checks) return; // the setup changed meanwhile: a later check answers
  checked = result;
  showProblems($("setup-problems"), [...result.problems, ...(result.notes || [])]);
  $("deal").disabled = !result.ok;
  if (!result.ok) return;
  $("setup-explain").textContent = result.explain;
  fillSeats(result.players);
}

function fillSeats(players) {
  const seat = $("seat");
  const before = Number(seat.value || 0);
  if (seat.options.length !== players) {
    clear(seat);
    for (let s = 0; s < players; s++) {
      seat.append(el("option", { value: s, text: s === 0 ? "0 (first in turn order)" : String(s) }));
    }
    seat.value = String(Math.min(before, players - 1));
  }
  fillLevels(players);
}

function fillLevels(players) {
  const box = $("levels");
  const me = Number($("seat").value || 0);
  const old = [...box.querySelectorAll("select")].map((s) => s.value);
  clear(box);
  let k = 0;
  for (let s = 0; s < players; s++) {
    if (s === me) continue;
    const select = el("select", { id: `level-${s}`, "data-seat": s, "aria-label": `seat ${s} level` },
      [...levels.map((l) => el("option", { value: l.id, text: l.id, title: l.text })),
        el("option", { value: "person", text: "person", title: "a person joins this seat (Open a room)" })]);
    select.value = old[k] || "normal";
    box.append(el("label", {}, `seat ${s}`, select));
    k++;
  }
}

export async function initPlay() {
  const data = await api.profiles();
  levels = data.levels;
  const select = $("profile");
  clear(select);
  for (const p of data.profiles) {
    select.append(el("option", { value: p.id, text: `${p.id} — ${p.name}` }));
  }
  const wanted = params.get("profile");
  select.value = wanted && data.profiles.some((p) => p.id === wanted) ? wanted : "doujue";
  select.addEventListener("change", scheduleCheck);
  $("options").addEventListener("input", scheduleCheck);
  $("seat").addEventListener("change", () => fillLevels($("seat").options.length));
  $("setup").addEventListener("submit", (e) => { e.preventDefault(); deal(); });
  $("open-room").addEventListener("click", () => openRoom());
  $("find-room").addEventListener("click", () => findRoom());
  // the rules card states the rules this game or room is played by (its edits included)
  initRules((lang) => (room ? api.roomRules(room.id, creds(), lang) : api.gameRules(view.table, lang)));
  await checkSetup();
  if (params.get("room")) await enterRoom(params.get("room"), params.get("code"));
}

// "Play this profile" from the editor.
export function useEditorProfile() {
  const select = $("profile");
  let opt = select.querySelector('option[value="@editor"]');
  if (!opt) {
    opt = el("option", { value: "@editor" });
    select.prepend(opt);
  }
  opt.textContent = `from the editor: ${shared.editor.name}`;
  select.value = "@editor";
  $("setup-box").open = true;
  return checkSetup();
}

// Whether the setup as it is now is checked and valid (a change of a moment ago, or a
// check under way, is waited for: its seats count).
async function setupChecked() {
  if (checkTimer !== null) {
    clearTimeout(checkTimer);
    checkTimer = null;
    await checkSetup();
  } else if (checking) {
    await checking;
  }
  if (!checked || !checked.ok) await checkSetup();
  return Boolean(checked && checked.ok);
}

export async function deal() {
  if (!(await setupChecked())) return;
  const body = profileBody();
  body.seat = Number($("seat").value || 0);
  body.levels = [...$("levels").querySelectorAll("select")].map((s) => s.value);
  if (body.levels.includes("person")) {
    showProblems($("setup-problems"), [{ message: "a seat for a person needs a room: choose Open a room" }]);
    return;
  }
  const seed = $("seed").value.trim();
  if (seed) body.seed = seed;
  if (room) { // a new game of one's own leaves the room
    location.assign(`/?${params.has("speed") ? `speed=${params.get("speed")}&` : ""}#play`);
    return;
  }
  try {
    view = await api.newGame(body);
  } catch (e) {
    showProblems($("setup-problems"), e.data.problems || [{ message: e.message }]);
    return;
  }
  coverMode = false;
  choice = null;
  received = new Set();
  justDrawn = null;
  pumping++;
  $("game").hidden = false;
  const box = $("setup-box");
  box.open = false; // the table takes the screen; the summary opens the settings again
  $("setup-summary").textContent = `New game (now: ${view.rules.name}, seat ${view.seat})`;
  message("");
  render(new Set());
  pump();
}

// -- rooms -----------------------------------------------------------------------------

function creds() {
  return { token: room.token || undefined, host: room.host || undefined, code: room.code || undefined };
}

// Open a room with this setup: your seat is a person's (yours), and so is every seat set
// to "person"; then sit at your seat and go to the room's page.
async function openRoom() {
  if (!(await setupChecked())) return;
  const body = profileBody();
  const me = Number($("seat").value || 0);
  const others = [...$("levels").querySelectorAll("select")];
  body.seats = [];
  for (let s = 0; s < $("seat").options.length; s++) {
    body.seats.push(s === me ? "person" : others.find((x) => Number(x.dataset.seat) === s).value);
  }
  const seed = $("seed").value.trim();
  if (seed) body.seed = seed;
  try {
    const made = await api.newRoom(body);
    saveRoom(made.room, { host: made.host, code: made.code });
    const joined = await api.joinRoom(made.room, { seat: me, name: $("your-name").value, host: made.host });
    saveRoom(made.room, { token: joined.token });
    location.assign(roomLink(made.room, made.code));
  } catch (e) {
    showProblems($("setup-problems"), e.data.problems || [{ message: e.message }]);
  }
}

async function findRoom() {
  const code = $("room-code").value.trim();
  if (!code) return;
  try {
    const found = await api.findRoom(code);
    location.assign(roomLink(found.room, code.replace(/\s+/g, "").toUpperCase()));
  } catch (e) {
    showProblems($("setup-problems"), [{ message: e.message }]);
  }
}

// Come into a room (a link, a reload): with this browser's token for it, at its seat.
async function enterRoom(id, code) {
  room = { id, ...loadRoom(id) };
  if (code) room = saveRoom(id, { code });
  room.id = id;
  $("setup-box").open = false;
  $("game").hidden = false;
  const ok = await refreshRoom();
  if (!ok) return;
  following = followRoom(room, (version) => {
    if (!view || !view.room || version > view.room.version) refreshRoom();
  });
}

let refreshing = 0;
// This seat's view of the room now; a later answer is never replaced by an earlier one.
async function refreshRoom() {
  const number = ++refreshing;
  const asked = room.token;
  let next;
  try {
    next = await api.room(room.id, creds());
  } catch (e) {
    message(e.message);
    return false;
  }
  if (room.token !== asked) return true; // the page took a seat meanwhile: its view counts
  if (number !== refreshing && view && view.room && next.room.version < view.room.version) return true;
  showRoom(next);
  return true;
}

function showRoom(next) {
  const before = view;
  if (before && before.room && next.room.version < before.room.version) return;
  const sameDeal = before && before.room && before.room.deal === next.room.deal;
  if (!sameDeal) {
    coverMode = false; choice = null; received = new Set(); justDrawn = null;
    if (before) message(""); // a word about the deal before is stale now
  }
  view = next;
  if (sameDeal) received = new Set([...received, ...gotCards(before, next)]);
  $("setup-summary").textContent = `New game or room (now: room, ${next.rules.name})`;
  render(sameDeal ? newCards(before, next) : new Set());
  if (!next.over && next.turn === next.seat) {
    const first = firstChoice();
    if (first && !document.activeElement?.closest("#setup, #room-box")) first.focus({ preventScroll: true });
  }
}

const roomActions = {
  async join(seat, name) {
    try {
      const joined = await api.joinRoom(room.id, { seat, name, code: room.code, host: room.host });
      room = { ...saveRoom(room.id, { token: joined.token }), id: room.id };
      message("");
      showRoom(joined.view);
    } catch (e) {
      message(e.message);
    }
  },
  async standIn(seat) {
    try {
      showRoom(await api.standIn(room.id, creds(), seat));
    } catch (e) {
      message(e.message);
    }
  },
  async next() {
    try {
      showRoom(await api.nextDeal(room.id, creds()));
    } catch (e) {
      message(e.message);
    }
  },
  async pick(rank) {
    try {
      showRoom(await api.pickCentre(room.id, creds(), rank));
      message("");
    } catch (e) {
      message(e.message);
    }
  },
  copy(text) {
    if (navigator.clipboard) navigator.clipboard.writeText(text).catch(() => {});
  },
};

// A message above the table: the engine's words, with its card codes drawn as the table
// draws them (7♠) and its seat numbers as the seats' names.
function message(text, kind = "") {
  const m = clear($("message"));
  m.append(...moveText(text, view ? view.seats.map((s) => s.name) : null));
  m.className = "message" + (kind ? " " + kind : "");
}

function legalOf(v) {
  const plays = new Map(), covers = new Map(), gives = new Map(), jokers = [], trumps = [];
  let pass = null, draw = null;
  for (const m of v.legal) {
    if (m.kind === "play") plays.set(m.card, m);
    else if (m.kind === "cover") covers.set(m.card, m);
    else if (m.kind === "give") gives.set(m.card, m);
    else if (m.kind === "pass") pass = m;
    else if (m.kind === "draw") draw = m;
    else if (m.kind === "joker") jokers.push(m);
    else if (m.kind === "trump") trumps.push(m); // layout.trumps: a trump in another row's place
  }
  // whether a card may be laid at all (in its place, or a joker or trump in another's)
  const lays = plays.size + jokers.length + trumps.length > 0;
  return { plays, covers, gives, jokers, trumps, pass, draw, lays };
}

// The moves of a choice (see `choice`): the joker's; a trump card's, in its own place or in
// another row's; or those that lay a card in a place, its own card or a trump.
function choiceOf(L, c) {
  if (!c) return [];
  if (c.joker) return L.jokers;
  const own = L.plays.get(c.card || c.place);
  return [...(own ? [own] : []), ...L.trumps.filter((m) => (c.card ? m.card === c.card : m.at === c.place))];
}

// A move of a choice in words: the joker's, a trump's, or a card in its own place.
function choiceWords(m) {
  if (m.kind === "trump") return trumpWords(m.card, m.at);
  if (m.kind === "play") return [mini(m.card), " in its own place"];
  return moveWords(m);
}

function choiceTitle(m) {
  if (m.kind === "joker") return `the joker takes the place of ${cardName(m.at)}; ${cardName(m.card)} is played beyond it`;
  if (m.kind === "trump") return `the trump ${cardName(m.card)} takes the place of ${cardName(m.at)}, which then goes to the trump row`;
  return `${cardName(m.card)} in its own place`;
}

function newCards(before, after) {
  const out = new Set();
  for (const h of after.history.slice(before ? before.history.length : after.history.length)) {
    for (const card of laidBy(h)) out.add(card);
  }
  return out;
}

// The cards handed to the person since `before` (turn.pass_takes), still in their hand.
function gotCards(before, after) {
  const out = new Set();
  for (const h of after.history.slice(before ? before.history.length : after.history.length)) {
    if (h.kind === "give" && h.to === after.seat && h.card && after.hand.includes(h.card)) out.add(h.card);
  }
  return out;
}

// Whether the person is to hand a card to the seat that passed (turn.pass_takes).
function handingOn(v) {
  return !v.over && !v.broken && v.turn === v.seat && v.hand_on && v.taker !== null;
}

// What the person is told about the stock on their turn (turn.draw): to draw, having
// nothing to play; or which card they drew, which fits, and that they may play it now.
// `show` writes the card (its code, or as the page writes it in text).
function drawText(v, L, show = cardText) {
  if (v.drew_card) {
    const card = show(v.drew_card);
    return L.pass ? `you drew ${card}: it fits — play it now, or keep it (no pass is counted).`
      : `you drew ${card}: it fits — play it now.`;
  }
  if (L.draw) return `nothing to play: draw a card from the stock (${plural(v.stock, "card", "cards")} left).`;
  return "";
}

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

function render(just) {
  const v = view;
  const rules = v.rules;
  const myTurn = !v.over && v.turn === v.seat && !v.broken;
  const L = legalOf(v);
  const handOn = handingOn(v);
  const onlyCovers = myTurn && !L.lays && L.covers.size > 0;
  const handOnText = handOn ? `${capital(v.seats[v.taker].name)} passed: choose a card to hand them.` : "";
  const drawing = myTurn && !handOn ? drawText(v, L) : "";
  const drawLine = drawing ? moveText(capital(drawText(v, L, (card) => card))) : [];
  // status line
  let status;
  if (v.broken) status = `This game stopped: ${v.broken}`;
  else if (v.over) {
    const won = v.settlement ? v.settlement.winners.map((w) => v.seats[w].name) : [];
    status = won.length ? `Game over: ${won.join(" and ")} won.` : "Game over.";
  }
  else if (handOn) status = `Your turn: ${handOnText}`;
  else if (drawing) status = `Your turn: ${drawing}`;
  else if (myTurn) {
    if (onlyCovers) status = "Your turn: nothing can be played — choose a card to cover.";
    else if (!L.lays && L.pass) status = "Your turn: nothing can be played — pass.";
    else status = coverMode ? "Your turn: cover mode — choose a card to cover (Esc leaves it)." : "Your turn.";
  } else if (v.hand_on && v.taker !== null) {
    status = `${v.seats[v.turn].name} is to hand a card to ${v.seats[v.taker].name}…`;
  } else status = `${v.seats[v.turn].name} is to move…`;
  if (v.over && $("message").classList.contains("info")) message(""); // a word for a turn gone
  const dealt = v.seed !== null ? ` · deal ${v.seed}` : "";
  $("status").textContent = `${rules.name}${dealt} · ${status}`;
  const game = $("game");
  game.dataset.turn = v.broken ? "broken" : v.over ? "over" : myTurn ? "you" : "waiting";
  game.dataset.handOn = handOn ? "you" : "";
  const prompt = $("hand-on");
  prompt.hidden = !handOn;
  prompt.textContent = handOnText;
  game.dataset.draw = !drawing ? "" : v.drew_card ? "drew" : "draw";
  const drawPrompt = clear($("draw-prompt"));
  drawPrompt.hidden = !drawing;
  drawPrompt.append(...drawLine);
  game.dataset.moves = String(v.history.length);
  game.dataset.table = v.table;
  // the places the person may lay a card in: a card's own, and another row's for a trump
  const targets = myTurn && !handOn ? new Set([...L.plays.keys(), ...L.trumps.map((m) => m.at)]) : new Set();
  renderBoard($("board"), v, rules, targets, (card) => onPlace(card), just,
    myTurn && L.draw ? () => act("draw") : null);
  renderSeats($("seats"), v, rules, v.seat);
  $("legend-trump").hidden = !v.trumps; // layout.trumps: what the gold edge means
  $("hand-area").hidden = v.seat < 0; // a spectator holds no hand
  if (room) renderRoom($("room-box"), v, room, roomActions);
  game.dataset.seat = String(v.seat);
  renderHand(v, L, myTurn, onlyCovers, handOn);
  renderMoves(v, L, myTurn && !handOn, onlyCovers);
  renderHistory($("history"), v);
  const s = $("settlement");
  if (v.settlement) {
    const opening = s.hidden;
    renderSettlement(s, v.settlement, v.seats, renderEnding(v, v.settlement, v.seat >= 0 ? v.seat : null));
    // the end is news: bring the banner and the settlement into sight as they open
    if (opening) s.scrollIntoView({ block: "start" });
  } else { s.hidden = true; clear(s); }
}

function renderHand(v, L, myTurn, onlyCovers, handOn) {
  const hand = $("hand");
  const focused = document.activeElement && hand.contains(document.activeElement) ? document.activeElement.dataset.card : null;
  clear(hand);
  hand.classList.toggle("cover-mode", coverMode && !handOn);
  hand.classList.toggle("handing-on", handOn);
  // several decks: every copy of a card held is a card of its own, side by side
  const held = new Map();
  for (const card of v.hand) held.set(card, (held.get(card) || 0) + 1);
  const nth = new Map();
  for (const card of v.hand) {
    const k = (nth.get(card) || 0) + 1;
    nth.set(card, k);
    const copies = held.get(card);
    const last = k === copies; // a card handed on or drawn is ringed once, on its last copy
    let cls = "card" + (isRed(card) ? " red" : "") + (card === "JOKER" ? " joker-card" : "") + (k > 1 ? " again" : "");
    let hint = cardName(card) + (copies > 1 && card !== "JOKER" ? ` (you hold ${copies})` : "");
    if (received.has(card) && last) { cls += " received"; hint += ": just handed to you"; }
    if (card === justDrawn && last) { cls += " just-drawn"; hint += ": just drawn from the stock"; }
    if (handOn) {
      // every card the engine lets go may be handed on, face down, to the seat that passed
      if (L.gives.has(card)) { cls += " givable"; hint += `: hand it to ${v.seats[v.taker].name}`; }
      else cls += " unplayable";
    } else if (myTurn) {
      if (coverMode || onlyCovers) {
        if (L.covers.has(card)) { cls += " coverable"; hint += ": may be covered"; }
        else cls += " unplayable";
      } else if (L.plays.has(card) || (card === "JOKER" && L.jokers.length) || L.trumps.some((m) => m.card === card)) {
        cls += " legal"; hint += ": may be played";
      } else cls += " unplayable";
    }
    hand.append(el("button", {
      type: "button", class: cls, "data-card": card, "data-copy": copies > 1 ? k : null,
      "aria-label": hint, title: hint,
      onclick: () => onCard(card),
    }, face(card)));
  }
  if (focused) hand.querySelector(`[data-card="${focused}"]`)?.focus();
  const choices = clear($("choices"));
  const offered = myTurn && !handOn ? choiceOf(L, choice) : [];
  choices.hidden = !offered.length;
  if (!choices.hidden) {
    const label = choice.joker ? "Play the joker:" : choice.card ? `Lay ${cardText(choice.card)}:` : `In ${cardText(choice.place)}'s place:`;
    choices.setAttribute("aria-label", label);
    choices.append(el("span", { class: "label", text: label }));
    for (const m of offered) {
      choices.append(el("button", {
        type: "button", class: `${m.kind}-choice`, "data-action": m.text, onclick: () => act(m.text), title: choiceTitle(m),
      }, ...choiceWords(m)));
    }
    choices.append(el("button", { type: "button", class: "choice-cancel", onclick: () => { choice = null; render(new Set()); } }, "Cancel"));
  }
  const own = $("own-covered");
  clear(own);
  if (v.own_covered.length) own.append("You covered: ", ...v.own_covered.flatMap((c) => [mini(c), " "]));
}

function renderMoves(v, L, myTurn, onlyCovers) {
  const box = $("moves");
  clear(box);
  if (!myTurn) {
    if (v.over) {
      if (!room) box.append(el("button", { type: "button", id: "again", class: "primary", onclick: () => deal() }, "Deal again ", el("kbd", { text: "N" })));
      box.append(el("button", { type: "button", id: "download", onclick: download }, "Save the record"));
    }
    return;
  }
  if (L.draw) {
    // stuck while the stock holds cards: the one thing to do is to draw (turn.draw)
    box.append(el("button", {
      type: "button", id: "draw", class: "primary", onclick: () => act("draw"),
      title: "draw a card from the stock: if it fits, you may play it at once",
    }, "Draw a card ", el("kbd", { text: "D" })));
  }
  if (L.pass) {
    // after a card that ends its line, or after drawing a card that fits, a pass only ends
    // the turn (no pass is counted)
    // (or in the middle of a block of cards, turn.lay: blocks)
    const label = v.drew ? "Keep it (stop) " : v.extra_play ? "Stop (no extra card) "
      : v.laying ? "Stop (end the block) " : "Pass ";
    const title = v.drew ? "keep the card drawn and end your turn: no pass is counted"
      : v.laying ? "lay no more cards this turn: no pass is counted" : null;
    box.append(el("button", { type: "button", id: "pass", onclick: () => act("pass"), title }, label, el("kbd", { text: "P" })));
  }
  if (L.covers.size && !onlyCovers) {
    box.append(el("button", {
      type: "button", id: "cover-mode", "aria-pressed": coverMode ? "true" : "false",
      onclick: () => toggleCover(),
    }, coverMode ? "Cancel cover " : "Cover a card… ", el("kbd", { text: "C" })));
  }
  L.jokers.forEach((m, i) => {
    box.append(el("button", {
      type: "button", class: "joker-move", "data-action": m.text, onclick: () => act(m.text), title: choiceTitle(m),
    }, "Joker for ", mini(m.at), ", then ", mini(m.card), i === 0 ? [" ", el("kbd", { text: "J" })] : []));
  });
  // layout.trumps: a trump laid in the place of another suit's card of its rank
  L.trumps.forEach((m, i) => {
    box.append(el("button", {
      type: "button", class: "trump-move", "data-action": m.text, onclick: () => act(m.text), title: choiceTitle(m),
    }, "Trump ", mini(m.card), " → ", mini(m.at), "'s place", i === 0 ? [" ", el("kbd", { text: "T" })] : []));
  });
}

function toggleCover(force) {
  if (!view) return;
  const L = legalOf(view);
  if (!L.covers.size) return;
  coverMode = force === undefined ? !coverMode : force;
  render(new Set());
}

function onCard(card) {
  if (!view || view.over) return;
  const L = legalOf(view);
  if (handingOn(view)) {
    if (L.gives.has(card)) act(L.gives.get(card).text);
    else message(`${cardName(card)} cannot be handed on`);
    return;
  }
  const onlyCovers = !L.lays && L.covers.size > 0;
  if (coverMode || onlyCovers) act(`cover ${card}`);
  // the joker is laid in the place of a card, with the card beyond it; a trump may be laid
  // in its own place or in another row's: offer each way
  else if (card === "JOKER" && L.jokers.length) offer({ joker: true });
  else if (L.trumps.some((m) => m.card === card)) offer({ card });
  else act(card);
}

// A place on the table clicked: the card that goes there, or the choice of the moves that
// lay a card there (its own card, or a trump).
function onPlace(card) {
  if (!view) return;
  const moves = choiceOf(legalOf(view), { place: card });
  if (moves.length > 1) offer({ place: card });
  else act(moves.length ? moves[0].text : card);
}

function offer(c) {
  choice = c;
  message("");
  render(new Set());
  document.querySelector("#choices button")?.focus();
}

async function act(action) {
  if (!view || busy) return;
  busy = true;
  const before = view;
  try {
    const next = room ? await api.roomAct(room.id, creds(), action) : await api.act(view.table, action);
    if (room && next.room.version < view.room.version) { // the room's stream brought a later view
      if (next.refused) message(next.refused);
      return;
    }
    view = next;
    if (!next.refused) received = gotCards(before, next); // marked until the person moves
    if (next.refused) {
      message(next.refused);
    } else {
      message("");
      coverMode = false;
      choice = null;
      justDrawn = null;
      if (action === "draw" && next.drawn.length > before.drawn.length) {
        // marked in the hand until the person moves again
        justDrawn = next.drawn[next.drawn.length - 1];
        if (!next.drew_card) message(`You drew ${justDrawn}: it does not fit, so your turn ends.`, "info");
      }
    }
    render(newCards(before, next));
  } catch (e) {
    message(e.message);
  } finally {
    busy = false;
  }
  pump();
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function pump() {
  const token = pumping;
  while (view && view.waiting && token === pumping) {
    if (SPEED > 0) await sleep(SPEED);
    if (token !== pumping) return;
    const before = view;
    try {
      view = await api.advance(view.table, SPEED > 0 ? 1 : 1000);
    } catch (e) {
      message(e.message);
      return;
    }
    if (token !== pumping) return;
    received = new Set([...received, ...gotCards(before, view)]); // until the person moves
    render(newCards(before, view));
  }
  if (view && !view.over && view.turn === view.seat) {
    const first = firstChoice();
    if (first && !document.activeElement?.closest("#setup")) first.focus({ preventScroll: true });
  }
}

// The first card the person may play or cover: in the hand, else lying face up; else the
// button that draws from the stock.
function firstChoice() {
  return document.querySelector("#hand .card.legal, #hand .card.coverable, #hand .card.givable") ||
    document.querySelector("#board .pool .card.legal") || $("draw");
}

async function download() {
  if (!view) return;
  try {
    const record = room ? await api.roomRecord(room.id, creds()) : await api.record(view.table);
    const blob = new Blob([JSON.stringify(record) + "\n"], { type: "application/json" });
    const a = el("a", { href: URL.createObjectURL(blob), download: `paiqi-${record.profile}-${view.seed}.jsonl` });
    document.body.append(a);
    a.click();
    a.remove();
  } catch (e) {
    message(e.message);
  }
}

// Keyboard: the play view's keys (the main module routes them here).
export function playKey(e) {
  const key = e.key;
  if ((key === "n" || key === "N") && !room) { deal(); return true; } // a room is left by the Deal button only
  if ((key === "r" || key === "R") && view) { openRules(); return true; }
  if (!view || view.over) return false;
  const L = legalOf(view);
  if (key === "p" || key === "P") { act("pass"); return true; } // refused with the reason if not legal
  if (key === "d" || key === "D") { act("draw"); return true; } // likewise
  if (key === "c" || key === "C") { toggleCover(); return true; }
  if (key === "Escape" && coverMode) { toggleCover(false); return true; }
  if (key === "Escape" && choice) { choice = null; render(new Set()); return true; }
  if (key === "j" || key === "J") { if (L.jokers.length) act(L.jokers[0].text); return true; }
  if (key === "t" || key === "T") { if (L.trumps.length) act(L.trumps[0].text); return true; }
  if (key === "l" || key === "L") {
    firstChoice()?.focus();
    return true;
  }
  if (key === "ArrowLeft" || key === "ArrowRight") {
    // the hand's cards, then the face-up cards that may be played
    const cards = [...document.querySelectorAll("#hand .card"), ...document.querySelectorAll("#board .pool .card.legal")];
    if (!cards.length) return false;
    let i = cards.indexOf(document.activeElement);
    if (i < 0) i = key === "ArrowLeft" ? cards.length : -1;
    i = (i + (key === "ArrowLeft" ? -1 : 1) + cards.length) % cards.length;
    cards[i].focus();
    return true;
  }
  return false;
}

export { ApiError };

// The server lets a game go after a long time without any request for it: while this tab
// is open, ask for the game now and then, so a player who steps away finds it still there.
const KEEP_ALIVE_MS = 300_000;
setInterval(() => {
  if (view && !room) api.game(view.table).catch(() => {});
}, KEEP_ALIVE_MS);
