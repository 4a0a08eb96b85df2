"""The site's pictures: served variants derived from content/images/ (`flask images`) and the
`picture()` helper templates use."""
