"""Accounts: API keys (hashed, constant-time check) and their grants of
customers' events (tenancy)."""
