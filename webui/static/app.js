// Patience Companion page: every action goes through the JSON API under /api.
"use strict";
const $ = (id) => document.getElementById(id);
const SUIT = { s: "♠", h: "♥", d: "♦", c: "♣" };
const RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"];
let view = null;        // the session view from the API
let source = null;      // {area, pile, index} picked as the source of a move
let checked = null;     // last move checked legal
let lastReading = null; // the last photo reading (sightings, doubts)

async function api(path, opts = {}) {
  const res = await fetch("/api" + path, opts);
  let body = null;
  try { body = await res.json(); } catch (e) { body = { error: `server answered ${res.status}` }; }
  if (!res.ok) { const err = new Error(body.error || `error ${res.status}`); err.body = body; throw err; }
  return body;
}
const post = (path, data) => api(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(data || {}) });

function say(text, ok = false) {
  const m = $("message");
  m.textContent = text; m.className = ok ? "ok" : ""; m.hidden = !text;
  if (text) m.scrollIntoView({ block: "nearest" });
}
function show(which) {
  for (const v of ["games", "sessions", "play"]) $("view-" + v).hidden = v !== which;
}
function pretty(token) {
  if (!token) return "";
  let t = token.replace(/^~/, "").replace(/:\d+$/, "");
  if (!t || t === "?") return "?";
  return t.slice(0, -1) + (SUIT[t.slice(-1)] || t.slice(-1));
}
function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v; else if (k.startsWith("on")) e.addEventListener(k.slice(2), v); else e.setAttribute(k, v);
  }
  for (const k of kids) e.append(k instanceof Node ? k : document.createTextNode(k));
  return e;
}

// ---------------------------------------------------------------- games & sessions
async function showGames() {
  show("games"); say("");
  const games = await api("/games");
  const list = $("game-list"); list.replaceChildren();
  for (const g of games) {
    list.append(el("div", { class: "game-card", id: "game-" + g.id, onclick: () => startSession(g.id) },
      el("h3", {}, g.name), el("div", {}, g.summary || ""), el("div", { class: "src" }, "Source: " + g.source)));
  }
}
async function startSession(gid) {
  try { const v = await post("/sessions", { game: gid }); location.hash = "#/s/" + v.session.id; }
  catch (e) { say(e.message); }
}
async function showSessions() {
  show("sessions"); say("");
  const list = $("session-list"); list.replaceChildren();
  for (const s of await api("/sessions")) {
    list.append(el("li", {}, el("a", { href: "#/s/" + s.id }, `${s.title} (${s.game})`),
      ` — ${s.steps} steps, last used ${new Date(s.updated * 1000).toLocaleString()}`));
  }
}

// ---------------------------------------------------------------- play view
async function openSession(id) {
  // The play view shows only once its session is loaded: a photo sent earlier would have no session to go to.
  say(""); source = null; checked = null; view = null;
  let loaded;
  try { loaded = await api("/sessions/" + id); } catch (e) { show("play"); say(e.message); return; }
  view = loaded; show("play");
  lastReading = null;
  const lastPhoto = [...view.steps].reverse().find((s) => s.kind === "reading");
  if (lastPhoto && lastPhoto.detail.photo) showPhoto(`/api/sessions/${id}/photos/${lastPhoto.detail.photo}`, null);
  else $("photo-figure").hidden = true;
  render();
}
function render() {
  $("play-title").textContent = view.session.title;
  $("export").href = `/api/sessions/${view.session.id}/export`;
  $("export").setAttribute("download", `patience-session-${view.session.id}.json`);
  $("status").textContent = view.status ? "status: " + view.status : "no layout yet";
  drawTableau();
  const last = view.last;
  showDoubts(last && last.kind === "reading" ? last.detail.doubts : []);
  showChanges(last && last.kind === "reading" ? last.detail.changes : []);
  $("made-move").disabled = true; $("check-result").textContent = "";
  if (view.state) { loadAdvice(); loadLegal(); }
  else { $("suggestions").replaceChildren(); $("dangers").replaceChildren(); $("panels").replaceChildren(); $("winnable").textContent = ""; }
}

function doubtKey(d) { return d && d.area != null ? `${d.area}/${d.pile}/${d.index}` : null; }

