"""The documents a director RSU grant cites, declared so a citation may name them: the Notice of
Restricted Stock Unit Grant ("Notice F.3") and its Exhibit I ("Exhibit I, Section III"), both
quoted from one source form."""

from __future__ import annotations

from docgen.core.citations import Authority, register_authorities

SOURCE_FORM = "director-rsu-notice-and-exhibit-i.txt"

NOTICE_OF_GRANT = Authority("Notice", source_form=SOURCE_FORM)
EXHIBIT_I = Authority("Exhibit I", after=", ", source_form=SOURCE_FORM)
AUTHORITIES = register_authorities(NOTICE_OF_GRANT, EXHIBIT_I)
