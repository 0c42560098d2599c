// A quick double tap applies once. While the first tap's answer is on its way, hx-sync drops
// the second tap. This drops one that lands just after the answer came back, when the new
// screen has put another control under the finger (the next player's "First die", a card, a
// bid): nobody reads a new screen and taps it within 0.3 s.
(function () {
  "use strict";
  var GAP_MS = 300;
  var swapped = 0;
  document.addEventListener("htmx:afterSwap", function (event) {
    var config = event.detail && event.detail.requestConfig;
    if (config && config.verb === "post") swapped = Date.now();
  });
  document.addEventListener("click", function (event) {
    if (Date.now() - swapped >= GAP_MS) return;
    var control = event.target.closest && event.target.closest("#screen button, #screen a");
    if (!control) return;
    event.preventDefault();
    event.stopImmediatePropagation();
  }, true);
})();
