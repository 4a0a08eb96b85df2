// The site header: logo, desktop menus (Watch Brands, Locations, Services), phone and Sell Now
// buttons, and the side menu below the desktop breakpoint. Every menu is a <details>, so the
// server-rendered header works by click and keyboard with JavaScript off, and until it hydrates
// (at the first pointer, focus or key event in it, or once the page has loaded); hydration adds
// hover timing, one-menu-at-a-time, Escape, and closing the side menu when a link is followed,
// and keeps open a menu the visitor opened before it.
import { useEffect, useRef, useState } from "react";
import { useAdoptOpen } from "../hooks/useAdoptOpen.js";
import { useHoverMenu } from "../hooks/useHoverMenu.js";
import { ChevronDownIcon, CloseIcon, LockIcon, MenuIcon, PhoneIcon } from "../shared/icons.jsx";

const focusRing =
  "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold-600";

function Logo({ siteName, logoUrl, isHome, compact }) {
  const image = useRef(null);
  const [failed, setFailed] = useState(false);

  // An error that fired before hydration is not replayed, so check the image once on mount.
  useEffect(() => {
    const img = image.current;
    if (img && img.complete && img.naturalWidth === 0) setFailed(true);
  }, []);

  const scrollHome = (event) => {
    if (!isHome) return;
    event.preventDefault();
    const reduce = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    window.scrollTo({ top: 0, behavior: reduce ? "auto" : "smooth" });
  };

  return (
    <a
      href="/"
      onClick={scrollHome}
      className={`flex items-center gap-2.5 rounded-md ${focusRing}`}
      aria-label={`${siteName}, home`}
    >
      {!failed && (
        <img
          ref={image}
          src={logoUrl}
          alt=""
          width="36"
          height="36"
          className="h-9 w-9"
          onError={() => setFailed(true)}
        />
      )}
      <span
        className={`whitespace-nowrap font-serif text-lg font-semibold tracking-tight text-ink-900 sm:text-xl ${compact ? "hidden sm:inline" : ""}`}
      >
        {siteName}
      </span>
    </a>
  );
}

function DesktopMenu({ id, label, menu, children, wide = false }) {
  const isOpen = menu.openId === id;
  const details = useRef(null);
  const summary = useRef(null);
  useAdoptOpen(details, () => menu.open(id));

  const onKeyDown = (event) => {
    if (event.key === "Escape" && isOpen) {
      menu.close();
      summary.current?.focus();
    }
  };
  const onBlur = (event) => {
    if (!event.currentTarget.contains(event.relatedTarget)) menu.close();
  };
  const onPointerEnter = (event) => event.pointerType === "mouse" && menu.hoverIn(id);
  const onPointerLeave = (event) => event.pointerType === "mouse" && menu.hoverOut();

  return (
    <details
      ref={details}
      name="header-menu"
      open={isOpen}
      className="group relative"
      onKeyDown={onKeyDown}
      onBlur={onBlur}
      onPointerEnter={onPointerEnter}
      onPointerLeave={onPointerLeave}
    >
      <summary
        ref={summary}
        onClick={(event) => {
          event.preventDefault();
          menu.toggle(id);
        }}
        className={`flex cursor-pointer list-none items-center gap-1 rounded-md px-3 py-2 text-sm font-medium text-ink-700 hover:text-ink-900 [&::-webkit-details-marker]:hidden ${focusRing}`}
      >
        {label}
        <ChevronDownIcon className="h-4 w-4 transition-transform group-open:rotate-180" />
      </summary>
      <div
        className={`absolute left-1/2 top-full z-50 mt-2 -translate-x-1/2 rounded-xl border border-ink-100 bg-white p-4 shadow-xl ${wide ? "w-[36rem]" : "w-80"}`}
      >
        {children}
      </div>
    </details>
  );
}

function BrandLinks({ brands, onNavigate, compact = false }) {
  return (
    <ul className={compact ? "space-y-1" : "grid grid-cols-2 gap-1"}>
      {brands.map((brand) => (
        <li key={brand.url}>
          <a
            href={brand.url}
            onClick={onNavigate}
            className={`block rounded-lg px-3 py-2 hover:bg-ink-50 ${focusRing}`}
          >
            <span className="flex items-center gap-2 text-sm font-semibold text-ink-900">
              {brand.name}
              {brand.popular && (
                <span className="rounded-full bg-gold-100 px-2 py-0.5 text-[11px] font-semibold text-gold-800">
                  Popular
                </span>
              )}
            </span>
            {!compact && <span className="mt-0.5 block text-xs text-ink-600">{brand.tagline}</span>}
          </a>
        </li>
      ))}
    </ul>
  );
}

