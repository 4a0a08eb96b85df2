"""The drawing program behind the site's original illustrations (a maintainer's tool).

``python -m tools.artwork content/images`` paints every picture of catalog/ at its natural
size and writes it as a lossless WebP master; the masters are committed, and the app's
``flask images`` derives the served variants from them. Nothing the web app or the worker
imports touches this package.

draw/ holds the drawing primitives, one module for each kind of thing drawn (palette, surface,
dials, cases, bracelets, whole watches...: its __init__ lists them), catalog/ the list of
pictures (its __init__) and how each is composed, one module for each kind of picture.
"""
