// Runs a callback once the element comes within 200px of the viewport.
export function whenVisible(element, callback) {
  const observer = new IntersectionObserver(
    (entries) => {
      if (entries.some((entry) => entry.isIntersecting)) {
        observer.disconnect();
        callback();
      }
    },
    { rootMargin: "200px" },
  );
  const target = element.firstElementChild ?? element;
  observer.observe(target);
}
