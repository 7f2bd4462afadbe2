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

  // <input class="link-url" readonly>: a click selects the whole link for copying.
  document.addEventListener("click", function (event) {
    var field = event.target;
    if (field instanceof HTMLInputElement && field.classList.contains("link-url")) {
      field.select();
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
})();
