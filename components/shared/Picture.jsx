// One responsive image: AVIF, WebP and JPEG sources at the widths the layout needs, explicit size
// (no layout shift), a blurred inline placeholder behind it until it paints, and a visible
// "Failed to load image" state (set by components/runtime/images.js). Priority images load
// eagerly with high fetch priority; all others lazily. Jinja renders it too (static markup),
// so the markup exists once.
export default function Picture({
  alt,
  width,
  height,
  src,
  avifSrcset,
  webpSrcset,
  jpegSrcset,
  sizes,
  placeholder,
  priority = false,
  className = "",
}) {
  return (
    <div
      data-image=""
      className={`group/image relative isolate overflow-hidden bg-ink-100 ${className}`}
    >
      {placeholder && (
        <img
          src={placeholder}
          alt=""
          aria-hidden="true"
          className="absolute inset-0 -z-10 h-full w-full scale-110 object-cover blur-xl"
        />
      )}
      <picture>
        <source type="image/avif" srcSet={avifSrcset} sizes={sizes} />
        <source type="image/webp" srcSet={webpSrcset} sizes={sizes} />
        <img
          src={src}
          srcSet={jpegSrcset}
          sizes={sizes}
          alt={alt}
          width={width}
          height={height}
          loading={priority ? "eager" : "lazy"}
          decoding={priority ? "sync" : "async"}
          fetchPriority={priority ? "high" : undefined}
          className="h-full w-full object-cover group-data-failed/image:invisible"
        />
      </picture>
      <p className="absolute inset-0 hidden items-center justify-center bg-ink-100 p-4 text-center text-sm font-medium text-ink-600 group-data-failed/image:flex">
        Failed to load image
      </p>
    </div>
  );
}
