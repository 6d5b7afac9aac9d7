// A room: the link and code to share, the open seats to join, the host's controls, the
// scoreboard of the deals played, and the event stream that tells this page of each change.
// The table itself is drawn by the play view (play.js) from this seat's own view.
import { el, clear, mini, money, plural } from "./render.js";

const KEY = (id) => `paiqi-room-${id}`;

// What this browser holds for a room (its seat's token, the host's token, the code), kept
// across reloads in this browser only.
export function loadRoom(id) {
  try {
    return JSON.parse(localStorage.getItem(KEY(id)) || "{}");
  } catch (e) {
    return {};
  }
}

export function saveRoom(id, facts) {
  const kept = { ...loadRoom(id), ...facts };
  localStorage.setItem(KEY(id), JSON.stringify(kept));
  return kept;
}

// The link that brings another person to the room (the code in it lets them in).
export function roomLink(id, code) {
  const query = new URLSearchParams({ room: id });
  if (code) query.set("code", code);
  return `${location.origin}/?${query}#play`;
}

// Follow the room's changes: `onVersion(version)` for each; the browser reconnects a
// dropped stream by itself (and the first event then brings the page up to date).
export function followRoom(room, onVersion, onTrouble) {
  const query = room.code ? `?code=${encodeURIComponent(room.code)}` : "";
  const source = new EventSource(`/api/rooms/${room.id}/events${query}`);
  source.addEventListener("version", (e) => onVersion(JSON.parse(e.data).version));
  source.addEventListener("error", () => onTrouble && onTrouble(source.readyState));
  return source;
}

// The room's panel above the table. `on` holds the actions: join(seat, name),
// standIn(seat), next(), pick(rank), copy(text).
export function renderRoom(root, view, room, on) {
  clear(root);
  root.hidden = false;
  const r = view.room;
  const code = r.code || room.code;
  const who = view.seat >= 0 ? `you sit at ${view.seats[view.seat].name.replace(/ \(you\)$/, "")}` :
    "you are watching";
  const head = el("div", { class: "room-head" },
    el("h2", {}, "Room ", code ? el("span", { class: "room-code", id: "room-code-shown", text: code }) : null),
    el("span", { class: "room-deal", id: "room-deal", text: `deal ${r.deal}` + (r.centre_change ? `, centre ${r.centre}` : "") }),
    el("span", { class: "room-who", id: "room-who", text: who }));
  root.append(head);
  if (code) {
    const link = roomLink(r.id, code);
    root.append(el("p", { class: "room-share" }, "Share: ",
      el("a", { id: "room-link", href: link, text: link }), " ",
      el("button", { type: "button", id: "copy-link", onclick: () => on.copy(link) }, "Copy link")));
  }
  // open seats: a page without a seat may take one
  if (view.seat < 0 && r.open.length) {
    const name = el("input", { id: "join-name", maxlength: 24, size: 10, placeholder: "your name", "aria-label": "your name" });
    root.append(el("div", { class: "room-join" }, el("label", { for: "join-name", text: "Join as " }), name,
      ...r.open.map((s) => el("button", {
        type: "button", class: "primary join-seat", "data-seat": s, onclick: () => on.join(s, name.value),
      }, `Sit at seat ${s}`)),
      el("span", { class: "muted", text: " or watch: spectators see the table, no hand" })));
  }
  // the next deal's centre, picked by the player placed last (match.next_centre)
  const pick = r.centre_pick;
  if (view.over && pick) root.append(centrePick(view, pick, on));
  // the host: a computer move for a person who takes too long; the next deal
  if (r.host) {
    const controls = el("div", { class: "room-host" });
    const turn = view.turn;
    if (!view.over && r.kinds[turn] === "person" && turn !== view.seat) {
      controls.append(el("button", {
        type: "button", id: "stand-in", onclick: () => on.standIn(turn),
        title: "a normal computer player makes one move for this seat",
      }, `Let the computer move for ${view.seats[turn].name}`),
      el("span", { class: "muted", id: "waited", "data-since": String(performance.now() - r.waited * 1000),
        text: ` (waiting ${Math.round(r.waited)} s)` }));
    }
    if (view.over) {
      controls.append(el("button", { type: "button", id: "next-deal", class: "primary", onclick: () => on.next() },
        `Deal the next hand (deal ${r.deal + 1})`));
    }
    if (controls.firstChild) root.append(controls);
  }
  if (view.scoreboard.deals.length) root.append(scoreboard(view));
  if (r.run) {
    root.append(el("p", { class: "muted room-run", id: "room-run" },
      "The deals are stored in the server's results file as run ", el("code", { text: r.run }),
      " (paiqi report, paiqi sql)."));
  }
  if (r.unstored) root.append(el("p", { class: "message", role: "alert", text: r.unstored }));
  if (view.dealt) root.append(dealtHands(view));
}

