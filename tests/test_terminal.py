from wgdsl.terminal import has_control, printable


def test_escape_sequences_are_shown_not_sent():
    name = "\x1b]0;owned-title\x07\x1b[2J"
    out = printable(name)
    assert "\x1b" not in out and "\x07" not in out
    assert out == "\\x1b]0;owned-title\\x07\\x1b[2J"
    assert has_control(name) and not has_control(out)


def test_ordinary_text_is_unchanged():
    text = "ケンタウロス α 星人\tcost 3\nnext line"
    assert printable(text) == text and not has_control(text)


def test_c1_and_separators():
    assert printable("a\x9bb\u2028c\u202e") == "a\\x9bb\\u2028c\\u202e"
