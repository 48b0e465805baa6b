"""``python -m rummy21.cli`` runs the command line."""

from rummy21.cli import main

main()
