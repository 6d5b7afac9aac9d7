// The JSON API of paiqi serve.

export class ApiError extends Error {
  constructor(status, data) {
    super(data && data.error ? data.error : `HTTP ${status}`);
    this.status = status;
    this.data = data || {};
  }
}

async function call(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let data = null;
  try {
    data = await response.json();
  } catch (e) {
    data = { error: `HTTP ${response.status}` };
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

export const api = {
  profiles: () => call("GET", "/api/profiles"),
  source: (id) => call("GET", `/api/profiles/${encodeURIComponent(id)}/source`),
  check: (body) => call("POST", "/api/check", body),
  newGame: (body) => call("POST", "/api/games", body),
  game: (id) => call("GET", `/api/games/${id}`),
  act: (id, action) => call("POST", `/api/games/${id}/act`, { action }),
  advance: (id, maxMoves) => call("POST", `/api/games/${id}/advance`, { max_moves: maxMoves }),
  record: (id) => call("GET", `/api/games/${id}/record`),
  // a rules card: in `lang`, or (none given) in the language the browser asks for
  gameRules: (id, lang) => call("GET", `/api/games/${id}/rules${lang ? `?lang=${encodeURIComponent(lang)}` : ""}`),
  readReplays: (jsonl, name) => call("POST", "/api/replays", { jsonl, name }),
  replay: (body) => call("POST", "/api/replay", body),
  runs: () => call("GET", "/api/runs"),
  // rooms: `creds` is {token, host, code}, whichever this page holds
  newRoom: (body) => call("POST", "/api/rooms", body),
  findRoom: (code) => call("POST", "/api/rooms/find", { code }),
  room: (id, creds) => call("POST", `/api/rooms/${id}`, creds),
  joinRoom: (id, body) => call("POST", `/api/rooms/${id}/join`, body),
  roomAct: (id, creds, action) => call("POST", `/api/rooms/${id}/act`, { ...creds, action }),
  standIn: (id, creds, seat) => call("POST", `/api/rooms/${id}/stand-in`, { ...creds, seat, level: "normal" }),
  nextDeal: (id, creds) => call("POST", `/api/rooms/${id}/next`, creds),
  pickCentre: (id, creds, rank) => call("POST", `/api/rooms/${id}/centre`, { ...creds, rank }),
  roomRecord: (id, creds) => call("POST", `/api/rooms/${id}/record`, creds),
  roomRules: (id, creds, lang) => call("POST", `/api/rooms/${id}/rules`, { ...creds, lang: lang || undefined }),
};

// A shared place for what the editor hands to the table ("play this profile").
export const shared = { editor: null };