function pos(area, pile, card) {
  // Same geometry as advisor.engine.Area.position: a line of piles, or a grid when the area wraps.
  const line = area.wrap ? Math.floor(pile / area.wrap) : 0, col = area.wrap ? pile % area.wrap : pile;
  const ws = area.wrap_step || [0, 0];
  return [area.origin[0] + col * area.step[0] + line * ws[0] + card * area.fan[0],
          area.origin[1] + col * area.step[1] + line * ws[1] + card * area.fan[1]];
}
function drawTableau() {
  const box = $("tableau"); box.replaceChildren(); $("offtable").replaceChildren();
  if (!view.state) { box.append(el("p", {}, "Take or upload a photo of your layout, or deal a practice layout.")); box.style.height = "auto"; return; }
  // Scale the drawing so the whole layout fits the width available (a phone held upright included).
  let extentX = 1;
  for (const area of view.layout) {
    if (!area.on_table) continue;
    const n = Math.max(area.count, (view.state.areas[area.name] || []).length);
    for (let i = 0; i < n; i++) extentX = Math.max(extentX, pos(area, i, 0)[0] + 1 + Math.max(0, area.fan[0]) * 12);
  }
  const avail = box.parentElement.clientWidth - 24;
  const cw = Math.max(18, Math.min(56, avail / extentX));
  box.style.setProperty("--cw", cw + "px");
  const doubtful = new Set(((view.last && view.last.detail && view.last.detail.doubts) || []).map(doubtKey).filter(Boolean));
  let maxX = 0, maxY = 0;
  for (const area of view.layout) {
    const piles = view.state.areas[area.name] || [];
    if (!area.on_table) {
      const n = piles.reduce((a, p) => a + p.length, 0);
      $("offtable").append(el("span", {}, `${area.name}: ${n} card${n === 1 ? "" : "s"}`));
      continue;
    }
    const label = el("div", { class: "area-label" }, area.name);
    label.style.left = area.origin[0] * cw + "px"; label.style.top = (area.origin[1] * cw * 1.0 - 14) + "px";
    box.append(label);
    piles.forEach((pile, i) => {
      const [px, py] = pos(area, i, 0);
      const x0 = px * cw, y0 = py * cw;
      const slot = el("div", { class: "slot", "data-loc": area.name + (i + 1), onclick: () => pickDest(area.name, i) });
      slot.style.left = x0 + "px"; slot.style.top = y0 + "px"; box.append(slot);
      pile.forEach((tok, j) => {
        const x = x0 + j * area.fan[0] * cw, y = y0 + j * area.fan[1] * cw;
        const down = tok.startsWith("~"), unknown = tok.replace(/^~/, "") === "" || tok === "?";
        const red = /[hd](:\d+)?$/.test(tok);
        const c = el("div", {
          class: "card" + (down ? " down" : "") + (unknown && !down ? " unknown" : "") + (red ? " red" : "") +
            (doubtful.has(`${area.name}/${i}/${j}`) ? " doubt" : ""),
          "data-loc": area.name + (i + 1), "data-index": j, title: `${area.name} ${i + 1}, card ${j + 1}: ${pretty(tok) || "face down"}`,
          onclick: (ev) => { ev.stopPropagation(); cardClicked(area.name, i, j, tok); },
        }, down ? "" : pretty(tok));
        c.style.left = x + "px"; c.style.top = y + "px"; c.style.zIndex = 10 + j;
        box.append(c);
        maxX = Math.max(maxX, x + cw); maxY = Math.max(maxY, y + cw * 1.4);
      });
      maxX = Math.max(maxX, x0 + cw); maxY = Math.max(maxY, y0 + cw * 1.4);
    });
  }
  box.style.width = maxX + 20 + "px"; box.style.height = maxY + 20 + "px";
}

function cardClicked(area, pile, index, tok) {
  if (source && !(source.area === area && source.pile === pile)) { pickDest(area, pile); return; }
  const pileLen = view.state.areas[area][pile].length;
  if (source && source.area === area && source.pile === pile && source.index === index) { openPicker(area, pile, index, tok); return; }
  source = { area, pile, index, count: pileLen - index };
  document.querySelectorAll(".selected").forEach((e) => e.classList.remove("selected"));
  document.querySelectorAll(`.card[data-loc="${area}${pile + 1}"]`).forEach((e) => { if (+e.dataset.index >= index) e.classList.add("selected"); });
  $("check-result").textContent = `Picked ${pretty(tok) || "a face-down card"} — now tap where it goes, or tap it again to correct it.`;
}
function pickDest(area, pile) {
  if (!source) return;
  const n = source.count > 1 ? "x" + source.count : "";
  $("move-text").value = `${source.area}${source.pile + 1}${n}>${area}${pile + 1}`;
  source = null;
  document.querySelectorAll(".selected").forEach((e) => e.classList.remove("selected"));
  checkMove();
}

