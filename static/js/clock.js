/* Round clock: counts down locally from the seconds the server sent with the page or fragment.
   It never asks the server every second; pages that refresh (projector, htmx) bring a fresh value.
   Whether time is up is decided by the server: this only shows it and announces "clock:expired" so
   an htmx element can fetch the server's view at that moment. */
(function () {
  "use strict";
  if (window.unoClock) { return; }
  window.unoClock = true;

  function format(seconds) {
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    var mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(s).padStart(2, "0");
  }

  function update(el) {
    if (el.dataset.status !== "running") { return; }
    if (el.unoClockStart === undefined) {
      el.unoClockStart = performance.now();
      el.unoClockFrom = parseInt(el.dataset.remaining, 10) || 0;
    }
    var left = Math.max(0, Math.ceil(el.unoClockFrom - (performance.now() - el.unoClockStart) / 1000));
    var time = el.querySelector("[data-clock-time]");
    if (time) { time.textContent = format(left); }
    el.classList.toggle("last-minute", left > 0 && left <= 60);
    if (left === 0) {
      el.dataset.status = "expired";
      el.classList.remove("running");
      el.classList.add("expired");
      var label = el.querySelector("[data-clock-label]");
      if (label && el.dataset.expiredLabel) { label.textContent = el.dataset.expiredLabel; }
      el.dispatchEvent(new CustomEvent("clock:expired", { bubbles: true }));
    }
  }

  function tick() {
    document.querySelectorAll("[data-clock]").forEach(update);
  }

  document.addEventListener("DOMContentLoaded", tick);
  document.addEventListener("htmx:load", tick);
  setInterval(tick, 250);
})();
