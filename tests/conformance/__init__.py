"""The conformance suite: every registered game against the engine contract."""
