"""rummy21: 21 Card Rummy — rules engine, exact solver, bots and tables.

Layers (each imports only from those before it): ``cards``/``ruleset`` → ``jokers`` →
``groups`` → ``solver`` → ``analysis`` → ``game`` → ``bots`` → interfaces (``cli``,
``server``).

>>> from rummy21.analysis import analyze
>>> analyze("7S 8S 9S 10S 2H 3H 4H JC QC KC 5D 5D 5D AH AD AC 9C 9H 6D 8D 4C", "7D").options
('A',)
"""

__version__ = "0.1.0"
