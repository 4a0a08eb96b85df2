"""The blog index and articles."""
