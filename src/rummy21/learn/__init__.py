"""The recipe that trains the ``learned`` bot (:mod:`rummy21.env.learned`), stage by stage.

1. :mod:`.teacher` — a teacher bot's decisions on seeded deals, and hands with their exact
   distances to a valid declaration (reach lessons), to shards of NumPy arrays
   (``rummy21 learn teach``);
2. :mod:`.train` — behaviour cloning of a policy head and fitting a value head (each
   action's expected deal score) on them, with PyTorch (``rummy21 learn train``; extra
   ``train``); :mod:`.reach` — the reach network, which reads a hand's distance
   (``rummy21 learn reach``);
3. past the teacher: not built yet (self-play; the reach network's discards already play
   past the expert by what they learn from the solver, not from a bot);
4. :func:`.train.export` — the NumPy file the bot plays, both networks in it
   (``rummy21 learn export --reach``).

Every stage resumes where it stopped. Stages 2 and 4 need PyTorch.
"""
