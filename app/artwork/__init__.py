"""Original artwork for the site, drawn with Pillow: ``flask artwork`` writes it to static/img/art/.

draw.py holds the drawing primitives (supersampled canvas, gradients, watch parts), catalog.py
the list of images and how each is composed, cli.py the command and ``generate()``.
"""

from app.artwork.cli import artwork_command, generate

__all__ = ["artwork_command", "generate"]
