"""One module per game; each defines ``GAME``. See ``advisor.engine`` for the protocol."""
