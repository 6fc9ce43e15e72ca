"""The documents a director RSU grant cites, declared so a citation may name them: the Notice of
Restricted Stock Unit Grant ("Notice F.3") and its Exhibit I ("Exhibit I, Section III"), both
quoted from one source form; and, for the grant's Form 4 (A22), the Securities Exchange Act of
1934, the SEC's rules under it and Regulation S-T, and Title 5 of the U.S. Code (the Federal
holidays), described, never quoted."""

from __future__ import annotations

from docgen.core.citations import Authority, register_authorities

SOURCE_FORM = "director-rsu-notice-and-exhibit-i.txt"

NOTICE_OF_GRANT = Authority("Notice", source_form=SOURCE_FORM)
EXHIBIT_I = Authority("Exhibit I", after=", ", source_form=SOURCE_FORM)
EXCHANGE_ACT = Authority("Exchange Act", sections=True)  # "Exchange Act Section 16(a)(2)(C)"
SEC_RULE = Authority("Rule")  # "Rule 16a-3(g)(1)": 17 CFR 240.16a-3
REGULATION_S_T = Authority("Regulation S-T", after=", ")  # "Regulation S-T, Rule 11"
US_CODE_TITLE_5 = Authority("5 U.S.C.")  # "5 U.S.C. 6103"
# The SEC's EDGAR Ownership XML Technical Specification (schema X0508): what EDGAR accepts.
EDGAR_XML = Authority("EDGAR Ownership XML Technical Specification", after=", ")
AUTHORITIES = register_authorities(
    NOTICE_OF_GRANT, EXHIBIT_I, EXCHANGE_ACT, SEC_RULE, REGULATION_S_T, US_CODE_TITLE_5, EDGAR_XML
)
