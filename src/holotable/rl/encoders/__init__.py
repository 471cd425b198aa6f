"""Explicit observation encoders for the built-in games (registered on import)."""
