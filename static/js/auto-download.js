// The round page after "Publish and print table sheets": save the sheets once (the hidden link); the
// print buttons below the tables open them again.
document.addEventListener("DOMContentLoaded", () => {
  const link = document.querySelector("a[data-auto-download]");
  if (link && !link.dataset.started) {
    link.dataset.started = "1";
    link.click();
    history.replaceState(null, "", location.pathname);  // a reload does not download again
  }
});
