// Marks an image's wrapper data-failed when it cannot load, which shows its
// "Failed to load image" state. Errors before this script ran are found by checking
// images that finished loading with no pixels.
function markFailed(img) {
  img.closest("[data-image]")?.setAttribute("data-failed", "");
}

function isImageInPicture(target) {
  return target instanceof HTMLImageElement && target.closest("[data-image]") && !target.ariaHidden;
}

export function watchImages(root = document) {
  root.addEventListener(
    "error",
    (event) => isImageInPicture(event.target) && markFailed(event.target),
    true,
  );
  for (const img of root.querySelectorAll("[data-image] picture img")) {
    if (img.complete && img.naturalWidth === 0 && img.currentSrc) markFailed(img);
  }
}
