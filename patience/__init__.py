"""The ``patience`` command line."""
