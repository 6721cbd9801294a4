"""One module per ``kakuro`` subcommand, each with ``register(subparsers)``."""
