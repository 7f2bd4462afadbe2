// The round page after "Publish and print table sheets": start the download once (the link stays).
document.addEventListener("DOMContentLoaded", () => {
  const link = document.querySelector("a[data-auto-download]");
  if (link && !link.dataset.started) {
    link.dataset.started = "1";
    link.click();
    history.replaceState(null, "", location.pathname);  // a reload does not download again
  }
});
