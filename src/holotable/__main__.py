"""``python -m holotable`` runs the command line."""

from holotable.cli import main

if __name__ == "__main__":
    main()
