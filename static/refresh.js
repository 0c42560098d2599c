// The live page (both parts described in banker/net/push.py; kept short: every page loads it).
// 1. A tap always wins over a live refresh (an element marked data-refresh), and nothing is
// aborted (htmx logs aborts as console errors): a refresh is not sent while a tap is in flight,
// and its answer is not swapped when a tap was sent after it. Taps drop a second tap (hx-sync).
(function () {
  "use strict";
  var STALE_MS = 15000; // a tap not answered by then no longer holds the refreshes back
  var taps = 0; // taps sent so far
  var pending = []; // taps in flight: {xhr, t}

  function tapInFlight() {
    var now = Date.now();
    pending = pending.filter(function (p) {
      return p.xhr.readyState !== 4 && p.xhr.readyState !== 0 && now - p.t < STALE_MS;
    });
    return pending.length > 0;
  }

  function isRefresh(elt) {
    return !!(elt && elt.hasAttribute && elt.hasAttribute("data-refresh"));
  }

  function holdRefresh(event) {
    var detail = event.detail, xhr = detail.xhr, target = detail.target;
    if (tapInFlight()) {
      event.preventDefault(); // htmx then sends nothing, and logs nothing
      return;
    }
    var sentAfter = taps;
    function veto(swap) {
      if (swap.detail.xhr !== xhr) return;
      if (taps !== sentAfter) swap.detail.shouldSwap = false;
    }
    // On the target itself: it may have left the page (a tap's answer replaced it) by then.
    target.addEventListener("htmx:beforeSwap", veto);
    xhr.addEventListener("loadend", function () {
      setTimeout(function () { target.removeEventListener("htmx:beforeSwap", veto); }, 0);
    });
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var detail = event.detail;
    if (!detail || !detail.xhr) return;
    if (isRefresh(detail.elt)) {
      holdRefresh(event);
      return;
    }
    taps += 1;
    var entry = { xhr: detail.xhr, t: Date.now() };
    pending.push(entry);
    detail.xhr.addEventListener("loadend", function () {
      pending = pending.filter(function (p) { return p !== entry; });
    });
  });
})();

// 2. Push: the stream in <meta name="banker-push"> says when the game changed; each [data-live]
// part then asks for its fresh copy (hx-get, or the page read again); a page still behind after
// an answer asks again; no stream ready in 5 s: poll every data-poll ms.
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
