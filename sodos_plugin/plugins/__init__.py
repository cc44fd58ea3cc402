"""Plugins."""
