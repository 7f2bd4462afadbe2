/* The table captain's page: card picker, running totals, and nothing typed ever lost.
 *
 * Progressive enhancement only: without this script the form is a plain POST that works.
 * Everything typed is kept in localStorage (keyed by the table's link) until the server lists the
 * report's idempotency key as stored; a dropped connection only shows a note, the form stays.
 * The server validates everything; the totals here are a convenience, never a rule.
 */
(function () {
  "use strict";

  function jsonData(id) {
    var el = document.getElementById(id);
    return el ? JSON.parse(el.textContent) : null;
  }

  var deck = jsonData("captain-deck") || { colours: [], ranks: [], names: { ranks: {}, colours: {}, phrases: [] } };
  /* The card names come from the server's notation (engine.notation.name_tables), never a copy. */
  var RANKS = deck.names.ranks;
  var COLOURS = deck.names.colours;
  var PHRASES = deck.names.phrases;
  var texts = jsonData("captain-texts") || {};
  var values = {};
  var black = {};
  deck.ranks.forEach(function (rank) {
    values[rank.code] = rank.value;
    black[rank.code] = rank.black;
  });

  function normalise(word) {
    return word.toLowerCase().replace(/ä/g, "ae").replace(/ö/g, "oe").replace(/ü/g, "ue").replace(/ß/g, "ss");
  }

  /* Words of a hand; a multi-word name ("zieh 2", "wild draw four") becomes one word, but only
     within a run of spaces, as on the server: "W, 4" stays a Wild and a four. */
  function splitWords(text) {
    var result = [];
    normalise(text).split(/[,;]+/).forEach(function (part) {
      var parts = part.split(/\s+/).filter(Boolean);
      for (var i = 0; i < parts.length; i++) {
        var matched = null;
        PHRASES.forEach(function (phrase) {
          var size = phrase.length - 1;
          if ((!matched || size > matched.size) && parts.slice(i, i + size).join(" ") === phrase.slice(0, size).join(" ")) {
            matched = { size: size, code: phrase[size] };
          }
        });
        if (matched) { result.push(matched.code.toLowerCase()); i += matched.size - 1; }
        else { result.push(parts[i]); }
      }
    });
    return result;
  }

  /* --- reading a hand (a lenient subset of the server's notation) -------------------------- */

  function readWord(word) {
    if (RANKS[word]) { return { rank: RANKS[word] }; }
    if (COLOURS[word]) { return { colour: COLOURS[word] }; }
    var prefixes = Object.keys(COLOURS).sort(function (a, b) { return b.length - a.length; });
    for (var i = 0; i < prefixes.length; i++) {
      var rest = word.slice(prefixes[i].length);
      if (word.indexOf(prefixes[i]) === 0 && RANKS[rest]) {
        return { colour: COLOURS[prefixes[i]], rank: RANKS[rest] };
      }
    }
    return null;
  }

  function parseHand(text) {
    var words = splitWords(text);
    var cards = [];
    var count = 1;
    var colour = null;
    for (var i = 0; i < words.length; i++) {
      var word = words[i];
      var glued = /^(\d{1,3})[x×*](.*)$/.exec(word);
      if (/^\d{1,3}$/.test(word) && words[i + 1] && /^[x×*]$/.test(words[i + 1])) {
        count = parseInt(word, 10); i += 1; continue;
      }
      if (glued) {
        count = parseInt(glued[1], 10); word = glued[2];
        if (!word) { continue; }
      }
      var read = readWord(word);
      if (!read) { return { ok: false, cards: cards }; }
      if (!read.rank) { colour = read.colour; continue; }
      var cardColour = black[read.rank] ? null : (read.colour || colour);
      for (var c = 0; c < count; c++) { cards.push({ rank: read.rank, colour: cardColour }); }
      count = 1; colour = null;
    }
    return { ok: true, cards: cards };
  }

  function cardText(card) { return (card.colour || "") + card.rank; }

  /* --- one player's hand: chips, total, picker ------------------------------------------- */

  function renderHand(player) {
    var input = player.querySelector(".cards-input");
    var summary = player.querySelector(".hand-summary");
    if (!input || !summary) { return; }
    var parsed = parseHand(input.value);
    var chips = summary.querySelector(".chips");
    var total = summary.querySelector(".total");
    chips.textContent = "";
    parsed.cards.forEach(function (card, index) {
      var chip = document.createElement("button");
      chip.type = "button";
      chip.className = "chip " + (card.colour ? "c-" + card.colour : (black[card.rank] ? "c-black" : ""));
      chip.textContent = cardText(card);
      chip.setAttribute("aria-label", (texts.remove || "Remove") + " " + cardText(card));
      chip.addEventListener("click", function () {
        var left = parseHand(input.value);
        if (!left.ok) { return; }
        left.cards.splice(index, 1);
        setCards(player, left.cards.map(cardText).join(" "));
      });
      chips.appendChild(chip);
    });
    if (!input.value.trim()) {
      total.textContent = "";
    } else if (parsed.ok) {
      var points = parsed.cards.reduce(function (sum, card) { return sum + (values[card.rank] || 0); }, 0);
      total.className = "total";
      total.textContent = (texts.total || "{points} points · {cards} cards")
        .replace("{points}", points).replace("{cards}", parsed.cards.length);
    } else {
      total.className = "total unknown";
      total.textContent = texts.unknown || "?";
    }
    summary.hidden = !input.value.trim();
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

  function setupPlayer(page, player) {
    var input = player.querySelector(".cards-input");
    if (!input) { return; }
    var chosenColour = null;
    player.addEventListener("focusin", function () { activate(page, player); });
    player.addEventListener("click", function (event) {
      if (!event.target.closest(".picker")) { activate(page, player); }
    });
    player.querySelectorAll(".pick.colour").forEach(function (button) {
      button.addEventListener("click", function () {
        chosenColour = chosenColour === button.dataset.colour ? null : button.dataset.colour;
        player.querySelectorAll(".pick.colour").forEach(function (other) {
          other.setAttribute("aria-pressed", String(other.dataset.colour === chosenColour));
        });
      });
    });
    player.querySelectorAll(".pick.rank").forEach(function (button) {
      button.addEventListener("click", function () {
        var rank = button.dataset.rank;
        var token = (black[rank] ? "" : (chosenColour || "")) + rank;
        var current = input.value.trim();
        setCards(player, current ? current + " " + token : token);
        chosenColour = null;
        player.querySelectorAll(".pick.colour").forEach(function (other) { other.setAttribute("aria-pressed", "false"); });
      });
    });
    var undo = player.querySelector("[data-undo]");
    if (undo) {
      undo.addEventListener("click", function () {
        var parsed = parseHand(input.value);
        if (parsed.ok) {
          parsed.cards.pop();
          setCards(player, parsed.cards.map(cardText).join(" "));
        } else {
          setCards(player, input.value.trim().split(/[\s,;]+/).slice(0, -1).join(" "));
        }
      });
    }
    input.addEventListener("input", function () { renderHand(player); });
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
    // Refusals (closed round, not open yet, busy server) come as a full page state: show them.
    var status = event.detail.xhr.status;
    if (event.detail.target && event.detail.target.id === "captain-page" && [403, 409, 503].indexOf(status) !== -1) {
      event.detail.shouldSwap = true;
      event.detail.isError = false;
    }
  });
})();
