// A quick double tap applies once. While the first tap's answer is on its way, hx-sync already
// drops the second tap. This drops one that lands just after the answer came back, on the spot
// the first tap hit, where the new screen has put another control (the next player's "First
// die", a card, a bid): nobody reads a new screen and taps the very same place within 0.3 s.
(function () {
  "use strict";
  var GAP_MS = 300;
  var NEAR_PX = 30;
  var swapped = 0;
  var last = null; // where and when the latest accepted tap landed
  document.addEventListener("htmx:afterSwap", function (event) {
    var config = event.detail && event.detail.requestConfig;
    if (config && config.verb === "post") swapped = Date.now();
  });
  document.addEventListener("click", function (event) {
    var control = event.target.closest && event.target.closest("#screen button, #screen a");
    if (!control) return;
    var now = Date.now();
    var near = last && Math.abs(event.clientX - last.x) < NEAR_PX &&
      Math.abs(event.clientY - last.y) < NEAR_PX;
    if (near && now - swapped < GAP_MS && swapped > last.t) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    last = { x: event.clientX, y: event.clientY, t: now };
  }, true);
})();
