"""The recipe that trains the ``learned`` bot (:mod:`rummy21.env.learned`), stage by stage.

1. :mod:`.teacher` — a teacher bot's decisions on seeded deals, to shards of NumPy arrays
   (``rummy21 learn teach``);
2. :mod:`.train` — behaviour cloning of a policy head and fitting a value head (each
   action's expected deal score) on them, with PyTorch (``rummy21 learn train``; extra
   ``train``);
3. the same trainer on the learned bot's own games, past the teacher
   (``rummy21 learn teach --teacher learned:PATH``, then ``train --resume``): kept only
   where tournaments say it is stronger;
4. :func:`.train.export` — the NumPy network file the bot plays (``rummy21 learn export``).

Every stage resumes where it stopped. Only stage 2 needs PyTorch.
"""
