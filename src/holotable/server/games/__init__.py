"""Game-specific server extensions (see :mod:`holotable.server.extensions`)."""