// ---------------------------------------------------------------- corrections
let pickTarget = null;
function openPicker(area, pile, index, tok) {
  pickTarget = { area, pile, index };
  source = null;
  document.querySelectorAll(".selected").forEach((e) => e.classList.remove("selected"));
  const cur = tok.replace(/^~/, "").replace(/:\d+$/, "");
  let rank = cur.length > 1 ? cur.slice(0, -1) : null, suit = cur.length > 1 ? cur.slice(-1) : null;
  const ranks = $("pick-ranks"), suits = $("pick-suits"); ranks.replaceChildren(); suits.replaceChildren();
  const mark = (row, val) => row.querySelectorAll("button").forEach((b) => b.classList.toggle("on", b.dataset.v === val));
  for (const r of RANKS) ranks.append(el("button", { type: "button", "data-v": r, onclick: () => { rank = r; mark(ranks, r); } }, r));
  for (const s of "shdc") suits.append(el("button", { type: "button", "data-v": s, onclick: () => { suit = s; mark(suits, s); } }, SUIT[s]));
  mark(ranks, rank); mark(suits, suit);
  $("pick-down").checked = tok.startsWith("~");
  $("picker-title").textContent = `Correct ${area} ${pile + 1}, card ${index + 1}`;
  $("picker").onclose = async () => {
    const v = $("picker").returnValue;
    if (v === "cancel" || !pickTarget) return;
    const down = $("pick-down").checked;
    let card = v === "unknown" ? (down ? "~" : "?") : (rank && suit ? (down ? "~" : "") + rank + suit : null);
    if (!card) { say("Choose a rank and a suit."); return; }
    try { view = await post(`/sessions/${view.session.id}/correct`, { ...pickTarget, card }); say("Correction saved.", true); render(); }
    catch (e) { say(e.message); }
  };
  $("picker").showModal();
}

// ---------------------------------------------------------------- photos
function showPhoto(url, reading) {
  $("photo-figure").hidden = false;
  const img = $("photo");
  img.onload = () => drawOverlay(reading, img.naturalWidth, img.naturalHeight);
  img.src = url;
}
function drawOverlay(reading, w, h) {
  const svg = $("overlay"); svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  if (!reading) { $("photo-caption").textContent = ""; return; }
  const ns = "http://www.w3.org/2000/svg";
  for (const s of reading.sightings || []) {
    const [x1, y1, x2, y2] = s.box;
    const r = document.createElementNS(ns, "rect");
    r.setAttribute("x", x1); r.setAttribute("y", y1); r.setAttribute("width", x2 - x1); r.setAttribute("height", y2 - y1);
    const t = document.createElementNS(ns, "text");
    t.setAttribute("x", x1); t.setAttribute("y", Math.max(12, y1 - 4)); t.setAttribute("font-size", Math.max(14, (y2 - y1) * 0.6));
    t.textContent = pretty(s.label);
    svg.append(r, t);
  }
  const turned = reading.turned_degrees ? ` The layout lay turned in the photo, so it was read turned ${reading.turned_degrees}°.` : "";
  $("photo-caption").textContent = `${(reading.sightings || []).length} corner indices recognised in ${reading.seconds}s.${turned}`;
}
async function sendPhoto(blob, name) {
  if (!view) { say("The session is still loading: send the photo again in a moment."); return; }
  if (!blob || !blob.size) { say("That file is empty."); return; }
  const fd = new FormData(); fd.append("photo", blob, name || "photo.jpg");
  $("busy").hidden = false; say("");
  try {
    const v = await api(`/sessions/${view.session.id}/photo`, { method: "POST", body: fd });
    view = v; lastReading = v.reading;
    showPhoto(`/api/sessions/${view.session.id}/photos/${v.reading.photo}`, v.reading);
    render();
    say(`Read ${countCards(view.state)} cards${v.reading.doubts.length ? `, with ${v.reading.doubts.length} doubt(s) to check` : ""}.`, true);
  } catch (e) {
    // A refused reading still shows what was seen on the photo, and why it was refused.
    const r = e.body && e.body.reading;
    if (r && r.photo) { lastReading = r; showPhoto(`/api/sessions/${view.session.id}/photos/${r.photo}`, r); }
    if (r && r.doubts && r.doubts.length) showDoubts(r.doubts);
    say(e.message);
  }
  finally { $("busy").hidden = true; }
}
function countCards(state) { return Object.values(state.areas).reduce((a, piles) => a + piles.reduce((b, p) => b + p.length, 0), 0); }
function showDoubts(doubts) {
  $("doubts-box").hidden = !(doubts && doubts.length);
  $("doubts").replaceChildren(...(doubts || []).map((d) => el("li", {}, typeof d === "string" ? d : d.message || JSON.stringify(d))));
}
function showChanges(changes) {
  $("changes-box").hidden = !(changes && changes.length);
  $("changes").replaceChildren(...(changes || []).map((c) => el("li", { class: c.legal === false ? "illegal" : "" },
    typeof c === "string" ? c : `${c.says || c.move}${c.legal === false ? " — illegal: " + (c.reason || "") : c.legal ? " — legal" : ""}`)));
}

