"""The sell form: the site's one real function."""
