"""Maintainers' tools, run by hand from the repository root; app/ and worker/ never import them."""
