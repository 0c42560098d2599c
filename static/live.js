// Live pages by push: how it works is told in banker/net/push.py (kept short here: every
// page loads it). The stream in <meta name="banker-push"> says when the game changed; each
// [data-live] part then asks for its fresh copy (hx-get, or the page read again); a page behind
// after an answer asks again; no stream ready in 5 s: poll every data-poll ms.
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="banker-push"]');
  if (!meta) return;
  var base = meta.content, every = +meta.getAttribute("data-poll") || 700;
  var es = null, timer = 0, polling = 0, reading = 0, again = 0;
  var latest = 0, other = 0, inFlight = 0, retries = 0;
  var doc = document;

  function shown() {
    var el = doc.querySelector("[data-version]");
    return el ? +el.getAttribute("data-version") : NaN;
  }
  function live(el) { return el && el.hasAttribute && el.hasAttribute("data-live"); }

  function reread(parts) {
    if (reading) { again = 1; return; }
    reading = 1; again = 0;
    fetch(location.href, { cache: "no-store" }).then(function (r) { return r.ok && r.text(); })
      .then(function (text) {
        var fresh = text && new DOMParser().parseFromString(text, "text/html");
        parts.forEach(function (el) {
          var copy = fresh && el.id && fresh.getElementById(el.id);
          if (copy) el.replaceWith(doc.importNode(copy, true));
        });
      }).catch(function () {}).then(function () { reading = 0; if (again) update(); });
  }

  function update() {
    var parts = [];
    doc.querySelectorAll("[data-live]").forEach(function (el) {
      if (!el.hasAttribute("hx-get")) parts.push(el);
      else if (window.htmx) htmx.trigger(el, "banker:live");
    });
    if (parts.length) reread(parts);
  }

  function told(version, kind) {
    latest = Math.max(latest, version || 0);
    if (kind) other = 1;
    retries = 0;
    update();
  }

  doc.addEventListener("htmx:beforeSend", function (e) {
    if (live(e.detail.elt)) { inFlight++; other = 0; }
  });
  doc.addEventListener("htmx:afterRequest", function (e) {
    if (live(e.detail.elt)) inFlight = Math.max(0, inFlight - 1);
    setTimeout(function () {
      if (!inFlight && (other || shown() < latest) && retries++ < 5) update();
    }, 50);
  });

  function close() {
    clearTimeout(timer);
    if (es) { es.close(); es = null; }
  }
  function poll() {
    close();
    doc.documentElement.setAttribute("data-push", "poll");
    if (!polling) polling = setInterval(update, every);
  }

  function open() {
    if (polling) return;
    if (!window.EventSource) return poll();
    close();
    var v = shown(), s = new EventSource(base + (v >= 0 ? "?v=" + v : ""));
    es = s;
    timer = setTimeout(function () { if (es === s) poll(); }, 5000);
    s.addEventListener("ready", function (e) {
      clearTimeout(timer);
      doc.documentElement.setAttribute("data-push", "push");
      latest = Math.max(latest, +e.data || 0);
    });
    s.onmessage = function (e) { told(+e.data); };
    ["following", "changed"].forEach(function (k) {
      s.addEventListener(k, function () { told(0, 1); });
    });
    s.addEventListener("gone", function () { close(); told(0, 1); });
    // Dropped: the browser reconnects itself (with Last-Event-ID). Refused: ask once, poll.
    s.onerror = function () { if (s.readyState === 2 && es === s) { told(0, 1); poll(); } };
  }

  doc.addEventListener("visibilitychange", function () {
    if (doc.visibilityState === "visible") open();
  });
  addEventListener("online", open);
  addEventListener("pageshow", function (e) { if (e.persisted) open(); });
  open();
})();
