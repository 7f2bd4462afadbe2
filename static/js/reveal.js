/* The prize-giving on the projector (templates/tournament/projector/reveal.html): every place is in the
   page, hidden; a click, Space, Enter, → or Page Down (what a presenter's clicker sends) shows the next
   step, ← or Page Up the one before. No inline script under the CSP. */
(function () {
  "use strict";
  function start() {
    var stage = document.querySelector("[data-reveal]");
    if (!stage) { return; }
    var steps = Array.prototype.slice.call(stage.querySelectorAll("[data-step]"));
    var count = stage.querySelector("[data-reveal-count]");
    var current = 0;

    function show(index) {
      current = Math.max(0, Math.min(steps.length - 1, index));
      steps.forEach(function (step, i) { step.hidden = i !== current; });
      stage.dataset.current = String(current);
      if (count) { count.textContent = (current + 1) + " / " + steps.length; }
    }

    stage.addEventListener("click", function () { show(current + 1); });
    document.addEventListener("keydown", function (event) {
      if (event.altKey || event.ctrlKey || event.metaKey) { return; }
      if ([" ", "Enter", "ArrowRight", "PageDown"].indexOf(event.key) >= 0) {
        event.preventDefault();
        show(current + 1);
      } else if (["ArrowLeft", "PageUp", "Backspace"].indexOf(event.key) >= 0) {
        event.preventDefault();
        show(current - 1);
      }
    });
    show(0);
    stage.focus();
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
