"""wgdsl's games for outside libraries: :mod:`.pettingzoo` (``pip install
'wgdsl[pettingzoo]'``).  Imported only when asked for: playing or checking cards never
needs these libraries."""
