"""The site's words: loaded from content/ by `flask seed`, read by pages through `queries`."""