let stream = null;
async function startCamera() {
  if (!navigator.mediaDevices || !navigator.mediaDevices.getUserMedia) {
    say("The live camera needs this page on localhost or HTTPS (use 'patience serve --lan' for a phone). You can still take or upload a photo.");
    return;
  }
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment", width: { ideal: 1920 }, height: { ideal: 1080 } } });
    $("camera").srcObject = stream; await $("camera").play(); $("camera-box").hidden = false;
  } catch (e) { say("Could not open the camera: " + e.message); }
}
function grabFrame() {
  const v = $("camera"), c = document.createElement("canvas");
  c.width = v.videoWidth; c.height = v.videoHeight; c.getContext("2d").drawImage(v, 0, 0);
  c.toBlob((b) => sendPhoto(b, "camera.jpg"), "image/jpeg", 0.92);
}

// ---------------------------------------------------------------- advice & moves
async function loadAdvice() {
  const id = view.session.id;
  $("suggestions").replaceChildren(el("li", {}, "Thinking…"));
  let a;
  try { a = await api(`/sessions/${id}/advice`); } catch (e) { $("suggestions").replaceChildren(el("li", {}, e.message)); return; }
  if (!view || view.session.id !== id) return;
  $("suggestions").replaceChildren(...a.suggestions.map((s, k) => el("li", { onclick: () => highlight(s.move), "data-move": s.move },
    el("strong", {}, s.says), el("div", { class: "why" }, s.reason))));
  if (!a.suggestions.length) $("suggestions").append(el("li", {}, "No move to suggest."));
  if (a.suggestions.length) highlight(a.suggestions[0].move);
  $("dangers").replaceChildren(...a.dangers.map((d) => el("li", {}, `${d.card ? pretty(d.card) + " — " : ""}${d.reason}`)));
  if (!a.dangers.length) $("dangers").append(el("li", {}, "None flagged."));
  for (const d of a.dangers) {
    if (!d.mark) continue;
    const m = /^([a-z-]+?)(\d+)$/.exec(d.where || ""); if (!m) continue;
    const cards = [...document.querySelectorAll(`.card[data-loc="${m[1]}${m[2]}"]`)];
    const c = d.depth == null ? cards[cards.length - 1] : cards.find((e) => +e.dataset.index === d.depth);
    if (c) c.classList.add(d.mark);
  }
  const w = a.winnable; const badge = $("winnable");
  if (w) {
    badge.textContent = "still winnable? " + (w.exact ? (w.verdict === "yes" ? "yes (exact)" : "no (exact)") :
      `${w.verdict}${w.probability != null ? ` ~${Math.round(w.probability * 100)}% (${w.samples} samples)` : ""}`);
    badge.className = "badge " + (w.verdict === "yes" || w.verdict === "likely" ? "yes" : w.verdict === "no" ? "no" : "maybe");
    badge.title = w.reason || "";
  } else { badge.textContent = ""; }
  const panels = $("panels"); panels.replaceChildren();
  // Panels fold away on a phone, where the tableau and the moves matter most.
  const wide = window.innerWidth > 900;
  for (const [name, value] of Object.entries(a.panels)) {
    const d = el("details", {}, el("summary", {}, name.replace(/[-_]/g, " ")), renderValue(value));
    if (wide) d.open = true;
    panels.append(d);
  }
  $("panels-box").hidden = !Object.keys(a.panels).length;
}
const CARD_RE = /^(10|[2-9AJQK])([shdc])(:\d+)?$/;
function renderValue(v, depth = 0) {
  // Panels are plain JSON from the advisor: tables for records, lists for lists, cards with suit symbols.
  if (v == null) return document.createTextNode("");
  if (typeof v !== "object") return document.createTextNode(typeof v === "string" && CARD_RE.test(v) ? pretty(v) : String(v));
  if (depth > 3) return document.createTextNode(JSON.stringify(v));
  if (Array.isArray(v)) {
    if (!v.length) return document.createTextNode("—");
    if (v.every((x) => x == null || typeof x !== "object")) return document.createTextNode(v.map((x) => (typeof x === "string" && CARD_RE.test(x) ? pretty(x) : String(x))).join(", "));
    if (v.every((x) => x && typeof x === "object" && !Array.isArray(x))) {
      const keys = [...new Set(v.flatMap((r) => Object.keys(r)))];
      return el("table", { class: "kv" }, el("tr", {}, ...keys.map((k) => el("th", {}, k.replace(/_/g, " ")))),
        ...v.map((r) => el("tr", {}, ...keys.map((k) => el("td", {}, renderValue(r[k], depth + 1))))));
    }
    return el("ul", {}, ...v.map((x) => el("li", {}, renderValue(x, depth + 1))));
  }
  return el("table", { class: "kv" }, ...Object.entries(v).map(([k, x]) => el("tr", {}, el("th", {}, k.replace(/_/g, " ")), el("td", {}, renderValue(x, depth + 1)))));
}
function highlight(move) {
  document.querySelectorAll(".hl-src,.hl-dst").forEach((e) => e.classList.remove("hl-src", "hl-dst"));
  const m = /^([a-z-]+\d+)(?:x\d+)?>([a-z-]+\d+)$/.exec(move || "");
  if (!m) return;
  const src = [...document.querySelectorAll(`.card[data-loc="${m[1]}"]`)].pop();
  if (src) src.classList.add("hl-src");
  document.querySelectorAll(`.slot[data-loc="${m[2]}"]`).forEach((e) => e.classList.add("hl-dst"));
  const dstTop = [...document.querySelectorAll(`.card[data-loc="${m[2]}"]`)].pop();
  if (dstTop) dstTop.classList.add("hl-src");
}
async function loadLegal() {
  try {
    const moves = await api(`/sessions/${view.session.id}/moves`);
    $("legal").replaceChildren(...moves.map((m) => el("li", { onclick: () => { $("move-text").value = m.move; checkMove(); } }, `${m.move} — ${m.says}`)));
  } catch (e) { $("legal").replaceChildren(); }
}
async function checkMove() {
  const text = $("move-text").value.trim();
  if (!text) return;
  const out = $("check-result"); checked = null; $("made-move").disabled = true;
  try {
    const r = await post(`/sessions/${view.session.id}/check`, { move: text });
    if (r.legal) { out.replaceChildren(el("span", { class: "legal" }, "Legal: "), r.says); checked = r.move; $("made-move").disabled = false; highlight(r.move); }
    else {
      out.replaceChildren(el("span", { class: "illegal" }, "Illegal: "), r.reason,
        ...(r.nearest ? [el("div", {}, "Nearest legal move: ", el("a", { href: "#", onclick: (ev) => { ev.preventDefault(); $("move-text").value = r.nearest.move; checkMove(); } }, r.nearest.says))] : []));
    }
  } catch (e) { out.replaceChildren(el("span", { class: "illegal" }, e.message)); }
}
async function madeMove() {
  if (!checked) return;
  try { view = await post(`/sessions/${view.session.id}/move`, { move: checked }); say("Move recorded.", true); render(); }
  catch (e) { say(e.message); }
}

