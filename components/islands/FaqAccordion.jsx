// Questions and answers, one open at a time, each collapsible. Native <details name> gives
// exactly that with JavaScript off; hydrated, React owns which item is open so browsers
// without exclusive <details> behave the same (starting from the one the visitor may have
// opened before), and arrow keys move between questions.
import { Fragment, useRef, useState } from "react";
import { useAdoptOpen } from "../hooks/useAdoptOpen.js";
import { ChevronDownIcon } from "../shared/icons.jsx";

// An answer's text with the site links `flask seed` found in it (`[words](/path)` in content/).
function AnswerText({ parts }) {
  return parts.map((part, index) =>
    part.href ? (
      <a
        key={index}
        href={part.href}
        className="font-medium text-gold-800 underline decoration-gold-300 underline-offset-4 hover:decoration-gold-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold-600"
      >
        {part.text}
      </a>
    ) : (
      <Fragment key={index}>{part.text}</Fragment>
    ),
  );
}

export default function FaqAccordion({ items, group, headingLevel = 3 }) {
  const [openIndex, setOpenIndex] = useState(null);
  const details = useRef([]);
  const summaries = useRef([]);
  useAdoptOpen(details, setOpenIndex);
  const Heading = `h${headingLevel}`;

  const toggle = (event, index) => {
    event.preventDefault();
    setOpenIndex((current) => (current === index ? null : index));
  };

  const moveFocus = (event, index) => {
    const last = items.length - 1;
    const target = {
      ArrowDown: index === last ? 0 : index + 1,
      ArrowUp: index === 0 ? last : index - 1,
      Home: 0,
      End: last,
    }[event.key];
    if (target === undefined) return;
    event.preventDefault();
    summaries.current[target]?.focus();
  };

  return (
    <div className="divide-y divide-ink-100 rounded-2xl border border-ink-100 bg-white">
      {items.map((item, index) => (
        <details
          key={item.question}
          ref={(element) => {
            details.current[index] = element;
          }}
          name={group}
          open={openIndex === index}
          className="group"
        >
          <summary
            ref={(element) => {
              summaries.current[index] = element;
            }}
            onClick={(event) => toggle(event, index)}
            onKeyDown={(event) => moveFocus(event, index)}
            className="flex cursor-pointer list-none items-center justify-between gap-4 px-5 py-4 text-left focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-gold-600 sm:px-6 [&::-webkit-details-marker]:hidden"
          >
            <Heading className="font-sans text-base font-semibold text-ink-900">
              {item.question}
            </Heading>
            <ChevronDownIcon className="h-5 w-5 shrink-0 text-ink-600 transition-transform group-open:rotate-180" />
          </summary>
          <div className="px-5 pb-5 text-base leading-relaxed text-ink-700 sm:px-6">
            <p>
              <AnswerText parts={item.answer_parts ?? [{ text: item.answer }]} />
            </p>
          </div>
        </details>
      ))}
    </div>
  );
}
