"""The ``wgdsl`` command (``python -m wgdsl`` too): the CLI, imported here so that Ctrl-C
while it starts up (importing the CLI takes a few tenths of a second) ends as a Ctrl-C
does later on -- "interrupted" and exit status 130 -- not in a Python traceback."""

import sys

EXIT_INTERRUPTED = 130  # wgdsl.cli's, not imported from it: this runs before it is there


def main() -> None:
    try:
        from wgdsl.cli import main as cli
    except KeyboardInterrupt:
        sys.stderr.write("\ninterrupted\n")
        sys.exit(EXIT_INTERRUPTED)
    cli()


if __name__ == "__main__":
    main()
