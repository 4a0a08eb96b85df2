// The guide's range for the seller's watch: one line, and what it rests on. The sell form shows
// it as the seller types (useInstantRange); the thank-you and status pages draw the same
// component as static markup from Jinja (app/rendering/components.py), so it is written once.
export function InstantRange({ range }) {
  if (!range) return null;
  return (
    <div className="rounded-xl border border-gold-300 bg-gold-100/40 px-4 py-3 text-left text-sm text-ink-800" data-instant-range>
      <p className="font-semibold text-ink-900">{range.line}</p>
      <p className="mt-1 text-ink-700">{range.basis}</p>
    </div>
  );
}
