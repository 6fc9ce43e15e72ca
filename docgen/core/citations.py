"""Citations: an authority (the Plan, the Code, a Treasury Regulation, the Notice, Exhibit I) and a
place in it, written the way counsel writes them.

The authorities every kind may cite (the Code, the Treasury Regulations, docgen's own design) are
here; each kind declares its own documents (the Plan, the Notice and Exhibit I) with
:func:`register_authorities`, so a third kind brings its own and cites nothing it does not own.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Authority:
    """An authority a citation may name, and how its pinpoint is written after its name.

    ``after`` separates the name from a pinpoint ("Code 409A", "Exhibit I, Section III");
    ``sections`` makes a numbered pinpoint a Section ("Plan Section 2.03(a)") and any other a
    provision cited by name ("Plan, Beneficiary designation"). ``source_form`` is the file under
    docs/source-forms/ that the kind's quoted text comes from, word for word (a test checks each
    quotation against it); an authority that is only described, never quoted, has none.
    """

    name: str
    after: str = " "
    sections: bool = False
    source_form: str = ""

    def write(self, pinpoint: str) -> str:
        """``pinpoint`` of this authority, as counsel writes it."""
        if not pinpoint:
            return self.name
        if self.sections:
            if pinpoint[0].isdigit():
                return f"{self.name} Section {pinpoint}"
            return f"{self.name}, {pinpoint}"
        return f"{self.name}{self.after}{pinpoint}"

    def cite(self, pinpoint: str = "") -> Citation:
        return Citation(self.name, pinpoint)


CODE = Authority("Code")
TREAS_REG = Authority("Treas. Reg.")
DESIGN = Authority("DESIGN.md", after=", ")
SHARED = (CODE, TREAS_REG, DESIGN)  # the authorities of every kind

_AUTHORITIES: dict[str, Authority] = {authority.name: authority for authority in SHARED}


def register_authorities(*authorities: Authority) -> tuple[Authority, ...]:
    """Let citations name these authorities (a kind declares its own documents)."""
    for authority in authorities:
        known = _AUTHORITIES.setdefault(authority.name, authority)
        if known != authority:
            raise ValueError(f"authority {authority.name!r} is declared twice, differently")
    return authorities


def unregister_authorities(authorities: Iterable[Authority]) -> None:
    """Forget authorities a kind declared (a test's toy kind, once the test is done); the shared
    ones stay."""
    for authority in authorities:
        if authority not in SHARED:
            _AUTHORITIES.pop(authority.name, None)


def authority(name: str) -> Authority:
    """The authority a citation names; KeyError if no kind declares it."""
    return _AUTHORITIES[name]


@dataclass(frozen=True, order=True)
class Citation:
    """An authority and a place in it: ``Citation("Plan", "2.03(a)")`` is Plan Section 2.03(a)."""

    authority: str
    pinpoint: str = ""

    def __post_init__(self) -> None:
        if self.authority not in _AUTHORITIES:
            raise ValueError(
                f"unknown authority {self.authority!r}; use one of {tuple(_AUTHORITIES)}"
            )

    def __str__(self) -> str:
        return _AUTHORITIES[self.authority].write(self.pinpoint)


def cited_for(
    citations: Iterable[Citation], authorities: Iterable[Authority]
) -> tuple[Citation, ...]:
    """Of a rule every kind shares, the citations a finding about one kind's facts carries: its
    own documents' (``authorities``) and the Code's and the Treasury Regulations', never another
    kind's documents nor docgen's own design (counsel reads the law, not docgen's notes)."""
    names = {authority.name for authority in authorities} | {CODE.name, TREAS_REG.name}
    return tuple(citation for citation in citations if citation.authority in names)


def parse_citation(text: str) -> Citation:
    """The citation ``text`` writes (as ``str(citation)`` gives it, e.g. read back from an issued
    check report); ValueError when no declared authority writes it so."""
    for name in sorted(_AUTHORITIES, key=len, reverse=True):
        if text != name and not text.startswith(name):
            continue
        known = _AUTHORITIES[name]
        for lead in (" Section ", ", ", known.after):
            if text.startswith(name + lead) or text == name:
                pinpoint = "" if text == name else text[len(name + lead) :]
                citation = Citation(name, pinpoint)
                if str(citation) == text:
                    return citation
    raise ValueError(f"no authority writes the citation {text!r}")
