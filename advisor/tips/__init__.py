"""One tip book per game: ``advisor/tips/<game_module>.py`` defines ``BOOK = TipBook(game_id)``."""
