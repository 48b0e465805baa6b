"""The recipe that trains the ``learned`` bot (:mod:`rummy21.env.learned`), stage by stage.

1. :mod:`.teacher` — a teacher bot's decisions on seeded deals, and hands with their exact
   distances to a valid declaration (reach lessons), to shards of NumPy arrays
   (``rummy21 learn teach``);
2. :mod:`.train` — behaviour cloning of a policy head and fitting a value head (each
   action's expected deal score) on them, with PyTorch (``rummy21 learn train``; extra
   ``train``); :mod:`.reach` — the reach network, which reads a hand's distance
   (``rummy21 learn reach``);
3. :mod:`.improve` — past the teacher by Deep Monte-Carlo self-play against a league
   (itself, the expert, its past self): the value head learns the draws and drops the
   network decides from the deals' returns, round by round (``rummy21 learn improve``);
4. :func:`.train.export` — the NumPy file the bot plays, both networks in it
   (``rummy21 learn export --reach``).

Every stage resumes where it stopped. Stages 2, 3 (its fits) and 4 need PyTorch.
"""
