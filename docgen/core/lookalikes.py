"""When two names read the same: the key two people's names are compared by (issue 44).

A name's key is its Unicode NFKC form, without format characters (category Cf: a zero-width
space or joiner, a soft hyphen), each letter that looks like a Latin one written as that Latin
letter. The last step is the idea of Unicode Technical Standard #39 ("Unicode Security
Mechanisms"), section 4, whose *skeleton* maps each character to its prototype by the data
file confusables.txt. docgen carries the part of that mapping a roster of names needs, not the
whole file (6,000 mappings, most between symbols and scripts no name mixes with Latin): the
Cyrillic and Greek letters that confusables.txt maps to a single Latin letter, upper and lower
case, and 0, 1, I and | that it maps to O and l. (Its multi-letter prototypes, such as m to
"rn", are left out: within one script they would make "Jim" and "Jirn" one name.) A name of
any other script keeps its letters, so two names in it compare after NFKC alone. Case is kept,
as in UTS #39: "jane smith" and "Jane Smith" are not look-alikes but a spelling difference the
user sees.
"""

from __future__ import annotations

import unicodedata

# From confusables.txt (UTS #39's data, as of Unicode 10.0), each entry that maps a Cyrillic or
# Greek letter to one Latin letter.
_CYRILLIC = {
    "Ѕ": "S", "І": "l", "Ј": "J", "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M",
    "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T", "У": "Y", "Х": "X", "Ь": "b",
    "а": "a", "г": "r", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x",
    "ѕ": "s", "і": "i", "ј": "j", "Ѵ": "V", "ѵ": "v", "Ү": "Y", "ү": "y", "һ": "h",
    "ҽ": "e", "Ӏ": "l", "ӏ": "i", "ԁ": "d", "ԛ": "q", "ԝ": "w",
}  # fmt: skip
_GREEK = {
    "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "l", "Κ": "K", "Μ": "M",
    "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X", "α": "a", "γ": "y",
    "ι": "i", "ν": "v", "ο": "o", "ρ": "p", "σ": "o", "υ": "u",
}  # fmt: skip
_LATIN = {"0": "O", "1": "l", "I": "l", "|": "l"}  # confusables.txt: each to its prototype
_PROTOTYPE = str.maketrans({**_CYRILLIC, **_GREEK, **_LATIN})


def name_key(name: str) -> str:
    """The key two names are compared by (see the module docstring); white space collapsed."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(char for char in text if unicodedata.category(char) != "Cf")
    return " ".join(text.translate(_PROTOTYPE).split())


def lookalike_letters(name: str) -> list[tuple[int, str]]:
    """(position, character) of each character of ``name`` that the key changes: a letter of
    another script written as a Latin one, or a format character dropped (for a message)."""
    found = []
    for index, char in enumerate(name):
        if unicodedata.category(char) == "Cf" or (char in _CYRILLIC or char in _GREEK):
            found.append((index + 1, char))
    return found
