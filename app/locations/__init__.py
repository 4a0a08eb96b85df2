"""City landing pages: /sell-watch-<slug>."""
