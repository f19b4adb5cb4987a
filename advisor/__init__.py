"""Rules of every game (``advisor.engine``, ``advisor.games``) and the advice built on them."""
