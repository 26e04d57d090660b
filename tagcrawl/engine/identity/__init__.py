"""Identity: what the crawl browser presents (user agent, Client Hints, locale and timezone per country)."""