// ---------------------------------------------------------------- wiring
function route() {
  const h = location.hash;
  const m = /^#\/s\/(\d+)$/.exec(h);
  if (m) openSession(+m[1]); else if (h === "#/sessions") showSessions(); else showGames();
}
window.addEventListener("hashchange", route);
$("nav-games").onclick = () => { location.hash = "#/"; };
$("nav-sessions").onclick = () => { location.hash = "#/sessions"; };
$("start-camera").onclick = startCamera;
$("read-layout").onclick = grabFrame;
for (const id of ["photo-camera", "photo-file"]) $(id).onchange = (ev) => { const f = ev.target.files[0]; if (f) sendPhoto(f, f.name); ev.target.value = ""; };
$("deal-practice").onclick = async () => {
  try { const v = await post("/sessions", { game: view.session.game, seed: Math.floor(Math.random() * 1e6) }); location.hash = "#/s/" + v.session.id; }
  catch (e) { say(e.message); }
};
$("undo").onclick = async () => { try { view = await post(`/sessions/${view.session.id}/undo`); render(); say("Undone.", true); } catch (e) { say(e.message); } };
$("check-form").onsubmit = (ev) => { ev.preventDefault(); checkMove(); };
$("made-move").onclick = madeMove;
$("import-file").onchange = async (ev) => {
  const f = ev.target.files[0]; if (!f) return;
  const fd = new FormData(); fd.append("file", f);
  try { const v = await api("/sessions/import", { method: "POST", body: fd }); location.hash = "#/s/" + v.session.id; }
  catch (e) { say(e.message); }
};
route();
