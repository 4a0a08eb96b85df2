"""Home, authentication services and the legal pages."""
