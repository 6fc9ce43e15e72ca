"""The words of the director RSU grant's own documents its rules rest on: the Notice of
Restricted Stock Unit Grant and its Exhibit I, quoted word for word from
docs/source-forms/director-rsu-notice-and-exhibit-i.txt (a test checks each against it).
checks/sources.py has the Code and Treas. Reg."""

from __future__ import annotations

from checks.sources import quote
from docgen.core.citations import Citation
from docgen.kinds.director_rsu.authorities import EXHIBIT_I, NOTICE_OF_GRANT


def notice(pinpoint: str) -> Citation:
    return NOTICE_OF_GRANT.cite(pinpoint)


def exhibit(pinpoint: str = "") -> Citation:
    return EXHIBIT_I.cite(pinpoint)


NOTICE_A = quote(
    notice("A"),
    """
    all the Restricted Stock Units will vest and become nonforfeitable on the [____]
    anniversary of the Grant Date (the “Specified Date”) or such earlier date as may be
    provided in this Notice of Grant or the Plan (collectively, the “Vesting Date”)
""",
)
NOTICE_A_SERVICE = quote(
    notice("A"),
    """
    provided you continue to provide services to the Company as a member of the Board (a
    “Director”) or otherwise from the Grant Date until the Vesting Date.
""",
)
NOTICE_A_FORFEITURE = quote(
    notice("A"),
    """
    If your service terminates prior to the Vesting Date for any reason other than those
    described in Section B, then any unvested Restricted Stock Units (and any related dividend
    equivalent rights) subject to this Notice of Grant shall terminate and be completely
    forfeited on the date of such termination.
""",
)
NOTICE_A_REGARDLESS = quote(
    notice("A"),
    """
    To the extent that you do not vest in any Restricted Stock Units, and regardless of any
    election described in Section F that you may have made with respect to such unvested
    Restricted Stock Units, all interest in such units, the related shares of Company Stock,
    and any related dividend equivalent rights shall be forfeited.
""",
)
EXHIBIT_CHANGE_IN_CONTROL = quote(
    exhibit(),
    """
    (iii) the occurrence of an event that is both a “change in control event” (as defined in
    Code section 409A(a)(2)(A)(v) and the applicable regulations issued thereunder) and a
    Change of Control,
""",
)
NOTICE_C = quote(
    notice("C"),
    """
    The Company shall deliver all shares of Company Stock issuable pursuant to such vested
    Restricted Stock Units in the form of a single distribution within 60 days of the
    Payment Date.
""",
)
NOTICE_F1 = quote(
    notice("F.1"),
    """
    If you are a non-employee Director, you may have elected to defer the Payment Date set
    forth in Section C.1 by completing the form attached hereto as Exhibit I.
""",
)
NOTICE_F2 = quote(
    notice("F.2"),
    """
    if your Payment Date would otherwise be the date you elected in Section III of the
    attached Exhibit I, but you are a “specified employee” (as defined in Code Section
    409A(a)(2)(B)(i)) as of your Separation from Service (as defined in Code section 409A
    and the applicable regulations issued thereunder), then your Payment Date shall be
    delayed until the earlier of (1) the date that is six months following your Separation
    from Service, or (2) the date of your death.
""",
)
NOTICE_F3 = quote(
    notice("F.3"),
    """
    Any deferral election with respect to the Restricted Stock Units covered by this Notice
    of Grant must have been made using the form attached as Exhibit I and will not be
    effective unless it was filed with the Company prior to [______, 20__]. Your deferral
    election is irrevocable and subsequent deferral elections are not permitted
""",
)
EXHIBIT_INTRO = quote(
    exhibit(),
    """
    As a non-employee Director of the CarMax, Inc. Board of Directors, you may use this form
    (“Election Form”) to elect to defer receipt of all Company Stock issuable pursuant to
    any Restricted Stock Units that may be granted to you with a [______, 20__] Date of
    Grant (the “20__ Units”).
""",
)
EXHIBIT_FILED = quote(
    exhibit(),
    """
    Page 2 of this Election Form must be filed with the Company prior to [______, 20__] (the
    Date of Grant).
""",
)
EXHIBIT_NO_CARRY_OVER = quote(
    exhibit(),
    """
    If you made a deferral election with respect to Restricted Stock Units granted prior to
    [______, 20__], such deferral election will not carry over to the 20__ Units.
""",
)
EXHIBIT_IRREVOCABLE = quote(
    exhibit(),
    """
    Your deferral election using this Election Form will be irrevocable with respect to the
    20__ Units as of the Date of Grant and subsequent deferral elections (as defined in Code
    section 409A(a)(4)(C)) will not be permitted.
""",
)
EXHIBIT_DEFAULT_PAYMENT = quote(
    exhibit(),
    """
    If you do not make an effective deferral election using this Election Form, payment for
    any vested 20__ Units will be made in shares of Company Stock in the form of a single
    distribution within 60 days following the earliest of: (i) your death, (ii) the date
    your service as a Director terminates as a result of your Disability, (iii) the
    occurrence of an event that is both a “change in control event” (as defined in Code
    section 409A(a)(2)(A)(v) and the applicable regulations issued thereunder) and a Change
    of Control, or (iv) the [____] anniversary of the Date of Grant.
""",
)
EXHIBIT_III = quote(
    exhibit("Section III"),
    """
    I elect to defer the receipt of all (100%) of the Company Stock issuable in settlement
    of any 20__ Units until:
""",
)
EXHIBIT_PAGE_2 = quote(
    exhibit(),
    """
    In order for your deferral election to be effective with respect to the 20__ Units,
    Sections III and IV (on Page 2) of this Election Form must be completed and Page 2 of this
    Election Form must be filed with the Company
""",
)
