// An article card: picture, category, title, excerpt, date and reading time.
// Used by the blog filter island and rendered statically for Related Articles.
import Picture from "./Picture.jsx";

// The featured card's picture: the page less its margins, then three fifths of the 1216px row.
const FEATURED_SIZES = "(max-width: 1023px) calc(100vw - 2rem), 730px";

export default function PostCard({ post, featured = false, headingLevel = 3 }) {
  const Heading = `h${headingLevel}`;
  return (
    <article
      className={`group relative flex h-full flex-col overflow-hidden rounded-2xl bg-white ring-1 ring-ink-100 transition hover:ring-gold-500 ${featured ? "lg:flex-row" : ""}`}
    >
      <Picture
        {...post.picture}
        sizes={featured ? FEATURED_SIZES : post.picture.sizes}
        className={featured ? "aspect-[40/21] lg:aspect-auto lg:w-3/5" : "aspect-[40/21]"}
      />
      <div className={`flex flex-1 flex-col p-6 ${featured ? "lg:justify-center lg:p-10" : ""}`}>
        <p className="flex items-center gap-3 text-sm">
          <span className="rounded-full bg-gold-100 px-2.5 py-0.5 font-semibold text-gold-800">
            {post.category}
          </span>
          <span className="text-ink-600">{post.readingTime}</span>
        </p>
        <Heading
          className={`mt-4 font-serif font-semibold text-ink-900 ${featured ? "text-2xl sm:text-3xl" : "text-xl"}`}
        >
          <a
            href={post.url}
            className="after:absolute after:inset-0 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold-600"
          >
            {post.title}
          </a>
        </Heading>
        <p className="mt-3 flex-1 leading-relaxed text-ink-600">{post.excerpt}</p>
        <p className="mt-5 text-sm text-ink-600">
          <time dateTime={post.published}>{post.dateDisplay}</time>
        </p>
      </div>
    </article>
  );
}
