"""Tests of the game-agnostic engine (specs, states, sealed choices, matches, registry)."""
