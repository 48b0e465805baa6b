"""Research environments (extra ``rl``): PettingZoo and Gymnasium."""
