// Live pages by push (issue 25). The page names its stream in <meta name="banker-push"
// content="URL" data-poll="MS">: one Server-Sent Events stream (banker/net/push.py) that says
// the moment the game changes. Then every [data-live] element asks for its fresh part: an
// htmx element through its own hx-get (trigger "banker:live": the request its poll made,
// still held back by refresh.js while a tap is in flight, a typed bid kept by hx-preserve), any
// other (the story) by reading the page again and putting its new copy in place.
// The page opens its stream with the version it shows (?v=; the browser's own reconnects
// send Last-Event-ID), so a page that was away (a dropped Wi-Fi, a sleeping phone) is told at
// once when it is back; it opens a fresh stream whenever it becomes visible or online again.
// Where push is blocked (no EventSource, a proxy that holds the stream back, a refusal), the
// page polls instead, every data-poll ms, as it did before push. <html data-push="push|poll">
// says which (data-live marks the parts to refresh, never the page itself).
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="banker-push"]');
  if (!meta) return;
  var URL_ = meta.getAttribute("content");
  var POLL_MS = parseInt(meta.getAttribute("data-poll"), 10) || 700;
  var READY_MS = 5000; // a stream not ready by then is held back somewhere: poll instead
  var source = null, readyTimer = null, polling = null, reading = false, again = false;

  function mark(how) { document.documentElement.setAttribute("data-push", how); }

  function shownVersion() {
    var el = document.querySelector("[data-version]");
    return el ? el.getAttribute("data-version") : "";
  }

  function rereadPage(elements) {
    if (reading) { again = true; return; } // read once more when this reading is done
    reading = true;
    again = false;
    fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (text) {
        if (!text) return;
        var fresh = new DOMParser().parseFromString(text, "text/html");
        elements.forEach(function (el) {
          var copy = el.id && fresh.getElementById(el.id);
          if (copy) el.replaceWith(document.importNode(copy, true));
        });
      })
      .catch(function () {})
      .then(function () {
        reading = false;
        if (again) update();
      });
  }

  // What the stream said that the page may not show yet: a version newer than its own, or a
  // change of another kind (which phones follow, a game resumed elsewhere). A request already
  // in flight (htmx then drops a new one for a replaced element) or held back by a tap
  // (refresh.js) would leave it unshown: after every answer the page looks again.
  var latest = 0, other = false, inFlight = 0, retries = 0;

  function isLive(el) { return !!(el && el.hasAttribute && el.hasAttribute("data-live")); }

  function behind() {
    var v = parseInt(shownVersion(), 10);
    return other || (!isNaN(v) && v < latest);
  }

  function update() {
    var others = [];
    document.querySelectorAll("[data-live]").forEach(function (el) {
      if (el.hasAttribute("hx-get")) {
        if (window.htmx) window.htmx.trigger(el, "banker:live");
      } else {
        others.push(el);
      }
    });
    if (others.length) rereadPage(others);
  }

  function told(version, kind) {
    if (version > latest) latest = version;
    if (kind) other = true;
    retries = 0;
    update();
  }

  document.addEventListener("htmx:beforeSend", function (e) {
    if (!isLive(e.detail.elt)) return;
    inFlight += 1;
    other = false; // this request asks for everything as it is now
  });
  document.addEventListener("htmx:afterRequest", function (e) {
    if (isLive(e.detail.elt)) inFlight = Math.max(0, inFlight - 1);
    setTimeout(function () {
      if (inFlight === 0 && behind() && retries < 5) { retries += 1; update(); }
    }, 50);
  });

  function close() {
    clearTimeout(readyTimer);
    if (source) { source.close(); source = null; }
  }

  function poll() {
    close();
    mark("poll");
    if (!polling) polling = setInterval(update, POLL_MS);
  }

  function open() {
    if (polling) return;
    if (!window.EventSource) { poll(); return; }
    close();
    var v = shownVersion();
    var url = URL_ + (v ? (URL_.indexOf("?") < 0 ? "?" : "&") + "v=" + encodeURIComponent(v) : "");
    var es = source = new EventSource(url);
    readyTimer = setTimeout(function () { if (source === es) poll(); }, READY_MS);
    es.addEventListener("ready", function (e) {
      clearTimeout(readyTimer);
      mark("push");
      latest = Math.max(latest, parseInt(e.data, 10) || 0);
    });
    es.onmessage = function (e) { told(parseInt(e.data, 10) || 0); }; // a new version
    es.addEventListener("following", function () { told(0, true); });
    es.addEventListener("changed", function () { told(0, true); });
    es.addEventListener("gone", function () { close(); told(0, true); });
    es.onerror = function () {
      // Dropped: the browser reconnects by itself (retry: 1 s) with Last-Event-ID. Refused or
      // not a stream: it gives up; the page asks once (a replaced link reloads to say so),
      // then polls.
      if (es.readyState === 2 && source === es) { told(0, true); poll(); }
    };
  }

  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") open();
  });
  window.addEventListener("online", open);
  window.addEventListener("pageshow", function (e) { if (e.persisted) open(); });
  open();
})();
