// The live page: taps before refreshes, and push: the change swapped in as the stream brings
// it (told in banker/net/push.py; kept small).
(function () {
  "use strict";
  var doc = document, taps = 0, pending = [];

  function has(el, name) { return !!(el && el.hasAttribute && el.hasAttribute(name)); }

  function tapInFlight() {
    var now = Date.now();
    pending = pending.filter(function (p) {
      var s = p.xhr.readyState;
      return s !== 4 && s !== 0 && now - p.t < 15000;
    });
    return pending.length > 0;
  }

  doc.addEventListener("htmx:beforeRequest", function (event) {
    var d = event.detail;
    if (!d || !d.xhr) return;
    var xhr = d.xhr, target = d.target;
    if (has(d.elt, "data-refresh")) {
      if (tapInFlight()) return event.preventDefault();
      var sentAfter = taps;
      var veto = function (swap) {
        if (swap.detail.xhr === xhr && taps !== sentAfter) swap.detail.shouldSwap = false;
      };
      target.addEventListener("htmx:beforeSwap", veto);
      xhr.addEventListener("loadend", function () {
        setTimeout(function () { target.removeEventListener("htmx:beforeSwap", veto); }, 0);
      });
      return;
    }
    taps += 1;
    var entry = { xhr: xhr, t: Date.now() };
    pending.push(entry);
    xhr.addEventListener("loadend", function () {
      pending = pending.filter(function (p) { return p !== entry; });
      setTimeout(release, 0); // after the tap's answer is swapped in
    });
  });

  // A player's news ("Bob declined your offer.") sits at the top of their page, in the page
  // (it covers nothing): arriving while they read further down, and are not typing, it is
  // brought into view. Told by its words changing, whichever way they came (an out-of-band
  // part of an answer, or inside a whole view pushed in the stream, which fires no oob event).
  var newsEl = doc.getElementById("news"), said = newsEl ? newsEl.textContent.trim() : "";
  doc.addEventListener("htmx:afterSettle", news);
  function news() {
    var el = doc.getElementById("news"), a = doc.activeElement;
    var now = el ? el.textContent.trim() : "";
    if (now === said) return;
    said = now;
    if (!now) return;
    if (a && /^(INPUT|SELECT|TEXTAREA)$/.test(a.tagName)) return;
    if (el.getBoundingClientRect().top < 0) el.scrollIntoView({ block: "start" });
  }

  var meta = doc.querySelector('meta[name="banker-push"]');
  var base = meta && meta.content, every = meta && +meta.getAttribute("data-poll") || 700;
  var es = null, timer = 0, polling = 0, reading = 0, again = 0;
  var latest = 0, other = 0, inFlight = 0, retries = 0, opened = "", held = null;
  var drawnAt = -1; // the version of the view the stream last brought, while the page shows it
  var named = ""; // this page's stream's name (its ready event)

  function shown() {
    var el = doc.querySelector("[data-version]");
    return el ? +el.getAttribute("data-version") : NaN;
  }

  // The view this page shows (?as= of its stream: the server pushes it, rendered).
  function view() {
    var el = doc.querySelector("[data-live][data-as]");
    return el ? el.getAttribute("data-as") : "";
  }

  // A view pushed in the stream: swapped in as htmx swaps an answer (its out-of-band parts
  // too), the fields being typed kept (static/typing.js), when newer than the page's; held
  // while a tap is in flight (swapped after its answer if still newer). A page in a state of
  // its own (a first die tapped, an open confirmation: [data-own]) asks with it instead.
  function pushed(html, version, again) {
    var now = shown();
    if (!(version > now || (again && version >= now) || now !== now)) return;
    drawnAt = -1; // unless swapped below
    if (tapInFlight()) { held = [html, version, again]; return; }
    if (doc.querySelector("[data-live][data-own], #pad-d1")) return told(version);
    // A view pushed for the screen this page has just left (the Banker went from Table to
    // History while it was on its way) is not this page's: it asks for its own instead.
    var as = /data-live[^>]*?data-as="([^"]*)"/.exec(html);
    if (as && as[1] !== view()) return told(version);
    var id = /^\s*<[^>]*?\sid="([^"]+)"/.exec(html), target = id && doc.getElementById(id[1]);
    if (!target || !window.htmx) return told(version);
    latest = Math.max(latest, version);
    var e = new CustomEvent("banker:beforePush", { detail: { html: html } });
    doc.dispatchEvent(e);
    htmx.swap(target, e.detail.html, { swapStyle: "outerHTML", swapDelay: 0, settleDelay: 0 });
    drawnAt = version;
    doc.documentElement.setAttribute("data-pushed", "whole");
  }

  // The parts swapped by their ids as htmx swaps out-of-band elements (hx-swap-oob "true":
  // the element, "innerHTML": its content; an element of a chart read as SVG, which htmx does
  // not do), its fields marked hx-preserve (typing.js) moved in live, the new elements htmx
  // acts on set up by it; without htmx's swap around it (its events, settling, history: three
  // to eight times the time for what a change brings, measured in Chromium).
  // False, nothing done, when a part has no element of its id here: htmx's swap then does it.
  var ACTIVE = "[hx-get],[hx-post],[hx-put],[hx-patch],[hx-delete],[hx-trigger],[hx-boost]," +
               "a[href],form";
  var SVG = "http://www.w3.org/2000/svg";
  function swapParts(html) {
    var t = doc.createElement("template");
    t.innerHTML = html;
    var els = Array.prototype.slice.call(t.content.children), targets = [];
    for (var i = 0; i < els.length; i++) {
      targets.push(els[i].id && doc.getElementById(els[i].id));
      if (!targets[i] || !has(els[i], "hx-swap-oob")) return false;
      if (targets[i].namespaceURI === SVG && els[i].namespaceURI !== SVG) { // a chart's line
        var w = doc.createElement("template");
        w.innerHTML = "<svg>" + els[i].outerHTML + "</svg>"; // read as SVG, not as HTML
        els[i] = w.content.firstChild.firstElementChild;
      }
    }
    var a = doc.activeElement, start = null, end = null;
    try { start = a.selectionStart; end = a.selectionEnd; } catch (err) { /* not a text field */ }
    els.forEach(function (el, i) {
      var target = targets[i], inner = el.getAttribute("hx-swap-oob") === "innerHTML";
      if (has(el, "hx-preserve")) return; // the part itself is kept as it is
      el.removeAttribute("hx-swap-oob");
      var live = [];
      el.querySelectorAll("[hx-preserve][id]").forEach(function (p) {
        var found = doc.getElementById(p.id);
        if (found) live.push([p, found]);
      });
      var olds = inner ? Array.prototype.slice.call(target.childNodes) : [target];
      var added = inner ? Array.prototype.slice.call(el.childNodes) : [el];
      added.forEach(function (n) {
        if (inner) target.insertBefore(n, olds[0] || null);
        else target.parentNode.insertBefore(n, target);
      });
      live.forEach(function (pair) { // the live field where its copy was drawn
        var p = pair[0], f = pair[1];
        if (p.parentNode.moveBefore) p.parentNode.moveBefore(f, p); else p.parentNode.insertBefore(f, p);
        p.remove();
      });
      olds.forEach(function (o) { o.remove(); });
      added.forEach(function (n) { // htmx sets up what it acts on (a figure is left alone)
        if (n.nodeType === 1 && (n.matches(ACTIVE) || n.querySelector(ACTIVE))) htmx.process(n);
      });
    });
    if (a && a !== doc.activeElement && a.isConnected) { // moved without moveBefore
      a.focus();
      try { if (start != null) a.setSelectionRange(start, end); } catch (err) { /* no caret */ }
    }
    return true;
  }

  // The parts of the view that changed since the one the stream last brought (banker/net/
  // parts.py), swapped by their ids, when this page still shows that view as it came (no answer
  // of its own swapped since) and nothing holds it back: then the page brings the version up to
  // date where it keeps it (the parts carry none of it). Otherwise the whole view, which follows
  // in the stream, is swapped (or held) as before.
  function parts(data, version) {
    var nl = data.indexOf("\n"), was = +data.slice(0, nl), html = data.slice(nl + 1);
    if (drawnAt !== was || shown() !== was || !(version > was)) return;
    if (tapInFlight() || doc.querySelector("[data-live][data-own], #pad-d1")) return;
    if (!window.htmx) return;
    latest = Math.max(latest, version);
    if (html) {
      var e = new CustomEvent("banker:beforePush", { detail: { html: html } });
      doc.dispatchEvent(e);
      if (!swapParts(e.detail.html)) {
        htmx.swap(doc.body, e.detail.html, { swapStyle: "none", swapDelay: 0, settleDelay: 0 });
      }
      news();
    }
    doc.querySelectorAll('[data-version="' + was + '"]').forEach(function (el) {
      el.setAttribute("data-version", version);
    });
    doc.querySelectorAll('input[name=expected_version][value="' + was + '"], ' +
                         'input[name=seen][value="' + was + '"]').forEach(function (el) {
      el.setAttribute("value", version);
      el.value = version;
    });
    var v = new RegExp("([?&]v=)" + was + "(?![0-9A-Za-z])");
    doc.querySelectorAll('[hx-get*="v=' + was + '"]').forEach(function (el) {
      el.setAttribute("hx-get", el.getAttribute("hx-get").replace(v, "$1" + version));
    });
    drawnAt = version;
    doc.documentElement.setAttribute("data-pushed", "parts");
  }
  // The money of a change, sent before its view is rendered (banker/web/common/pushed.py's
  // figures): each element of an id given takes its new text at once, when newer than the
  // page's view and no tap of its own is in flight. The view follows and is swapped as ever.
  function figures(data) {
    var lines = data.split("\n"), version = +lines[0];
    if (!(version > shown()) || tapInFlight()) return;
    for (var i = 1; i < lines.length; i++) {
      var at = lines[i].indexOf(" "), el = doc.getElementById(lines[i].slice(0, at));
      var text = lines[i].slice(at + 1);
      if (el && el.textContent !== text) el.textContent = text;
    }
  }
  // A live part's request asks with its link as the page now has it (htmx keeps the one it
  // first read; parts() brings the version in it up to date).
  doc.addEventListener("htmx:configRequest", function (e) {
    var elt = e.detail.elt, link = elt && elt.getAttribute && elt.getAttribute("hx-get");
    if (link && e.detail.verb === "get" && (has(elt, "data-version") || has(elt, "data-live"))) {
      e.detail.path = link;
    }
    if (named && e.detail.verb !== "get") e.detail.headers["X-Banker-Stream"] = named;
  });
  // Anything else swapped in (a tap's answer, a refresh asked for) makes the page's view its
  // own: the next change comes whole.
  doc.addEventListener("htmx:afterSwap", function (e) {
    if (e.detail && e.detail.xhr) drawnAt = -1;
  });
  function release() {
    var h = held;
    held = null;
    if (h && !tapInFlight()) pushed(h[0], h[1], h[2]);
    else if (h) held = h;
  }
  if (!meta) return;

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
      if (!has(el, "hx-get")) parts.push(el);
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

  function check() {
    if (!inFlight && (other || shown() < latest) && retries++ < 5) update();
  }
  doc.addEventListener("htmx:beforeSend", function (e) {
    if (!has(e.detail.elt, "data-live")) return;
    inFlight++;
    other = 0;
    e.detail.xhr.addEventListener("loadend", function () {
      inFlight--;
      setTimeout(check, 50);
    });
  });
  doc.addEventListener("htmx:afterSettle", function () {
    setTimeout(check, 50);
    if (es && view() !== opened) open(); // the Banker moved to another screen: its view
  });

  function close() {
    clearTimeout(timer);
    named = "";
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
    var v = shown(), as = opened = view();
    var s = new EventSource(base + "?v=" + (v >= 0 ? v : "") +
                            (as ? "&as=" + encodeURIComponent(as) : ""));
    es = s;
    timer = setTimeout(function () { if (es === s) poll(); }, 5000);
    s.addEventListener("ready", function (e) {
      var said = e.data.split("\n");
      clearTimeout(timer);
      doc.documentElement.setAttribute("data-push", "push");
      latest = Math.max(latest, +said[0] || 0);
      named = said[1] || ""; // this page's taps name its stream: their answer is its view
    });
    s.onmessage = function (e) { told(+e.data); };
    s.addEventListener("figures", function (e) { figures(e.data); });
    s.addEventListener("parts", function (e) { parts(e.data, +e.lastEventId); });
    s.addEventListener("swap", function (e) { pushed(e.data, +e.lastEventId, 0); });
    s.addEventListener("follow", function (e) { pushed(e.data, +e.lastEventId, 1); });
    ["following", "changed"].forEach(function (k) {
      s.addEventListener(k, function () { told(0, 1); });
    });
    s.addEventListener("gone", function () { close(); told(0, 1); });
    s.onerror = function () { if (s.readyState === 2 && es === s) { told(0, 1); poll(); } };
  }

  doc.addEventListener("visibilitychange", function () {
    if (doc.visibilityState === "visible") open();
  });
  addEventListener("online", open);
  addEventListener("offline", close); // its stream is gone with the network: back, it catches up
  addEventListener("pageshow", function (e) { if (e.persisted) open(); });
  open();
})();
