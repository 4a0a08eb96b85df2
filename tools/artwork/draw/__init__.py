"""Drawing primitives for the site's original artwork, one module for each kind of thing drawn.

Everything is drawn with Pillow's ImageDraw on a surface ``S`` times the final size and then
downscaled with LANCZOS, which gives smooth anti-aliased edges. Every function here takes
coordinates in *final* pixels; a ``Surface`` converts them to its supersampled pixels.

Nothing here is random, so the same code always draws the same pixels.

From the bottom up (each module imports only those before it): palette (colours), geometry
(points, curves, turns), shapes, paints (gradients), surface (canvas, fills, strokes, clips,
blurs, shadows), text (numerals), backgrounds, metals, watch (the recipe of a watch), bracelets,
cases, hands, dials, movement (gears, jewels, balance, Geneva stripes), props (loupe, tweezers)
and watches (whole round, tonneau and Tank watches).
"""
