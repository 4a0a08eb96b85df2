"""Brand landing pages: /sell-<brand>-watch."""
