"""Director RSU grant rules that read the as-of date: blank forms only before the filing deadline,
grant packets only once it has come, and no form on record that was filed after the as-of date.

Each stage's documents state something as of a day (DESIGN.md, "Stages and issued folders"): the
blank Exhibit I invites a filing that can still be made; the grant packet's on-file copy states
which election governs, which is final only once no form can still be filed prior to the deadline.
"""

from __future__ import annotations

from collections.abc import Iterator

from checks import rsu_sources as rsu_src
from checks.rsu import election_path
from checks.rsu_sources import exhibit
from docgen.core.dates import day_before
from docgen.core.rules import CheckContext, Hit, rule
from docgen.kinds.director_rsu import kind as _kind  # noqa: F401  (the kind claiming these rules)
from docgen.kinds.director_rsu.terms import elections_for_grant


@rule(
    "RSU-FORM-ISSUED-AFTER-DEADLINE",
    title="Blank Election Forms issued on or after the filing deadline",
    severity="error",
    cites=[exhibit()],
    stages=("elections",),
    explanation="Blank Exhibit I forms sent on or after the filing deadline cannot be filed "
    "prior to it; issuing them invites ineffective elections.",
    sources=[rsu_src.EXHIBIT_FILED],
    remedy="Do not issue the forms for this grant; set an earlier issuing date for the next cycle.",
    judges_issue_date=True,
)
def form_issued_after_deadline(context: CheckContext) -> Iterator[Hit]:
    deadline = context.facts.grant.election_deadline
    if context.stage == "elections" and context.as_of >= deadline:
        yield Hit(
            context.facts.grant.id,
            "grant.election_deadline",
            f"forms would issue {context.as_of}, on or after the filing deadline {deadline}.",
        )


@rule(
    "RSU-GRANT-PACKET-BEFORE-DEADLINE",
    title="Grant packets issued before the filing deadline",
    severity="error",
    cites=[exhibit()],
    stages=("grant",),
    explanation="Until the filing deadline a director may still file an Exhibit I, or a later "
    "one that supersedes the first, so the record of elections is not final. A grant packet "
    "issued before the deadline would state it as if it were: its on-file copy of Exhibit I "
    "says which election governs, or that no Election Form was filed prior to the deadline. "
    "The deadline day itself is the first day the record is final: a form filed on it is late.",
    sources=[rsu_src.EXHIBIT_FILED, rsu_src.NOTICE_F3],
    remedy="Issue the grant packets (--stage grant) as of the filing deadline or later "
    "(--as-of), once every form filed before it is recorded.",
    judges_issue_date=True,
)
def grant_packet_before_deadline(context: CheckContext) -> Iterator[Hit]:
    deadline = context.facts.grant.election_deadline
    if context.stage == "grant" and context.as_of < deadline:
        yield Hit(
            context.facts.grant.id,
            "grant.election_deadline",
            f"grant packets as of {context.as_of}, before the filing deadline {deadline}: "
            f"Exhibit I may still be filed through {day_before(deadline)}, so the record of "
            "elections is not final.",
        )


@rule(
    "RSU-ELECTION-FUTURE",
    title="Exhibit I recorded as filed after the as-of date",
    severity="error",
    cites=[exhibit()],
    explanation="The facts record the Exhibit I forms the Company has received. A form filed "
    "after the as-of date had not been received on that date: either filed_on is mistyped or the "
    "check runs as of the wrong day, and documents issued from the record would state what is "
    "not yet true. A void form (another grant's, an employee director's) is left to its own rule.",
    sources=[rsu_src.EXHIBIT_FILED],
    remedy="Correct filed_on, or check as of the day the record is for (--as-of).",
)
def election_future(context: CheckContext) -> Iterator[Hit]:
    for d_index, director in enumerate(context.facts.directors):
        for e_index, election in elections_for_grant(context.facts, director):
            if election.filed_on > context.as_of:
                yield Hit(
                    director.id,
                    election_path(d_index, e_index, "filed_on"),
                    f"Exhibit I recorded as filed {election.filed_on}, after the as-of date "
                    f"{context.as_of}: it cannot have been received yet.",
                )
