"""Citations: an authority (the Plan, the Code, a Treasury Regulation, the Notice, Exhibit I) and a
place in it, written the way counsel writes them."""

from __future__ import annotations

from dataclasses import dataclass

# How each authority is written before its pinpoint. The Plan's own sections read
# "Plan Section 2.03(a)"; a provision cited by name ("Beneficiary designation") reads "Plan,
# Beneficiary designation"; the Exhibit I form cites its own sections after a comma.
AUTHORITIES = ("Plan", "Code", "Treas. Reg.", "Notice", "Exhibit I", "DESIGN.md")


@dataclass(frozen=True, order=True)
class Citation:
    """An authority and a place in it: ``Citation("Plan", "2.03(a)")`` is Plan Section 2.03(a)."""

    authority: str
    pinpoint: str = ""

    def __post_init__(self) -> None:
        if self.authority not in AUTHORITIES:
            raise ValueError(f"unknown authority {self.authority!r}; use one of {AUTHORITIES}")

    def __str__(self) -> str:
        if not self.pinpoint:
            return self.authority
        if self.authority == "Plan":
            if self.pinpoint[0].isdigit():
                return f"Plan Section {self.pinpoint}"
            return f"Plan, {self.pinpoint}"
        if self.authority in ("Exhibit I", "DESIGN.md"):
            return f"{self.authority}, {self.pinpoint}"
        return f"{self.authority} {self.pinpoint}"