// Who picks the next deal's centre: the picker chooses from a row of ranks, everyone else
// sees who picks and what was picked.
function centrePick(view, pick, on) {
  const name = view.seats[pick.seat].name.replace(/ \(you\)$/, "");
  const box = el("div", { class: "centre-pick", id: "centre-pick" });
  if (pick.person && pick.seat === view.seat) {
    box.append(el("span", { text: pick.picked ? `You picked ${pick.picked} as the next centre; pick again to change it: ` :
      "You placed last: pick the rank the next deal's rows start from: " }));
    for (const rank of pick.ranks) {
      box.append(el("button", {
        type: "button", class: `pick-rank${rank === pick.picked ? " primary" : ""}`, "data-rank": rank,
        onclick: () => on.pick(rank),
      }, rank), " ");
    }
  } else if (!pick.person) {
    box.append(el("span", { class: "muted", text: `${name} placed last and picks the next deal's centre as it is dealt.` }));
  } else {
    box.append(el("span", { class: "muted", text: pick.picked ? `${name} picked ${pick.picked} as the next deal's centre.` :
      `${name} placed last and picks the next deal's centre.` }));
  }
  return box;
}

// The running score: each deal's money (or points) by seat, the totals, and the fee.
function scoreboard(view) {
  const b = view.scoreboard;
  const usePoints = b.objective !== "money" && b.points !== null;
  const names = view.seats.map((s) => s.name);
  const head = el("tr", {}, el("th", { text: "Deal" }), names.map((n) => el("th", { text: n })));
  const fee = b.deals.some((d) => d.house !== 0);
  if (fee) head.append(el("th", { text: "Fee" }));
  const body = el("tbody");
  for (const d of b.deals) {
    const values = usePoints ? d.points : d.money;
    const row = el("tr", { "data-deal": d.deal }, el("td", { text: d.deal }),
      values.map((v) => el("td", { class: "score", text: null }, usePoints ? String(v) : money(v))));
    if (fee) row.append(el("td", { text: String(d.house) }));
    body.append(row);
  }
  const totals = usePoints ? b.points : b.money;
  const foot = el("tr", { class: "totals" }, el("th", { text: "Total" }),
    totals.map((v, s) => el("td", { class: "score total", "data-seat": s }, usePoints ? String(v) : money(v))));
  if (fee) foot.append(el("td", { text: String(b.house) }));
  const what = usePoints ? "points" : "money";
  const planned = usePoints ? b.match_games : b.session_hands;
  const limit = usePoints && b.match_limit && planned > 1 ? ` to ${b.match_limit} points, at most` : "";
  const caption = `Scoreboard: ${what}, ${plural(b.deals.length, "deal", "deals")} played` +
    (planned > 1 ? ` (the profile's ${usePoints ? "match" : "session"}:${limit || ""} ${planned})` : "");
  const box = el("div", { class: "scroll-x" }, el("table", { class: "scoreboard", id: "scoreboard" },
    el("caption", { text: caption }), el("thead", {}, head), body, el("tfoot", {}, foot)));
  if (b.ended) {
    const won = b.winners.map((w) => names[w].replace(/ \(you\)$/, ""));
    box.append(el("p", { class: "session-end", id: "session-end" }, el("strong", {
      text: `The profile's ${usePoints ? "match" : "session"} is over after ${plural(b.ended, "deal", "deals")}: `,
    }), `${won.join(" and ")} ${won.length > 1 ? "share the win" : "won"}` +
      (b.ended < b.deals.length ? " (the deals after it are played on for fun)." : ". The room may play on.")));
  }
  return box;
}

// Every hand as dealt, shown to all once the deal is over.
function dealtHands(view) {
  const box = el("details", { class: "dealt", id: "dealt" }, el("summary", { text: "Hands as dealt" }));
  view.dealt.forEach((hand, s) => {
    box.append(el("p", { "data-seat": s }, el("strong", { text: `${view.seats[s].name}: ` }),
      ...hand.flatMap((c) => [mini(c), " "])));
  });
  return box;
}

// The host's count of how long the seat to move has been waiting, second by second.
setInterval(() => {
  const waited = document.getElementById("waited");
  if (waited) waited.textContent = ` (waiting ${Math.round((performance.now() - Number(waited.dataset.since)) / 1000)} s)`;
}, 1000);
