"""The server's HTTP and WebSocket routes, one router per concern; :func:`holotable.server.app.create_app`
assembles them. What several routers need (the table manager, the table of the path, the seat of the
token) is a FastAPI dependency in :mod:`.shared`."""
