"""PMS simulator package (see README.md)."""
