// The dice pad: the second tap of a quick double tap on a die is ignored, so that it cannot
// land on the next pad's first die once the roll's answer has come back. (While the answer is
// still on its way, hx-sync already drops it.) A Banker's two deliberate taps, first die then
// second, are further apart than this.
(function () {
  "use strict";
  var GAP_MS = 300;
  var last = 0;
  document.addEventListener("click", function (event) {
    var die = event.target.closest && event.target.closest("button.die");
    if (!die) return;
    var now = Date.now();
    if (now - last < GAP_MS) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    last = now;
  }, true);
})();
