"""The public pages: home, authentication services, the legal pages, the city and brand landing
pages, the sitemap and robots.txt."""
