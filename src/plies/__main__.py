"""``python -m plies`` runs the CLI."""

from plies.cli import main

main()
