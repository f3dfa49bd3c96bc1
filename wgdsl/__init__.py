"""wgdsl: a declarative card language, rules engine and ruling-case runner for World Gainer."""

__version__ = "0.1.0"
