"""Tournament → standings."""
