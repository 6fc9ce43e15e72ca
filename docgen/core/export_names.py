"""The names HRIS, payroll and benefits-portal exports commonly give docgen's columns (Workday,
ADP, BambooHR and the like): an unknown header that is one of them gets a did-you-mean naming
the field, and `docgen columns` proposes the mapping from them. A name here is only ever a
suggestion the user confirms by putting it in a ``columns:`` block (A24); nothing is read
through it silently."""

from __future__ import annotations

# docgen column -> the export names, lower-cased, each without punctuation around it
COMMON_NAMES: dict[str, tuple[str, ...]] = {
    "id": (
        "worker id",
        "employee id",
        "employee number",
        "employee no",
        "emp id",
        "associate id",
        "file number",
        "person number",
        "personnel number",
    ),
    "participant_id": ("worker id", "employee id", "employee number", "emp id", "associate id"),
    "director_id": ("director id",),
    "name": (
        "legal name",
        "full name",
        "employee name",
        "worker",
        "worker name",
        "director",
        "director name",
        "name",
    ),
    "salutation": ("preferred salutation", "salutation", "greeting"),
    "address": ("mailing address", "home address", "address"),
    "hired_on": ("hire date", "original hire date", "date of hire", "start date"),
    "compensation": (
        "annual base pay",
        "annual salary",
        "base salary",
        "annual compensation",
        "total compensation",
    ),
    "bonus_compensation": ("annual bonus", "bonus", "bonus amount"),
    "bonus_paid_on": ("bonus pay date", "bonus paid on"),
    "pay_frequency": ("pay frequency", "payroll frequency", "pay cycle", "pay group frequency"),
    "key_employee_on": ("key employee", "key employee 416i", "key employee flag"),
    "terminated_on": ("termination date", "term date", "separation date"),
    "termination_reason": ("termination reason", "term reason", "separation reason"),
    "separation_on": ("board end date", "service end date", "end date", "termination date"),
    "eligible_employee": ("eligible", "plan eligible", "eligibility"),
    "units": ("annual rsu award", "rsu award", "units", "rsus"),
    "first_eligible_on": ("board start date", "eligibility date", "first eligible"),
    "kind": ("election type", "deferral type", "source"),
    "percent": ("deferral %", "deferral percent", "deferral percentage", "percent", "election %"),
    "made_on": ("submitted", "submitted et", "submitted on", "election date", "date submitted"),
}


def normalised(header: str) -> str:
    """A header as the common names are written: lower case, brackets and punctuation out."""
    kept = "".join(ch if ch.isalnum() or ch in " %" else " " for ch in header.lower())
    return " ".join(kept.split())


def common_field(
    header: str, fields: tuple[str, ...] | list[str], *, prefix: bool = False
) -> str | None:
    """The field of ``fields`` an export commonly names ``header``, if any; with ``prefix``, also
    one whose common name starts the header (``Annual Bonus (Paid Mar 2027)``)."""
    wanted = normalised(header)
    for field in fields:
        if wanted in COMMON_NAMES.get(field, ()):
            return field
    if prefix:
        for field in fields:
            if any(wanted.startswith(name + " ") for name in COMMON_NAMES.get(field, ())):
                return field
    return None
