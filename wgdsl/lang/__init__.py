"""The card language: text -> AST -> checked card definitions, and back to text.

:mod:`.parser` (with :mod:`.syntax_errors`) turns ``.wg`` text into the AST of
:mod:`.ast`; :mod:`.checker` (with :mod:`.effect_checks` and :mod:`.loops`) reports
every problem as a :mod:`.diagnostics` ``Diagnostic``; :mod:`.cards` loads a checked set
as ``CardDef`` s; :mod:`.fmt` prints the AST back as canonical source, :mod:`.text`
(:mod:`.text_en`, :mod:`.text_ja`) as a card's printed text.  The language may import the
kernel, never a game or a tool (tests/test_layers.py).
"""
