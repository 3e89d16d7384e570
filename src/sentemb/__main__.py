"""``python -m sentemb``: the ``sentemb`` command."""

from sentemb.cli import main

main()
