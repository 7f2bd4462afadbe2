/* The prize-giving on the projector (templates/tournament/projector/reveal.html): every place is in the
   page, hidden; the step shown is the evening's, stored on the server, so every screen showing this page
   follows it: the page asks for the step every two seconds. On an organizer's screen (the page carries
   the step form) a click, Space, Enter, → or Page Down (what a presenter's clicker sends) moves every
   screen to the next step, ← or Page Up to the one before; elsewhere keys do nothing. No inline script
   under the CSP. */
(function () {
  "use strict";
  var POLL_MS = 2000;

  function start() {
    var stage = document.querySelector("[data-reveal]");
    if (!stage) { return; }
    var steps = Array.prototype.slice.call(stage.querySelectorAll("[data-step]"));
    var count = stage.querySelector("[data-reveal-count]");
    var form = stage.querySelector("[data-reveal-form]");
    var current = parseInt(stage.dataset.current || "0", 10) || 0;
    var sent = 0;  // requests of this screen not answered yet: the poll does not undo a press meanwhile
    var presses = 0;  // a poll asked before the latest press answers with the step before it: ignored

    function show(index) {
      current = Math.max(0, Math.min(steps.length - 1, index));
      steps.forEach(function (step, i) { step.hidden = i !== current; });
      stage.dataset.current = String(current);
      if (count) { count.textContent = (current + 1) + " / " + steps.length; }
    }

    function move(index) {
      if (!form) { return; }
      var target = Math.max(0, Math.min(steps.length - 1, index));
      if (target === current) { return; }
      show(target);
      form.elements.step.value = String(target);
      sent += 1;
      presses += 1;
      fetch(form.action, {
        method: "POST", body: new FormData(form), credentials: "same-origin",
        headers: { "HX-Request": "true" }
      }).then(function (answer) {
        return answer.ok ? answer.json() : null;
      }).catch(function () { return null; /* the next poll shows the server's step */ })
        .then(function (state) {
          sent -= 1;
          // Only the answer to the last press counts: earlier ones would step back meanwhile.
          if (sent === 0 && state && typeof state.step === "number") { show(state.step); }
        });
    }

    function poll() {
      if (sent > 0 || !stage.dataset.stateUrl) { return; }
      var asked = presses;
      fetch(stage.dataset.stateUrl, { credentials: "same-origin", cache: "no-store" })
        .then(function (answer) { return answer.ok ? answer.json() : null; })
        .then(function (state) {
          if (state && typeof state.step === "number" && sent === 0 && asked === presses &&
              state.step !== current) {
            show(state.step);
          }
        }).catch(function () { /* offline for a moment: keep the step shown */ });
    }

    stage.addEventListener("click", function () { move(current + 1); });
    document.addEventListener("keydown", function (event) {
      if (!form || event.altKey || event.ctrlKey || event.metaKey) { return; }
      if ([" ", "Enter", "ArrowRight", "PageDown"].indexOf(event.key) >= 0) {
        event.preventDefault();
        move(current + 1);
      } else if (["ArrowLeft", "PageUp", "Backspace"].indexOf(event.key) >= 0) {
        event.preventDefault();
        move(current - 1);
      }
    });
    show(current);
    stage.focus();
    window.setInterval(poll, POLL_MS);
  }
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
