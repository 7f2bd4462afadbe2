/* The table captain's page: card picker, running totals, and nothing typed ever lost.
 *
 * Progressive enhancement only: without this script the form is a plain POST that works.
 * Everything typed is kept in localStorage (keyed by the table's link) until the server lists the
 * report's idempotency key as stored; a dropped connection only shows a note, the form stays.
 * The server validates everything; even the running totals are read by the server (engine.notation).
 */
(function () {
  "use strict";

  function jsonData(id) {
    var el = document.getElementById(id);
    return el ? JSON.parse(el.textContent) : null;
  }

  var deck = jsonData("captain-deck") || { colours: [], ranks: [] };
  var black = {};
  deck.ranks.forEach(function (rank) { black[rank.code] = rank.black; });

  /* --- one player's hand: chips and total, read by the server ------------------------------
     The server reads the notation (engine.notation) and answers with the chips and the total, so
     the phone never has a grammar of its own that could disagree. Without a connection the
     summary simply stays as it was; the report itself is checked when sent. */

  var DEBOUNCE_MS = 250;

  function renderHand(player) {
    var input = player.querySelector(".cards-input");
    var summary = player.querySelector(".hand-summary");
    if (!input || !summary) { return; }
    var text = input.value;
    if (!text.trim()) { summary.hidden = true; summary.textContent = ""; return; }
    var asked = text;
    fetch(summary.dataset.url + "?cards=" + encodeURIComponent(text), { credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null || input.value !== asked) { return; }  // a newer keystroke is on its way
        summary.innerHTML = html;
        summary.hidden = false;
      })
      .catch(function () { /* offline: the total waits, the typed cards stay */ });
  }

  function scheduleHand(player) {
    clearTimeout(player.handTimer);
    player.handTimer = setTimeout(function () { renderHand(player); }, DEBOUNCE_MS);
  }

  function setCards(player, text) {
    var input = player.querySelector(".cards-input");
    input.value = text;
    input.dispatchEvent(new Event("input", { bubbles: true }));
  }

  function activate(page, player) {
    page.querySelectorAll(".player").forEach(function (other) {
      var on = other === player;
      other.classList.toggle("is-active", on);
      var picker = other.querySelector(".picker");
      if (picker) { picker.hidden = !on; }
    });
  }

  /* A group of picker buttons is one Tab stop (a roving tabindex): the arrow keys, Home and End move
     inside it, so a keyboard reaches "send" in a few Tabs rather than twenty per player. */
  function setupRoving(group) {
    var buttons = Array.prototype.slice.call(group.querySelectorAll("button"));
    if (!buttons.length) { return; }
    function current(button) {
      buttons.forEach(function (other) { other.tabIndex = other === button ? 0 : -1; });
    }
    current(buttons[0]);
    group.addEventListener("focusin", function (event) {
      if (buttons.indexOf(event.target) >= 0) { current(event.target); }
    });
    group.addEventListener("keydown", function (event) {
      var index = buttons.indexOf(document.activeElement);
      if (index < 0 || event.altKey || event.ctrlKey || event.metaKey) { return; }
      var next = null;
      if (event.key === "ArrowRight" || event.key === "ArrowDown") {
        next = (index + 1) % buttons.length;
      } else if (event.key === "ArrowLeft" || event.key === "ArrowUp") {
        next = (index - 1 + buttons.length) % buttons.length;
      } else if (event.key === "Home") {
        next = 0;
      } else if (event.key === "End") {
        next = buttons.length - 1;
      }
      if (next === null) { return; }
      event.preventDefault();
      current(buttons[next]);
      buttons[next].focus();
    });
  }

  function setupPlayer(page, player) {
    var input = player.querySelector(".cards-input");
    if (!input) { return; }
    player.querySelectorAll(".picker [role=group]").forEach(setupRoving);
    var chosenColour = null;  // the colour key pressed: its code, and its letter in the page's language
    var chosenLetter = "";
    // Only the cards field opens the picker: a tap on "Only points and number of cards" or on
    // "went out" must not open it (the page would shift under the finger and the tap land on the
    // colour row).
    player.addEventListener("focusin", function (event) {
      if (event.target.closest(".hand")) { activate(page, player); }
    });
    player.addEventListener("click", function (event) {
      if (event.target.closest(".hand") && !event.target.closest(".picker")) { activate(page, player); }
    });
    player.querySelectorAll(".pick.colour").forEach(function (button) {
      button.addEventListener("click", function () {
        chosenColour = chosenColour === button.dataset.colour ? null : button.dataset.colour;
        chosenLetter = chosenColour ? (button.dataset.letter || chosenColour) : "";
        player.querySelectorAll(".pick.colour").forEach(function (other) {
          other.setAttribute("aria-pressed", String(other.dataset.colour === chosenColour));
        });
      });
    });
    player.querySelectorAll(".pick.rank").forEach(function (button) {
      button.addEventListener("click", function () {
        var rank = button.dataset.rank;
        // Written as the page's language writes it (engine.notation, sent by the server as data-short):
        // "GeStop" on a German page, "YS" in English.
        var token = (black[rank] ? "" : chosenLetter) + (button.dataset.short || rank);
        var current = input.value.trim();
        setCards(player, current ? current + " " + token : token);
        chosenColour = null;
        chosenLetter = "";
        player.querySelectorAll(".pick.colour").forEach(function (other) { other.setAttribute("aria-pressed", "false"); });
      });
    });
    var undo = player.querySelector("[data-undo]");
    if (undo) {
      undo.addEventListener("click", function () {
        setCards(player, input.value.trim().split(/[\s,;]+/).slice(0, -1).join(" "));
      });
    }
    input.addEventListener("input", function () { scheduleHand(player); });
    player.querySelector(".hand-summary").addEventListener("click", function (event) {
      var chip = event.target.closest(".chip");
      if (chip) { setCards(player, chip.dataset.without); }
    });
    renderHand(player);
  }

  function markOut(page) {
    var form = page.querySelector("form.report-form");
    if (!form) { return; }
    var checked = form.querySelector("input[name=outcome]:checked");
    page.querySelectorAll(".player").forEach(function (player) {
      var radio = player.querySelector("input[name=outcome]");
      player.classList.toggle("is-out", !!(checked && radio && radio === checked));
    });
  }

  /* --- keeping what was typed --------------------------------------------------------------- */

  function storage() {
    try { return window.localStorage; } catch (e) { return null; }
  }

  function snapshot(form) {
    var fields = {};
    form.querySelectorAll("input").forEach(function (input) {
      if (!input.name || input.name === "csrfmiddlewaretoken") { return; }
      if (input.type === "radio" || input.type === "checkbox") {
        if (input.checked) { fields[input.name] = input.value; }
      } else if (input.type !== "hidden" || input.name === "idempotency_key") {
        fields[input.name] = input.value;
      }
    });
    return { fields: fields, savedAt: Date.now() };
  }

  function differs(form, saved) {
    var now = snapshot(form).fields;
    return Object.keys(saved.fields).some(function (name) { return (now[name] || "") !== saved.fields[name]; });
  }

  function restore(form, saved) {
    form.querySelectorAll("input").forEach(function (input) {
      if (!input.name || input.name === "csrfmiddlewaretoken") { return; }
      var value = saved.fields[input.name];
      if (input.type === "radio" || input.type === "checkbox") {
        input.checked = value !== undefined && value === input.value;
      } else if (value !== undefined) {
        input.value = value;
      }
    });
  }

  function setupStore(page) {
    var store = storage();
    var key = page.dataset.storeKey;
    if (!store || !key) { return; }
    var storedKeys = (page.dataset.storedKeys || "").split(" ").filter(Boolean);
    var saved = null;
    try { saved = JSON.parse(store.getItem(key) || "null"); } catch (e) { saved = null; }
    if (saved && (!saved.fields || storedKeys.indexOf(saved.fields.idempotency_key) !== -1)) {
      store.removeItem(key);  // the server has it: the report is safe
      saved = null;
    }
    var form = page.querySelector("form.report-form");
    if (!page.hasAttribute("data-editable") || !form) {
      if (!page.hasAttribute("data-editable")) { store.removeItem(key); }
      return;
    }
    if (saved && differs(form, saved)) {
      restore(form, saved);
      var details = form.closest("details");
      if (details) { details.open = true; }
      var note = page.querySelector(".restored-note");
      if (note) { note.hidden = false; }
    }
    var save = function () {
      try { store.setItem(key, JSON.stringify(snapshot(form))); } catch (e) { /* storage full: the form still works */ }
    };
    form.addEventListener("input", save);
    form.addEventListener("change", function () { save(); markOut(page); });
    form.addEventListener("submit", save);
  }

  /* --- start ------------------------------------------------------------------------------ */

  function init() {
    var page = document.getElementById("captain-page");
    if (!page || page.dataset.ready) { return; }
    page.dataset.ready = "1";
    setupStore(page);
    page.querySelectorAll(".player").forEach(function (player) { setupPlayer(page, player); });
    markOut(page);
    // A page-level error (a refused report, one naming no single player): move the focus there, so
    // it is read out and seen at once, wherever the captain had scrolled to.
    var alert = page.querySelector("[data-page-alert]");
    if (alert) {
      alert.scrollIntoView({ block: "start" });
      alert.focus({ preventScroll: true });
    }
  }

  document.addEventListener("DOMContentLoaded", init);
  document.addEventListener("htmx:load", init);
  document.addEventListener("htmx:sendError", function () {
    var note = document.querySelector("#captain-page .offline-note");
    if (note) { note.hidden = false; note.scrollIntoView({ block: "center" }); }
  });
  document.addEventListener("htmx:beforeRequest", function () {
    var note = document.querySelector("#captain-page .offline-note");
    if (note) { note.hidden = true; }
  });
  document.addEventListener("htmx:beforeSwap", function (event) {
    // Refusals (closed round, not open yet, busy server; a second player's wrong start number or too
    // many of them) come as a full page state: show them.
    var status = event.detail.xhr.status;
    if (event.detail.target && event.detail.target.id === "captain-page" && [400, 403, 409, 429, 503].indexOf(status) !== -1) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
})();
