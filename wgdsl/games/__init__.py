"""The games: each folder is one game's rules, state and engine, built on the kernel and
running cards written in the card language.  Today there is one, :mod:`.world_gainer`."""