function CityLinks({ cities, onNavigate, columns = "grid-cols-3" }) {
  return (
    <ul className={`grid gap-1 ${columns}`}>
      {cities.map((city) => (
        <li key={city.url}>
          <a
            href={city.url}
            onClick={onNavigate}
            className={`block rounded-lg px-3 py-2 text-sm text-ink-700 hover:bg-ink-50 hover:text-ink-900 ${focusRing}`}
          >
            {city.name}
            <span className="sr-only">, {city.state}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

function ServiceLinks({ services, onNavigate }) {
  return (
    <ul className="space-y-1">
      {services.map((service) => (
        <li key={service.url}>
          <a
            href={service.url}
            onClick={onNavigate}
            className={`block rounded-lg px-3 py-2 hover:bg-ink-50 ${focusRing}`}
          >
            <span className="block text-sm font-semibold text-ink-900">{service.label}</span>
            <span className="mt-0.5 block text-xs text-ink-600">{service.description}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

function SellAction({ isSell }) {
  if (isSell) {
    return (
      <span className="inline-flex items-center gap-1.5 rounded-full bg-emerald-50 px-3 py-1.5 text-xs font-semibold text-emerald-800 sm:text-sm">
        <LockIcon className="h-4 w-4" />
        Secure &amp; Encrypted
      </span>
    );
  }
  return (
    <a
      href="/sell"
      className={`inline-flex items-center rounded-full bg-gold-500 px-4 py-2 text-sm font-semibold text-ink-900 shadow-sm hover:bg-gold-400 ${focusRing}`}
    >
      <span className="sm:hidden">Sell</span>
      <span className="hidden sm:inline">Sell Now</span>
    </a>
  );
}

function SideSection({ title, children }) {
  return (
    <details className="group/section border-b border-ink-100 py-2">
      <summary
        className={`flex cursor-pointer list-none items-center justify-between rounded-md px-1 py-2 text-base font-semibold text-ink-900 [&::-webkit-details-marker]:hidden ${focusRing}`}
      >
        {title}
        <ChevronDownIcon className="h-5 w-5 transition-transform group-open/section:rotate-180" />
      </summary>
      <div className="pb-2">{children}</div>
    </details>
  );
}

function SideMenu({ brands, cities, services, phone, phoneHref }) {
  const [open, setOpen] = useState(false);
  const details = useRef(null);
  const close = () => setOpen(false);
  useAdoptOpen(details, () => setOpen(true));

  useEffect(() => {
    if (!open) return undefined;
    const onKeyDown = (event) => event.key === "Escape" && setOpen(false);
    document.addEventListener("keydown", onKeyDown);
    document.documentElement.classList.add("overflow-hidden");
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      document.documentElement.classList.remove("overflow-hidden");
    };
  }, [open]);

  return (
    <details ref={details} open={open} className="group lg:hidden">
      <summary
        onClick={(event) => {
          event.preventDefault();
          setOpen(!open);
        }}
        aria-label={open ? "Close menu" : "Open menu"}
        className={`relative z-50 flex h-10 w-10 cursor-pointer list-none items-center justify-center rounded-md text-ink-900 hover:bg-ink-50 [&::-webkit-details-marker]:hidden ${focusRing}`}
      >
        <MenuIcon className="h-6 w-6 group-open:hidden" />
        <CloseIcon className="hidden h-6 w-6 group-open:block" />
      </summary>
      <div className="fixed inset-x-0 bottom-0 top-16 z-40 bg-ink-900/40" onClick={close} />
      <nav
        aria-label="Mobile"
        className="fixed bottom-0 right-0 top-16 z-40 w-full max-w-sm overflow-y-auto bg-white px-5 pb-8 shadow-2xl motion-safe:animate-slide-in"
      >
        <SideSection title="Watch Brands">
          <BrandLinks brands={brands} onNavigate={close} compact />
        </SideSection>
        <SideSection title="Locations">
          <CityLinks cities={cities} onNavigate={close} columns="grid-cols-2" />
        </SideSection>
        <div className="border-b border-ink-100 py-3">
          <p className="px-1 pb-1 text-xs font-semibold uppercase tracking-wider text-ink-600">
            Services
          </p>
          <ServiceLinks services={services} onNavigate={close} />
        </div>
        <a
          href={phoneHref}
          onClick={close}
          className={`mt-6 flex items-center justify-center gap-2 rounded-full bg-ink-900 px-4 py-3 text-base font-semibold text-white hover:bg-ink-800 ${focusRing}`}
        >
          <PhoneIcon className="h-5 w-5" />
          Call {phone}
        </a>
      </nav>
    </details>
  );
}

export default function Header({
  siteName,
  logoUrl,
  phone,
  phoneHref,
  brands,
  cities,
  services,
  isHome = false,
  isSell = false,
}) {
  const menu = useHoverMenu();

  return (
    <header className="sticky top-0 z-40 border-b border-ink-100 bg-white/95 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-7xl items-center justify-between gap-4 px-4 sm:px-6 lg:px-8">
        {/* On /sell the Secure & Encrypted badge needs the room on a phone: logo mark only. */}
        <Logo siteName={siteName} logoUrl={logoUrl} isHome={isHome} compact={isSell} />
        <nav aria-label="Main" className="hidden lg:block">
          <ul className="flex items-center gap-1">
            <li>
              <DesktopMenu id="brands" label="Watch Brands" menu={menu} wide>
                <BrandLinks brands={brands} onNavigate={menu.close} />
              </DesktopMenu>
            </li>
            <li>
              <DesktopMenu id="locations" label="Locations" menu={menu} wide>
                <CityLinks cities={cities} onNavigate={menu.close} />
              </DesktopMenu>
            </li>
            <li>
              <DesktopMenu id="services" label="Services" menu={menu}>
                <ServiceLinks services={services} onNavigate={menu.close} />
              </DesktopMenu>
            </li>
          </ul>
        </nav>
        <div className="flex items-center gap-2">
          <a
            href={phoneHref}
            className={`hidden items-center gap-2 rounded-full border border-ink-200 px-4 py-2 text-sm font-semibold text-ink-900 hover:border-ink-400 xl:inline-flex ${focusRing}`}
          >
            <PhoneIcon className="h-4 w-4" />
            {phone}
          </a>
          <SellAction isSell={isSell} />
          <SideMenu
            brands={brands}
            cities={cities}
            services={services}
            phone={phone}
            phoneHref={phoneHref}
          />
        </div>
      </div>
    </header>
  );
}
