/* Small behaviours of the organizer's pages, here instead of inline handlers (the Content-Security-Policy
   allows scripts from the app's static files only; tournament/security_headers.py). */
(function () {
  "use strict";

  // <form data-confirm="Question?">: ask before submitting.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (form instanceof HTMLFormElement && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  });

  // <select data-autosubmit>: submit its form when the choice changes.
  document.addEventListener("change", function (event) {
    var field = event.target;
    if (field instanceof HTMLSelectElement && field.hasAttribute("data-autosubmit") && field.form) {
      field.form.requestSubmit ? field.form.requestSubmit() : field.form.submit();
    }
  });

  // An answer that says `HX-Trigger: {"open-pdf": {"url": …}}` (the turnaround's "print table sheets"):
  // the PDF opens in a new tab, ready to print, like every PDF link of the app.
  document.addEventListener("open-pdf", function (event) {
    var url = event.detail && event.detail.url;
    if (url) { window.open(url, "_blank", "noopener"); }
  });

  // <input class="link-url" readonly>: a click selects the whole link for copying.
  document.addEventListener("click", function (event) {
    var field = event.target;
    if (field instanceof HTMLInputElement && field.classList.contains("link-url")) {
      field.select();
    }
  });

  // <button data-copy="<id of an input>">: the input's text to the clipboard, and a word in the status
  // beside it (the Clipboard API only exists on https or localhost; in the hall's own network the
  // older copy command, else the text is selected for Ctrl+C).
  document.addEventListener("click", function (event) {
    var button = event.target instanceof Element ? event.target.closest("[data-copy]") : null;
    if (!button) { return; }
    var field = document.getElementById(button.dataset.copy);
    var status = document.getElementById(button.id + "-status");
    if (!field) { return; }
    var say = function (text) { if (status) { status.textContent = text; } };
    var fallback = function () {
      field.focus();
      field.select();
      var done = false;
      try { done = document.execCommand("copy"); } catch (error) { done = false; }
      say(done ? button.dataset.copied : button.dataset.copyFailed);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(field.value).then(function () { say(button.dataset.copied); }, fallback);
    } else {
      fallback();
    }
  });

  // An htmx form with data-focus-after-swap="<id>": after its answer is swapped in, focus that field.
  document.addEventListener("htmx:afterSwap", function (event) {
    var config = event.detail && event.detail.requestConfig;
    var source = config && config.elt;
    var id = source && source.dataset && source.dataset.focusAfterSwap;
    if (id) {
      var field = document.getElementById(id);
      if (field) { field.focus(); }
    }
  });

  // The admission desk (templates/tournament/organizer/desk.html), keyboard first: the arrow keys move
  // between the search box and each line's first action; Enter in the search box does the only line's
  // first action, or goes to the first line; after an action's answer is swapped in, the search box
  // has the focus with its text selected, so the next name simply replaces it.
  // Enter acts on the list for what the box holds: typed faster than the list follows (the box asks
  // after a short pause), it waits for that list. Each tap also sends what the box holds (`typed`),
  // and the server refuses a line listed for an earlier search.
  var pendingEnter = false;
  function deskButtons() {
    return Array.prototype.slice.call(document.querySelectorAll("#desk-list [data-desk-primary]"));
  }
  function deskSearch() {
    return document.querySelector("[data-desk-search]");
  }
  function deskIsCurrent() {
    var desk = document.getElementById("desk");
    var search = deskSearch();
    return !!(desk && search) && desk.getAttribute("data-desk-query") === search.value;
  }
  function deskEnter() {
    var buttons = deskButtons();
    if (buttons.length === 1) { buttons[0].click(); } else if (buttons.length) { buttons[0].focus(); }
  }
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (!(target instanceof HTMLElement)) { return; }
    var inSearch = target.hasAttribute("data-desk-search");
    if (!inSearch && !target.hasAttribute("data-desk-primary")) { return; }
    var buttons = deskButtons();
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      var index = inSearch ? -1 : buttons.indexOf(target);
      var next = index + (event.key === "ArrowDown" ? 1 : -1);
      event.preventDefault();
      if (next < 0) {
        var search = deskSearch();
        if (search) { search.focus(); }
      } else if (buttons.length) {
        buttons[Math.min(next, buttons.length - 1)].focus();
      }
    } else if (event.key === "Enter" && inSearch) {
      event.preventDefault();
      if (deskIsCurrent()) {
        pendingEnter = false;
        deskEnter();
      } else {
        // The list still shows an earlier search; the box's own search is on its way: act on its list.
        pendingEnter = true;
      }
    }
  });
  // On a phone the keyboard covers the lower half of the screen: the search box goes to the top when
  // it gets the focus, so its first results stand right under it, above the keyboard.
  var PHONE = window.matchMedia("(max-width: 640px)");
  function deskSearchToTop() {
    var search = deskSearch();
    if (search && PHONE.matches && document.activeElement === search) {
      search.scrollIntoView({ block: "start" });
    }
  }
  document.addEventListener("focusin", function (event) {
    if (event.target instanceof HTMLElement && event.target.hasAttribute("data-desk-search")) { deskSearchToTop(); }
  });
  document.addEventListener("DOMContentLoaded", deskSearchToTop);
  document.addEventListener("htmx:configRequest", function (event) {
    var source = event.detail && event.detail.elt;
    var search = deskSearch();
    if (search && source instanceof HTMLElement && source.closest("#desk-list")) {
      event.detail.parameters.typed = search.value;
    }
  });
  document.addEventListener("htmx:afterSwap", function (event) {
    var config = event.detail && event.detail.requestConfig;
    if (!config) { return; }
    if (config.verb === "get" && pendingEnter && deskIsCurrent()) {
      pendingEnter = false;
      deskEnter();
      return;
    }
    if (config.verb !== "post") { return; }
    var search = deskSearch();
    if (search) { search.focus(); search.select(); }
  });
})();
