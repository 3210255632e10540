"use strict";
// The page of `gpsfence run --web`: every text from the run (fence names, messages) is set with
// textContent or drawn with fillText, never parsed as HTML.
(function () {
  const $ = (id) => document.getElementById(id);
  const state = {
    units: localStorage.getItem("gpsfence.units") || null,
    live: null, status: null, track: [], events: [], lastSeq: -1, eventsSeen: -1, alarmSeen: undefined,
    fences: [], fenceBox: null, zoom: 1, centre: null, fencesPending: false,
  };

  // Units as people read them; machines' SI values come in (m, m/s).
  const UNITS = {
    metric: { speed: [3.6, "km/h"], short: [1, "m"], long: [1000, "km"], switchAt: 1000 },
    imperial: { speed: [2.2369363, "mph"], short: [3.2808399, "ft"], long: [1 / 1609.344, "mi"], switchAt: 1609.344 },
    nautical: { speed: [1.9438445, "kn"], short: [1, "m"], long: [1 / 1852, "nm"], switchAt: 1852 },
  };
  const units = () => UNITS[state.units] || UNITS.metric;
  function distance(m) {
    if (m == null || !isFinite(m)) return "–";
    const u = units();
    if (Math.abs(m) >= u.switchAt) { const v = m * u.long[0]; return v.toFixed(v < 10 ? 2 : 1) + " " + u.long[1]; }
    const v = m * u.short[0];
    return v.toFixed(v < 10 ? 1 : 0) + " " + u.short[1];
  }
  function speed(ms) {
    if (ms == null || !isFinite(ms)) return "–";
    const u = units();
    return (ms * u.speed[0]).toFixed(1) + " " + u.speed[1];
  }
  const localTime = (iso) => iso ? new Date(iso).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit", second: "2-digit" }) : "";
  const localDateTime = (iso) => iso ? new Date(iso).toLocaleString([], { dateStyle: "short", timeStyle: "medium" }) : "";
  const QUALITY = { 0: "none", 1: "GPS", 2: "DGPS", 3: "PPS", 4: "RTK", 5: "RTK float", 6: "dead reck.", 7: "manual", 8: "simulated" };

  async function getJSON(url) {
    const response = await fetch(url, { credentials: "same-origin", cache: "no-store" });
    if (!response.ok) throw new Error(url + ": " + response.status);
    return response.json();
  }

  // --- numbers -------------------------------------------------------------------------------
  function renderNumbers() {
    const live = state.live, status = state.status;
    const fix = live && live.fix;
    $("speed").textContent = fix ? speed(fix.speed) : "–";
    const anchor = status && status.anchor;
    const anchorDistance = live && live.anchor_distance != null ? live.anchor_distance : anchor && anchor.distance;
    $("anchor").textContent = anchor ? distance(anchorDistance) : "no anchor";
    $("anchor").classList.toggle("outside", !!(anchor && anchorDistance > anchor.radius));
    if (fix) {
      const age = fix.wall_time ? Math.max(0, (Date.now() - new Date(fix.wall_time).getTime()) / 1000) : null;
      $("fix").textContent = (QUALITY[fix.quality] || "fix") + (age != null && age > 5 ? " · " + Math.round(age) + " s old" : "");
      $("sats").textContent = fix.satellites != null ? String(fix.satellites) : "–";
      $("accuracy").textContent = fix.accuracy != null ? "±" + distance(fix.accuracy) : "–";
    } else {
      $("fix").textContent = "no fix"; $("sats").textContent = "–"; $("accuracy").textContent = "–";
    }
    // The last judgement of the fix said (none yet: "–"); jammed or spoofed in the alarm's colour.
    const integrity = status && status.integrity;
    const reasons = integrity && integrity.reasons.length ? " · " + integrity.reasons.join(", ").replace(/_/g, " ") : "";
    $("integrity").textContent = integrity ? integrity.state + reasons : "–";
    $("integrity").classList.toggle("unreliable", !!integrity && (integrity.state === "jammed" || integrity.state === "spoofed"));
    const odometer = live && live.odometer_today != null ? live.odometer_today : status && status.odometer_today;
    $("odometer").textContent = distance(odometer);
    const running = status ? status.running : !!live;
    $("state").textContent = running ? "● monitoring" : "○ stopped";
    $("footer").textContent = status ? "State file " + status.state + (status.device ? " · " + status.device : "") : "";
  }

  function renderAlarm() {
    const alarm = state.status && state.status.alarm;
    const banner = $("alarm");
    if (!alarm || alarm.state === "clear") { banner.hidden = true; return; }
    banner.hidden = false;
    banner.classList.toggle("answered", alarm.state !== "active");
    $("alarm-title").textContent = alarm.state === "active" ? "ALARM" : "Alarm acknowledged";
    const cause = alarm.cause ? alarm.cause.type.replace(/_/g, " ") : "";
    const fence = alarm.fence != null ? " · " + String(alarm.fence) : "";
    const away = alarm.anchor_distance != null ? " · " + distance(alarm.anchor_distance) + " from the anchor" : "";
    $("alarm-text").textContent = cause + fence + away + (alarm.since ? " · since " + localTime(alarm.since) : "");
  }

  function renderEvents() {
    const list = $("events");
    list.replaceChildren();
    for (const entry of state.events.slice(-50).reverse()) {
      const e = entry.event;
      const li = document.createElement("li");
      const time = document.createElement("span");
      time.className = "time"; time.textContent = localTime(e.time);
      const type = document.createElement("span");
      type.className = "type" + (/^alarm/.test(e.type) ? " alarm-kind" : "");
      type.textContent = e.type.replace(/_/g, " ");
      li.append(time, type);
      const what = [];
      if (e.fence) what.push(e.fence.name ? e.fence.name + " [" + e.fence.id + "]" : String(e.fence.id));
      if (e.distance != null) what.push(distance(e.distance));
      // The speed rounded up against the limit rounded down: "63 km/h in a 50 zone".
      if (e.speed != null && e.limit != null && e.type === "speeding") {
        const u = units();
        what.push(Math.ceil(e.speed * u.speed[0] - 0.001) + " " + u.speed[1] + " in a " + Math.floor(e.limit * u.speed[0] + 0.001) + " zone");
      }
      if (e.message) what.push(e.message);
      if (e.by) what.push("by " + e.by);
      if (what.length) { const detail = document.createElement("span"); detail.textContent = what.join(" · "); li.append(detail); }
      li.title = localDateTime(e.time);
      list.append(li);
    }
  }

  // --- map -----------------------------------------------------------------------------------
  const canvas = $("map");
  const css = (name) => getComputedStyle(document.body).getPropertyValue(name).trim();
  function position() {
    const fix = state.live && state.live.fix;
    if (fix) return { lat: fix.lat, lon: fix.lon };
    const last = state.status && state.status.last_fix;
    return last ? { lat: last.lat, lon: last.lon } : null;
  }
  // Metres shown across the shorter side: the anchor circle and some room, else 600 m.
  function span() {
    const anchor = state.status && state.status.anchor;
    let metres = 600;
    if (anchor) {
      const away = state.live && state.live.anchor_distance != null ? state.live.anchor_distance : anchor.distance || 0;
      // Centred on the boat: the whole circle on the far side of the anchor, with a margin.
      metres = Math.max(anchor.radius * 3, 2.3 * (away + anchor.radius), 100);
    }
    return metres / state.zoom;
  }
  function projection(width, height) {
    const centre = state.centre || position() || { lat: 0, lon: 0 };
    const scale = Math.min(width, height) / span(); // pixels per metre
    const cosLat = Math.cos(centre.lat * Math.PI / 180);
    return {
      scale, centre,
      x: (lon) => width / 2 + (lon - centre.lon) * 111320 * cosLat * scale,
      y: (lat) => height / 2 - (lat - centre.lat) * 110574 * scale,
      lat: (y) => centre.lat + (height / 2 - y) / scale / 110574,
      lon: (x) => centre.lon + (x - width / 2) / scale / 111320 / cosLat,
    };
  }
  function draw() {
    const ratio = window.devicePixelRatio || 1;
    const width = canvas.clientWidth, height = canvas.clientHeight;
    if (canvas.width !== Math.round(width * ratio) || canvas.height !== Math.round(height * ratio)) {
      canvas.width = Math.round(width * ratio); canvas.height = Math.round(height * ratio);
    }
    const g = canvas.getContext("2d");
    g.setTransform(ratio, 0, 0, ratio, 0, 0);
    g.clearRect(0, 0, width, height);
    const here = position();
    if (!here) { g.fillStyle = css("--muted"); g.font = "16px system-ui"; g.fillText("waiting for a fix…", 16, 28); return; }
    const p = projection(width, height);
    const inside = new Set(((state.status && state.status.inside) || []).map(String));
    // Fences.
    g.lineWidth = 2;
    g.font = "13px system-ui";
    for (const fence of state.fences) {
      const isInside = inside.has(String(fence.id));
      g.strokeStyle = isInside ? css("--inside") : css("--fence");
      g.fillStyle = css("--fence-fill");
      g.beginPath();
      for (const ring of fence.rings) {
        ring.forEach(([lat, lon], i) => i ? g.lineTo(p.x(lon), p.y(lat)) : g.moveTo(p.x(lon), p.y(lat)));
        g.closePath();
      }
      g.fill("evenodd"); g.stroke();
      const first = fence.rings[0] && fence.rings[0][0];
      if (first) {
        let sx = 0, sy = 0; for (const [lat, lon] of fence.rings[0]) { sx += p.x(lon); sy += p.y(lat); }
        const n = fence.rings[0].length;
        g.fillStyle = isInside ? css("--inside") : css("--fence");
        g.fillText(fence.name != null ? String(fence.name) : String(fence.id), sx / n + 4, sy / n);
      }
    }
    // Track of the last hour.
    const since = Date.now() - 3600 * 1000;
    const points = state.track.filter((t) => t[0] >= since);
    if (points.length > 1) {
      g.strokeStyle = css("--track"); g.lineWidth = 2.5; g.beginPath();
      points.forEach((t, i) => i ? g.lineTo(p.x(t[2]), p.y(t[1])) : g.moveTo(p.x(t[2]), p.y(t[1])));
      g.stroke();
    }
    // Anchor, its circle and the line to it.
    const anchor = state.status && state.status.anchor;
    if (anchor) {
      const ax = p.x(anchor.lon), ay = p.y(anchor.lat);
      g.strokeStyle = css("--anchor"); g.lineWidth = 2; g.setLineDash([8, 6]);
      g.beginPath(); g.arc(ax, ay, anchor.radius * p.scale, 0, 2 * Math.PI); g.stroke();
      g.setLineDash([]);
      g.beginPath(); g.moveTo(ax, ay); g.lineTo(p.x(here.lon), p.y(here.lat)); g.stroke();
      g.fillStyle = css("--anchor"); g.font = "bold 18px system-ui"; g.fillText("⚓", ax - 8, ay + 6);
      const d = state.live && state.live.anchor_distance != null ? state.live.anchor_distance : anchor.distance;
      g.font = "13px system-ui";
      g.fillText(distance(d), (ax + p.x(here.lon)) / 2 + 6, (ay + p.y(here.lat)) / 2);
    }
    // The boat, pointing along its course when it moves.
    const fix = state.live && state.live.fix;
    const bx = p.x(here.lon), by = p.y(here.lat);
    g.fillStyle = css("--boat"); g.strokeStyle = css("--panel"); g.lineWidth = 2;
    if (fix && fix.course != null && fix.speed > 0.5) {
      const a = fix.course * Math.PI / 180;
      g.save(); g.translate(bx, by); g.rotate(a);
      g.beginPath(); g.moveTo(0, -14); g.lineTo(8, 9); g.lineTo(0, 4); g.lineTo(-8, 9); g.closePath();
      g.fill(); g.stroke(); g.restore();
    } else {
      g.beginPath(); g.arc(bx, by, 7, 0, 2 * Math.PI); g.fill(); g.stroke();
    }
    if (fix && fix.accuracy) {
      g.strokeStyle = css("--muted"); g.lineWidth = 1;
      g.beginPath(); g.arc(bx, by, fix.accuracy * p.scale, 0, 2 * Math.PI); g.stroke();
    }
    drawScale(g, p, width, height);
    drawNorth(g, width);
  }
  function drawScale(g, p, width, height) {
    const u = units();
    const target = 100 / p.scale; // metres in about 100 px
    const useLong = target >= u.switchAt;
    const factor = useLong ? u.long[0] : u.short[0];
    const shown = target * factor;
    const step = Math.pow(10, Math.floor(Math.log10(shown)));
    const nice = [1, 2, 5, 10].map((k) => k * step).filter((v) => v <= shown).pop() || step;
    const px = nice / factor * p.scale;
    const x = 12, y = height - 16;
    g.strokeStyle = css("--fg"); g.fillStyle = css("--fg"); g.lineWidth = 2;
    g.beginPath(); g.moveTo(x, y - 6); g.lineTo(x, y); g.lineTo(x + px, y); g.lineTo(x + px, y - 6); g.stroke();
    g.font = "12px system-ui";
    g.fillText(nice + " " + (useLong ? u.long[1] : u.short[1]), x + 4, y - 8);
  }
  function drawNorth(g, width) {
    const x = 24, y = 30;
    g.fillStyle = css("--fg"); g.strokeStyle = css("--fg");
    g.beginPath(); g.moveTo(x, y - 16); g.lineTo(x + 7, y); g.lineTo(x - 7, y); g.closePath(); g.fill();
    g.font = "bold 12px system-ui"; g.fillText("N", x - 4, y + 14);
  }

  // Fences near the view: asked again when the view leaves the box last asked for.
  async function loadFences() {
    if (state.fencesPending) return;
    const width = canvas.clientWidth || 360, height = canvas.clientHeight || 360;
    const p = projection(width, height);
    const view = { s: p.lat(height), n: p.lat(0), w: p.lon(0), e: p.lon(width) };
    const box = state.fenceBox;
    if (box && view.s >= box.s && view.n <= box.n && view.w >= box.w && view.e <= box.e) return;
    const padLat = (view.n - view.s), padLon = (view.e - view.w);
    const ask = { s: view.s - padLat, n: view.n + padLat, w: view.w - padLon, e: view.e + padLon };
    state.fencesPending = true;
    try {
      const answer = await getJSON("/api/fences?bbox=" + [ask.s, ask.w, ask.n, ask.e].map((v) => v.toFixed(6)).join(","));
      state.fences = answer.fences; state.fenceBox = ask;
      draw();
    } catch (e) { /* the next position asks again */ } finally { state.fencesPending = false; }
  }

  // --- data ----------------------------------------------------------------------------------
  async function refreshStatus() {
    try { state.status = await getJSON("/api/status"); } catch (e) { return; }
    renderNumbers(); renderAlarm(); draw(); loadFences();
  }
  async function refreshEvents() {
    try {
      const answer = await getJSON("/api/events?since=" + state.lastSeq);
      state.events = state.events.concat(answer.events).slice(-200);
      if (answer.events.length) state.lastSeq = answer.events[answer.events.length - 1].seq;
      else if (state.lastSeq < 0) state.lastSeq = answer.last;
      renderEvents();
    } catch (e) { /* asked again at the next change */ }
  }
  function takeLive(live) {
    const first = state.live == null;
    state.live = live;
    const fix = live.fix;
    if (fix) {
      const t = new Date(fix.time).getTime();
      const last = state.track[state.track.length - 1];
      if (!last || t - last[0] >= 1000) state.track.push([t, fix.lat, fix.lon, fix.speed]);
      if (state.track.length > 4000) state.track.splice(0, state.track.length - 3600);
    }
    if (live.events !== state.eventsSeen || live.alarm !== state.alarmSeen) {
      state.eventsSeen = live.events; state.alarmSeen = live.alarm;
      refreshEvents(); refreshStatus();
    } else if (first) {
      refreshStatus();
    }
    renderNumbers(); draw(); loadFences();
  }
  // Live updates: a WebSocket (/ws); server-sent events (/events) when it cannot open (a proxy
  // that does not pass the upgrade), asking /api/live every 2 s without either. The way in use is
  // on <body data-live>.
  function listen() {
    if (window.WebSocket) return listenOnWebSocket();
    if (window.EventSource) return listenToEvents();
    document.body.dataset.live = "polling";
    setInterval(async () => { try { takeLive(await getJSON("/api/live")); } catch (e) {} }, 2000);
  }
  function listenOnWebSocket() {
    let opened = false;
    const socket = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws");
    // A new connection's first state also fetches the status, which says "monitoring" again.
    socket.onopen = () => { opened = true; state.live = null; document.body.dataset.live = "websocket"; };
    socket.onmessage = (message) => { try { takeLive(JSON.parse(message.data)); } catch (e) {} };
    socket.onclose = () => {
      if (!opened) { if (window.EventSource) listenToEvents(); return; }
      $("state").textContent = "reconnecting…";
      setTimeout(listenOnWebSocket, 3000);
    };
  }
  function listenToEvents() {
    document.body.dataset.live = "events";
    const source = new EventSource("/events");
    source.onmessage = (message) => { try { takeLive(JSON.parse(message.data)); } catch (e) {} };
    source.onerror = () => { $("state").textContent = "reconnecting…"; };
  }

  // --- controls ------------------------------------------------------------------------------
  $("ack").addEventListener("click", async () => {
    $("ack").disabled = true;
    try {
      await fetch("/api/ack", { method: "POST", credentials: "same-origin" });
    } finally {
      $("ack").disabled = false;
      setTimeout(refreshStatus, 300);
    }
  });
  $("units").addEventListener("change", () => {
    state.units = $("units").value; localStorage.setItem("gpsfence.units", state.units);
    renderNumbers(); renderAlarm(); renderEvents(); draw();
  });
  function setNight(on) {
    document.body.classList.toggle("night", on);
    $("night").setAttribute("aria-pressed", String(on));
    localStorage.setItem("gpsfence.night", on ? "1" : "0");
    draw();
  }
  $("night").addEventListener("click", () => setNight(!document.body.classList.contains("night")));
  $("zoom-in").addEventListener("click", () => { state.zoom *= 2; draw(); loadFences(); });
  $("zoom-out").addEventListener("click", () => { state.zoom /= 2; draw(); loadFences(); });
  $("zoom-fit").addEventListener("click", () => { state.zoom = 1; state.centre = null; draw(); loadFences(); });
  let drag = null;
  canvas.addEventListener("pointerdown", (e) => { drag = { x: e.clientX, y: e.clientY, centre: state.centre || position() }; canvas.setPointerCapture(e.pointerId); });
  canvas.addEventListener("pointermove", (e) => {
    if (!drag || !drag.centre) return;
    const p = projection(canvas.clientWidth, canvas.clientHeight);
    const cosLat = Math.cos(drag.centre.lat * Math.PI / 180);
    state.centre = {
      lat: drag.centre.lat + (e.clientY - drag.y) / p.scale / 110574,
      lon: drag.centre.lon - (e.clientX - drag.x) / p.scale / 111320 / cosLat,
    };
    draw();
  });
  canvas.addEventListener("pointerup", () => { drag = null; loadFences(); });
  window.addEventListener("resize", draw);
  setInterval(() => { $("clock").textContent = new Date().toLocaleTimeString(); renderNumbers(); }, 1000);

  async function start() {
    setNight(localStorage.getItem("gpsfence.night") === "1");
    try {
      const config = await getJSON("/api/config");
      if (!state.units) state.units = config.units;
    } catch (e) {}
    $("units").value = state.units || "metric";
    try {
      const track = await getJSON("/api/track");
      state.track = track.points.concat(state.track).sort((a, b) => a[0] - b[0]);
    } catch (e) {}
    await refreshStatus();
    await refreshEvents();
    listen();
  }
  start();
})();
