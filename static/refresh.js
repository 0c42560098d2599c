// A tap always wins over a live refresh, and nothing is aborted. A refresh (an element marked
// data-refresh: the 700 ms poll of the Banker's screen and of a player's page, the trade form's
// redraw) is not sent while a tap's request is in flight, and its answer is thrown away,
// unswapped, when a tap was sent after it. Aborting the refresh instead (hx-sync "abort" /
// "replace") made htmx log console errors (htmx:sendAbort, htmx:afterRequest). Taps still drop
// a second tap while their own is in flight (hx-sync "drop").
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
