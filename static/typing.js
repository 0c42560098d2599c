// Nothing typed is lost to a redraw. Before htmx swaps new HTML in (a live update: polled, or
// pushed in the stream and swapped by static/refresh.js; the answer to another form; a summary
// redrawn while one types), every field someone is typing in (the focused one, or one whose
// value differs from what the page drew) is kept as it is: its counterpart in the new HTML (the
// element of the same id) is marked hx-preserve, so htmx moves the live field, with its value,
// caret and focus, into the new page instead of the one drawn. An open <details> (Corrections,
// More, a deed on the board) stays open likewise. The fields of the form whose answer this is
// are left to that answer: empty once it was accepted (a bid typed is never added to the next
// one), drawn again as typed when refused (the server draws a refused form's fields again,
// marked data-typed: banker/web/common/kept.py).
(function () {
  "use strict";
  var FIELDS = "input[id], select[id], textarea[id]";

  function changed(el) {
    if (el.hasAttribute("data-typed")) return true;
    if (el.type === "checkbox" || el.type === "radio") return el.checked !== el.defaultChecked;
    if (el.tagName === "SELECT") {
      for (var i = 0; i < el.options.length; i++) {
        if (el.options[i].selected !== el.options[i].defaultSelected) return true;
      }
      return false;
    }
    return el.value !== el.defaultValue;
  }

  function beingTyped(except) {
    var ids = [];
    document.querySelectorAll(FIELDS).forEach(function (el) {
      if (el.type === "hidden" || el.type === "submit" || el.type === "button") return;
      if (except && except.contains(el)) return;
      if (el === document.activeElement || changed(el)) ids.push(el.id);
    });
    return ids;
  }

  function answeredForm(detail) {
    var config = detail.requestConfig || {};
    if (!config.verb || config.verb === "get") return null; // a redraw or a live update
    var elt = config.elt || detail.elt;
    return elt && elt.closest ? elt.closest("form") : null;
  }

  function attr(id) {
    return ' id="' + id + '"'; // ids are plain words (deed ids, player ids, prefixes)
  }

  function escaped(text) {
    return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  }

  function keep(html, ids, open) {
    ids.forEach(function (id) {
      html = html.split(attr(id)).join(' hx-preserve="true"' + attr(id));
    });
    open.forEach(function (id) {
      var tag = new RegExp("<details\\b([^>]*?)" + escaped(attr(id)));
      html = html.replace(tag, "<details open$1" + attr(id));
    });
    return html;
  }

  function kept(html, except) {
    var ids = beingTyped(except);
    var open = [];
    document.querySelectorAll("details[id][open]").forEach(function (el) { open.push(el.id); });
    return ids.length || open.length ? keep(html, ids, open) : html;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var detail = event.detail;
    if (!detail.shouldSwap || typeof detail.serverResponse !== "string") return;
    detail.serverResponse = kept(detail.serverResponse, answeredForm(detail));
  });
  // A view pushed by the server (static/refresh.js), about to be swapped in: a live update.
  document.addEventListener("banker:beforePush", function (event) {
    event.detail.html = kept(event.detail.html, null);
  });
})();
