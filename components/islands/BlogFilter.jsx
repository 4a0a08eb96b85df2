// The blog index's category chips, featured post and grid. Chips are links
// (/blog?category=<slug>) that the server filters with JavaScript off; hydrated, they filter
// in place and keep the URL in step, and Back/Forward restore the filter. The grid's layout,
// a list on phones, is `post-grid` in components/styles/site.css.
import { useEffect, useState } from "react";
import PostCard from "../shared/PostCard.jsx";

const chipBase =
  "inline-flex rounded-full px-4 py-2 text-sm font-semibold transition focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold-600";

function categoryFromUrl(categories) {
  const slug = new URLSearchParams(window.location.search).get("category");
  return categories.some((category) => category.slug === slug) ? slug : null;
}

function Chip({ href, label, active, onSelect }) {
  return (
    <a
      href={href}
      aria-current={active ? "page" : undefined}
      onClick={onSelect}
      className={`${chipBase} ${active ? "bg-ink-900 text-white" : "bg-white text-ink-800 ring-1 ring-ink-200 hover:ring-ink-400"}`}
    >
      {label}
    </a>
  );
}

export default function BlogFilter({ posts, categories, active: initialActive }) {
  const [active, setActive] = useState(initialActive);

  useEffect(() => {
    const onPopState = () => setActive(categoryFromUrl(categories));
    window.addEventListener("popstate", onPopState);
    return () => window.removeEventListener("popstate", onPopState);
  }, [categories]);

  const select = (slug) => (event) => {
    if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    setActive(slug);
    const url = slug ? `/blog?category=${slug}` : "/blog";
    window.history.pushState({ category: slug }, "", url);
  };

  const shown = active ? posts.filter((post) => post.categorySlug === active) : posts;
  const [featured, ...rest] = shown;
  const activeName = categories.find((category) => category.slug === active)?.name;

  return (
    <div>
      <nav aria-label="Blog categories">
        <ul className="flex flex-wrap gap-2">
          <li>
            <Chip href="/blog" label="All Posts" active={!active} onSelect={select(null)} />
          </li>
          {categories.map((category) => (
            <li key={category.slug}>
              <Chip
                href={`/blog?category=${category.slug}`}
                label={category.name}
                active={active === category.slug}
                onSelect={select(category.slug)}
              />
            </li>
          ))}
        </ul>
      </nav>
      <p className="sr-only" aria-live="polite">
        {activeName ? `Showing ${shown.length} ${activeName} articles` : `Showing all ${shown.length} articles`}
      </p>
      {featured && (
        <div className="mt-10">
          <h2 className="sr-only">Featured article</h2>
          <PostCard post={featured} featured headingLevel={3} />
        </div>
      )}
      {rest.length > 0 && (
        <div className="mt-10">
          <h2 className="sr-only">More articles</h2>
          <ul className="post-grid">
            {rest.map((post) => (
              <li key={post.slug}>
                <PostCard post={post} />
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
