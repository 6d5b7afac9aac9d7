// Drawing a view (as the server sends it): the rows, the seats, the history, the settlement.

const SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };

export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else if (k === "dataset") Object.assign(node.dataset, v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export function clear(node) {
  while (node.firstChild) node.removeChild(node.firstChild);
  return node;
}

export function isRed(card) {
  return card && (card[0] === "H" || card[0] === "D");
}

export function cardName(card) {
  if (card === "JOKER") return "joker";
  const suit = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" }[card[0]];
  return `${card.slice(1)} of ${suit}`;
}

// A card's face: rank over suit symbol.
export function face(card) {
  if (card === "JOKER") return [el("span", { class: "rank", text: "JKR" })];
  return [el("span", { class: "rank", text: card.slice(1) }), el("span", { class: "pip", text: SYMBOL[card[0]] })];
}

// A short inline card: "H7" as "7♥" in red.
export function mini(card) {
  if (!card) return "";
  if (card === "JOKER") return el("span", { class: "mini", text: "JOKER" });
  return el("span", { class: "mini" + (isRed(card) ? " red" : ""), text: card.slice(1) + SYMBOL[card[0]] });
}

const CARD = /^[SHDC](10|[A2-9JQK])$/;

// A card as the page writes it in text: "H7" as "7♥".
export function cardText(card) {
  if (card === "JOKER") return "joker";
  return CARD.test(card) ? card.slice(1) + SYMBOL[card[0]] : card;
}

// Turn texts such as "joker H8 H9" or "cover HK" into text with inline cards; with
// `names`, "seat 2" is written as that seat's name (the engine's messages name seats by
// number). A joker or trump move is said in words: "joker for 8♥, then 9♥", "trump 9♠ in
// 9♥'s place".
export function moveText(text, names = null) {
  const two = /^(joker|trump) ([SHDC](?:10|[A2-9JQK])) ([SHDC](?:10|[A2-9JQK]))$/.exec(String(text));
  if (two && two[1] === "joker") return ["joker for ", mini(two[2]), ", then ", mini(two[3])];
  if (two) return trumpWords(two[2], two[3]);
  const out = [];
  const parts = String(text).split(/(\bseat \d+\b(?! \()|\b[SHDC](?:10|[A2-9JQK])\b)/);
  for (const part of parts) {
    if (!part) continue;
    const seat = /^seat (\d+)$/.exec(part);
    if (CARD.test(part)) out.push(mini(part));
    else if (seat && names && names[Number(seat[1])]) out.push(names[Number(seat[1])]);
    else out.push(part);
  }
  return out;
}

// A move of the history in words. `past`: as done ("played 7♠", "covered", "passed"), for
// a seat's last move; otherwise as the list of moves writes it ("7♠", "cover", "pass").
// `names`: the seats' names, for the seat a card was handed to (turn.pass_takes).
export function moveWords(h, past = false, names = null) {
  switch (h.kind) {
    case "play": return past ? ["played ", mini(h.card)] : [mini(h.card)];
    case "cover":
      if (past) return h.card ? ["covered ", mini(h.card)] : ["covered"];
      return h.card ? ["cover ", mini(h.card)] : ["cover"];
    case "pass":
      // a stop after a card drawn that fits (turn.draw): the card is kept, no pass counted
      if (h.kept) return [past ? "kept the card drawn" : "keep the card drawn"];
      // the end of a block of cards (turn.lay: blocks): no pass counted
      if (h.stopped) return [past ? "ended the block" : "end the block"];
      return [past ? "passed" : "pass"];
    case "draw":
      // the card drawn is shown to the seat that drew it only
      if (past) return h.card ? ["drew ", mini(h.card)] : ["drew a card"];
      return h.card ? ["draw ", mini(h.card)] : ["draw"];
    case "give": {
      // the card is shown to the seat that gave it and the seat that took it only
      const to = h.to === null || h.to === undefined ? "the seat that passed" : names && names[h.to] ? names[h.to] : `seat ${h.to}`;
      return h.card ? ["gave ", mini(h.card), ` to ${to}`] : [`gave a card to ${to}`];
    }
    case "joker": return ["joker for ", mini(h.at), ", then ", mini(h.card)];
    case "trump": return trumpWords(h.card, h.at, past ? "laid " : "lays ");
    case "place": return [past ? "put " : "puts ", mini(h.card), " on the table at the deal"];
    case "swap": return [past ? "laid " : "lays ", mini(h.card), " and took the joker"];
    case "burst": return [past ? "burst: the hand is laid face up" : "bursts: the hand is laid face up"];
    case "leave": return [past ? "left, holding only the joker" : "leaves, holding only the joker"];
    case "cut": return [`closes ${SYMBOL[h.suit]} (斬龍)`];
    default: return moveText(h.text);
  }
}

// A trump laid in the place of another suit's card of its rank (layout.trumps): "lays trump
// 9♠ in 9♥'s place".
export function trumpWords(card, at, verb = "") {
  return [`${verb}trump `, mini(card), " in ", mini(at), "'s place"];
}

// The cards a move of the history (`h`) laid on the table, which the table marks as just
// laid: the card played, and the joker at its place; a trump lies in another's place and is
// drawn there as itself. A cover, a card handed on or drawn goes to no place.
export function laidBy(h) {
  if (!h || ["cover", "give", "draw"].includes(h.kind)) return [];
  return [h.card, h.kind === "joker" ? h.at : null].filter(Boolean);
}

const STATUS_WORDS = {
  unopened: "", open: "", complete: "complete", cut: "cut 斬龍", closed: "closed",
};

// The rows of the table. `targets` is a set of cards the person may lay now (highlighted),
// `onTarget(card)` is called when such a place is clicked. The cards lying face up beside
// the rows (`view.pool`, deck.leftover) follow them; those among `targets` are played by
// clicking them, as their places are. The stock (`view.stock`, deck.leftover: stock) is a
// face-down pile with its count; with `onDraw`, the person draws by clicking it.
export function renderBoard(root, view, rules, targets = new Set(), onTarget = null, just = null, onDraw = null) {
  const focused = document.activeElement && root.contains(document.activeElement) ? document.activeElement.dataset.card : null;
  clear(root);
  const ring = rules.ace_king === "wrap" ? "↻" : rules.ace_king === "tunnel" ? "⇄" : "";
  const info = [];
  // a short pack or another centre is said, as it changes what every row holds
  const pack = rules.order && rules.order.length < 13 ? ` · ${rules.order.length * 4} cards (${rules.order[0]}–${rules.order[rules.order.length - 1]})` : "";
  const centre = rules.centre && rules.centre !== "7" ? ` · rows from the ${rules.centre}s` : "";
  // several decks (deck.decks): each card that many times, each suit in a row per deck
  const times = rules.decks === 2 ? "twice" : `${rules.decks} times`;
  const decks = rules.decks > 1 ? ` · ${rules.decks} decks (${rules.order.length * 4 * rules.decks} cards): ` +
    `each card ${times}, a row of each suit per deck` : "";
  info.push(`ace ${rules.ace}` + (rules.ace_king !== "none" ? ` · A–K ${rules.ace_king}` : "") +
    (rules.cut ? " · ends cut (斬龍)" : "") + pack + centre + decks);
  // layout.trumps: the last card dealt names trumps (it is the state's door card)
  if (view.trumps) {
    info.push(el("span", { class: "trumps", "data-suit": view.trumps.suit }, el("strong", { text: "Trumps: " }),
      el("span", { class: "trump-suit" + (isRed(view.trumps.suit) ? " red" : ""), text: view.trumps.symbol }),
      ` ${view.trumps.name}, named by `, mini(view.trumps.card), ", the last card dealt"));
  } else if (view.door_card) info.push(el("span", {}, "door card ", mini(view.door_card)));
  if (view.first_card) info.push(el("span", {}, "opens with ", mini(view.first_card)));
  for (const at of view.jokers_at || []) info.push(el("span", {}, "joker stands at ", mini(at)));
  const infoLine = el("div", { class: "door" });
  info.forEach((x, i) => { if (i) infoLine.append(" · "); infoLine.append(x); });
  root.append(infoLine);
  const several = rules.decks > 1;
  for (const row of view.rows) {
    const badge = STATUS_WORDS[row.status] || (row.opened ? `#${row.opened}` : "");
    // with several decks a suit has a row per deck: the k-th copies of its cards lie in the k-th
    const which = several ? ` ${row.deck} of ${rules.decks}` : "";
    const line = el("div", {
      class: `row ${row.status}` + (several ? (row.deck > 1 ? " copies" : " suit-start") : "") + (row.trumps ? " trump-row" : ""),
      "data-suit": row.suit, "data-deck": several ? row.deck : null,
      "aria-label": `${row.name} row${which}${row.trumps ? ", trumps" : ""}${row.status !== "open" ? ", " + row.status : ""}`,
    });
    line.append(el("div", {
      class: "row-label" + (isRed(row.suit) ? " red" : ""),
      title: several ? `${row.name}, row ${row.deck} of ${rules.decks}: the copies of a card go down in turn, row by row` : null,
    },
    el("span", {}, row.symbol, several ? el("sub", { class: "deck-mark", text: String(row.deck) }) : null),
    badge ? el("span", { class: "badge", text: badge, title: row.opened ? `opened ${row.opened}` : "" }) : null,
    row.trumps ? el("span", { class: "badge trump-mark", text: "trumps", title: `${row.name} are trumps` }) : null));
    for (const cell of row.cells) {
      const red = isRed(cell.card) ? " red" : "";
      // how many copies lie down, said where there are several decks (the rows show it)
      const copies = several ? ` · ${cell.down} of ${rules.decks} down` : "";
      let node;
      // layout.trumps: a trump in another suit's place, or in the trump row the card it displaced
      const place = cell.place ? { "data-place": cell.place } : {};
      if (cell.state === "trump") {
        const hint = `the trump ${cardText(cell.card)}, laid in the place of ${cardText(cell.place)}`;
        node = el("div", { class: `cell trump${red}`, "data-card": cell.card, ...place, title: hint, "aria-label": hint },
          face(cell.card));
      } else if (cell.state === "played" || cell.state === "laid") {
        const moved = cell.displaced ? `: in the trump row, as a trump took its place (${cardText(cell.place)})` : "";
        node = el("div", {
          class: `cell ${cell.state}${red}${cell.displaced ? " displaced" : ""}`, "data-card": cell.card, ...place,
          "data-deck": several ? row.deck : null,
          title: cell.state === "laid" ? `${cell.card}: laid face up by seat ${cell.by} (burst)` : cell.card + moved + copies,
        }, face(cell.card));
      } else if (cell.state === "joker") {
        node = el("div", { class: "cell joker", "data-card": cell.card, title: `the joker, in the place of ${cell.card}` }, "JKR");
      } else {
        // with several decks a card goes to one row only: the row of its next copy
        const target = targets.has(cell.card) && (!several || cell.down === row.deck - 1);
        // the card displaced by a trump goes to the trump row: its place there shows its suit
        const moved = cell.displaced ? ` goes here: a trump took its place (${cardText(cell.place)})` : "";
        node = el("div", {
          class: `cell ${cell.state}${target ? " target" : ""}${cell.displaced ? " displaced" : ""}`, "data-card": cell.card,
          ...place, "data-deck": several ? row.deck : null,
          title: (moved ? cardText(cell.card) + moved : cell.state === "open" ? `${cell.card} may be laid here` : cell.card) + copies,
          onclick: target && onTarget ? () => onTarget(cell.card) : null,
        }, cell.rank, cell.displaced ? el("span", { class: "pip", text: SYMBOL[cell.card[0]] }) : null);
      }
      // the copy just laid is the top one: in the row of its last copy down
      if (just && just.has(cell.card) && (!several || cell.down === row.deck)) node.classList.add("just");
      line.append(node);
    }
    line.append(el("div", { class: "row-end", title: ring ? `A–K ${rules.ace_king}` : "" }, ring));
    root.append(line);
  }
  if (view.pool && view.pool.length) root.append(renderPool(view.pool, targets, onTarget));
  if (view.stock !== null && view.stock !== undefined) root.append(renderStock(view.stock, onDraw));
  if (focused) root.querySelector(`.pool .card[data-card="${focused}"]`)?.focus();
}

// The cards dealt to no seat, face up beside the rows: each drawn as a card of the hand is;
// one that may be played now (in `targets`) is a button that plays it.
function renderPool(pool, targets, onTarget) {
  const strip = el("div", { class: "pool", role: "group", "aria-label": "cards face up, anyone may play them" },
    el("span", { class: "pool-label", text: "Face up (anyone may play)" }));
  for (const card of pool) {
    const red = isRed(card) ? " red" : "";
    if (targets.has(card) && onTarget) {
      const hint = `${cardName(card)}, face up: may be played`;
      strip.append(el("button", {
        type: "button", class: `card legal${red}`, "data-card": card, "aria-label": hint, title: hint,
        onclick: () => onTarget(card),
      }, face(card)));
    } else {
      const hint = `${cardName(card)}, face up`;
      strip.append(el("span", { class: `card${red}`, "data-card": card, role: "img", "aria-label": hint, title: hint }, face(card)));
    }
  }
  return strip;
}

// The stock: the cards dealt to no seat, face down in a pile beside the rows, and how
// many are left. A player with nothing to play draws one (turn.draw); with `onDraw` the
// pile is a button that draws.
function renderStock(count, onDraw) {
  const words = count ? `${plural(count, "card", "cards")} face down` : "empty";
  const label = `Stock: ${words}`;
  const pile = el(onDraw ? "button" : "span", {
    class: "stock-pile" + (count ? "" : " empty") + (onDraw ? " legal" : ""),
    type: onDraw ? "button" : null, role: onDraw ? null : "img",
    "aria-label": onDraw ? `${label}: draw a card` : label, title: onDraw ? "draw a card" : label,
    onclick: onDraw ? () => onDraw() : null,
  },
  el("span", { class: "card back", "aria-hidden": "true" }),
  el("span", { class: "stock-count", "aria-hidden": "true", text: String(count) }));
  return el("div", { class: "stock", "data-count": count },
    pile,
    el("span", { class: "stock-label" },
      el("strong", { text: "Stock" }), ` · ${words}`,
      el("span", { class: "stock-hint", text: count ? " · a player with nothing to play draws one" : " · nothing left to draw" })));
}

// How a seat's game ended, once it is over: the rank the result gives (never the order of
// going out, which is not the rank under every scoring), and the burst or joker.
function finalStatus(x) {
  const words = [`rank ${x.rank}`];
  if (x.label) words.push(x.label);
  else if (x.winner) words.push("winner");
  if (x.burst_order) words.push("burst");
  else if (x.left_with_joker) words.push("left with the joker");
  return words.join(" · ");
}

export function renderSeats(root, view, rules, me = null) {
  clear(root);
  const result = view.settlement ? view.settlement.seats : null;
  for (const s of view.seats) {
    const facts = [`${s.hand} in hand`];
    if (rules.covers) facts.push(`${s.covered} covered`);
    if (rules.pass_limit !== null && rules.pass_limit !== undefined) facts.push(plural(s.passes_left, "pass", "passes") + " left");
    else if (rules.stuck === "pass") facts.push(plural(s.passes, "pass", "passes"));
    const status = result ? finalStatus(result[s.seat]) : s.status;
    const last = s.last ? el("div", { class: "seat-last", "data-kind": s.last.kind },
      "last: ", ...moveWords(s.last, true, view.seats.map((x) => x.name))) : null;
    root.append(el("div", {
      class: "seat" + (s.to_move ? " to-move" : "") + (s.seat === me ? " me" : ""),
      "data-seat": s.seat,
    },
    el("div", { class: "seat-name" }, el("span", { text: s.name }),
      s.to_move ? el("span", { text: "to move" }) : null),
    el("div", { class: "seat-facts" }, ...facts.map((f) => el("span", { text: f }))),
    last,
    status ? el("div", { class: "seat-status" + (/burst/.test(status) ? " burst" : ""), text: status }) : null));
  }
}

export function plural(n, one, many) {
  return `${n} ${Number(n) === 1 ? one : many}`;
}

export function historyLine(h, names) {
  const who = names ? names[h.seat] : `seat ${h.seat}`;
  const event = ["place", "swap", "burst", "leave", "cut"].includes(h.kind);
  return el("li", { class: event ? "event" : "", "data-kind": h.kind }, `${who}: `, ...moveWords(h, false, names));
}

export function renderHistory(root, view, current = null) {
  clear(root);
  const names = view.seats.map((s) => s.name);
  let mark = null;
  view.history.forEach((h, i) => {
    const li = historyLine(h, names);
    if (current !== null && i === current) { li.classList.add("current"); mark = li; }
    root.append(li);
  });
  // keep the latest (or the current) move in sight inside the list, never moving the page:
  // positions are measured on the screen, whatever the list's offset parent is
  const target = mark || root.lastChild;
  if (target && root.clientHeight) {
    const box = root.getBoundingClientRect();
    const line = target.getBoundingClientRect();
    const top = line.top - box.top + root.scrollTop;
    if (top < root.scrollTop || top + line.height > root.scrollTop + root.clientHeight) {
      root.scrollTop = Math.max(0, top - (root.clientHeight - line.height) / 2);
    }
  }
}

// The end of the game in one banner: who won, why the game ended, and (for a player) their
// own result.
export function renderEnding(view, s, me = null) {
  const names = view.seats.map((x) => x.name);
  const winners = s.winners.map((w) => names[w]);
  const head = winners.length === 0 ? "nobody won." :
    winners.length === 1 ? `${winners[0]} won.` : `${winners.join(" and ")} won together.`;
  const banner = el("div", { class: "ending", role: "status", "data-reason": view.ending ? view.ending.reason : "" },
    el("p", { class: "ending-head" }, el("strong", { text: "Game over: " }), head));
  if (view.ending) banner.append(el("p", { class: "ending-why" }, "Why it ended: ", ...moveText(view.ending.text)));
  if (me !== null && me !== undefined) {
    const x = s.seats[me];
    const yours = [`rank ${x.rank} of ${s.seats.length}`];
    if (x.label) yours.push(x.label);
    if (x.total !== null && x.total !== undefined) yours.push(plural(x.total, "point", "points"));
    const line = el("p", { class: "ending-you" + (x.winner ? " won" : "") },
      `You ${x.winner ? "won" : "did not win"}: ${yours.join(" · ")}`);
    if (s.objective === "money") line.append(" · money ", money(x.money));
    banner.append(line);
  }
  return banner;
}

export function money(value) {
  const text = String(value);
  const negative = text.startsWith("-");
  const zero = text === "0";
  return el("span", { class: zero ? "" : negative ? "money-minus" : "money-plus", text: negative || zero ? text : `+${text}` });
}

// How a seat's game ended, for the settlement: out in order, burst, left with the joker,
// or the cards still held.
function howOut(x) {
  if (x.out) return `out ${ordinal(x.out)}`;
  if (x.burst_order) return "burst (判負)";
  if (x.left_with_joker) return "left with the joker";
  return x.cards_left ? plural(x.cards_left, "card", "cards") + " left" : "";
}

function ordinal(k) {
  return k === 1 ? "1st" : k === 2 ? "2nd" : k === 3 ? "3rd" : `${k}th`;
}

// The settlement, after the banner of the end if one is given.
export function renderSettlement(root, s, seats, banner = null) {
  clear(root);
  root.hidden = false;
  const name = (i) => (seats ? seats[i].name : `seat ${i}`);
  if (banner) root.append(banner);
  root.append(el("h2", { text: "Settlement" }));
  const showTotal = s.seats.some((x) => x.total !== null);
  const showHow = s.seats.some((x) => x.parts.length);
  const showCovered = s.seats.some((x) => x.covered_points !== null);
  const showBust = s.seats.some((x) => "bust" in x);
  const showMult = s.seats.some((x) => x.multiplier_for);
  const showMoney = s.objective === "money";
  const showOut = s.seats.some((x) => x.burst_order || x.left_with_joker || x.cards_left);
  const head = ["Seat", "Rank", "Label"];
  if (showOut) head.push("End");
  if (showTotal) head.push(s.objective === "points" ? "Points" : "Total");
  if (showHow) head.push("How");
  if (showCovered) head.push("Covered");
  if (showBust) head.push("Bust");
  if (showMult) head.push("Winner ×");
  if (showMoney) head.push("Money");
  const table = el("table", { class: "settle-table" },
    el("thead", {}, el("tr", {}, head.map((h) => el("th", { text: h })))));
  const body = el("tbody");
  for (const x of s.seats) {
    const cells = [el("td", { text: name(x.seat) }), el("td", { text: x.rank }),
      el("td", { text: x.label || (x.winner ? "winner" : "") })];
    if (showOut) cells.push(el("td", { class: "how-out" + (x.burst_order ? " burst" : ""), text: howOut(x) }));
    if (showTotal) {
      cells.push(el("td", { text: x.total ?? "" }));
    }
    if (showHow) {
      // one span, so that on a phone the cards wrap beside the cell's label
      const how = el("span", { class: "how" });
      x.parts.forEach((p, i) => {
        if (i) how.append(el("br"));
        how.append(`${p.points >= 0 ? "+" : ""}${p.points} ${p.what}`);
        for (const c of p.cards || []) how.append(" ", mini(c));
      });
      cells.push(el("td", {}, how));
    }
    if (showCovered) {
      const c = el("td");
      if (x.covered.length) c.append(plural(x.covered_points, "point", "points"));
      if (x.exempt) c.append(` (${x.exempt} in melds not counted)`);
      cells.push(c);
    }
    if (showBust) cells.push(el("td", { text: "bust" in x ? (x.bust ? `爆點 (${x.bust_points})` : "no") : "" }));
    if (showMult) cells.push(el("td", { text: x.winner ? `×${x.multiplier}${x.multiplier_for ? " " + x.multiplier_for : ""}` : "" }));
    if (showMoney) cells.push(el("td", { class: "num" }, money(x.money)));
    cells.forEach((cell, i) => cell.setAttribute("data-label", head[i])); // the phone's stacked rows
    body.append(el("tr", { "data-seat": x.seat, class: x.winner ? "winner" : "" }, cells));
  }
  table.append(body);
  root.append(el("div", { class: "settle-wrap" }, table));
  if (s.payments.length) {
    root.append(el("h3", { text: "Who pays whom" }));
    for (const p of s.payments) {
      root.append(el("p", { class: "pay" }, `${name(p.from)} pays ${name(p.to)} ${p.amount}`,
        p.why ? `: ${p.why}` : ""));
    }
  }
  if (s.house && s.house !== "0") root.append(el("p", { text: `The house keeps ${s.house}.` }));
  if (s.rules.length) {
    const d = el("details", { class: "rules-used" }, el("summary", { text: "The scoring rules (paiqi explain)" }));
    const dl = el("dl");
    for (const r of s.rules) dl.append(el("dt", { text: `${r.rule} = ${r.value}` }), el("dd", { text: r.means }));
    d.append(dl);
    root.append(d);
  }
}
