"""The document the Retirement Restoration Plan's rules cite, declared so a citation may name it:
the Plan itself ("Plan Section 2.03(a)", "Plan, Beneficiary designation")."""

from __future__ import annotations

from docgen.core.citations import Authority, register_authorities

PLAN = Authority("Plan", sections=True, source_form="retirement-restoration-plan.txt")
AUTHORITIES = register_authorities(PLAN)
