"""The facts of a director RSU grant cycle (DESIGN.md, "kind: director-rsu-grant"): the grant,
its directors, their Exhibit I forms and what happened later."""

from __future__ import annotations

from typing import Annotated, ClassVar, Literal

from pydantic import Field, StrictBool, StrictStr, model_validator

from docgen.core.kind_facts import COMPANY_NAME_FIX, KindFacts
from docgen.core.model import (
    ADDRESS_MAX_LINES,
    Anniversary,
    Count,
    DecisionText,
    EmailAddress,
    Fact,
    FactDate,
    FactId,
    FormSHA256,
    Money,
    Percent,
    PersonName,
    PositiveInt,
    PositiveMoney,
    RecordStatus,
    SubjectId,
    Text,
    Year,
    check_decision,
    form_error,
)
from docgen.kinds.director_rsu.ocf_facts import OCFFacts

# The SEC's Central Index Key: up to ten digits, written as a string (quoted in YAML, so that
# leading zeros survive); EDGAR writes it zero-padded to ten.
Cik = Annotated[StrictStr, Field(pattern=r"^[0-9]{1,10}$")]
_CIK_FIX = 'Write the CIK as EDGAR shows it, in quotes: cik: "0001234567".'


def _absent(value: object) -> bool:
    """A Form 4 fact not given is left out of the record a document carries (``Kind.slice``):
    facts files without them make the same documents, byte for byte, as before they existed."""
    return value is None


class DirectorCompany(Fact):
    name: Text = Field(
        description="The issuer, as the Notice names it.",
        json_schema_extra={"fix": COMPANY_NAME_FIX},
    )
    secretary_phone: Text = Field(
        description='The corporate secretary\'s telephone, e.g. "(804) 747-0422".'
    )
    governing_law: Text = Field(
        description="Governing law of the Notice, e.g. Commonwealth of Virginia."
    )
    publicly_traded: StrictBool = Field(
        True, description="Code 409A specified-employee rules apply."
    )
    cik: Cik | None = Field(
        None,
        description="The issuer's SEC Central Index Key (`docgen section16`: issuerCik).",
        json_schema_extra={"fix": _CIK_FIX},
        exclude_if=_absent,
    )
    trading_symbol: StrictStr | None = Field(
        None,
        pattern=r"^[A-Z0-9][A-Z0-9.-]{0,9}$",
        description="The issuer's trading symbol, e.g. EXCO (`docgen section16`).",
        json_schema_extra={"fix": "Write the symbol in capitals, e.g. trading_symbol: ABC."},
        exclude_if=_absent,
    )
    form4_table: Literal["I", "II"] | None = Field(
        None,
        description="Where the company reports a director's RSU grant on Form 4: I "
        "(non-derivative securities, the units as shares of common stock) or II (derivative "
        "securities, the units as rights to receive shares). `docgen section16` asks for it.",
        exclude_if=_absent,
    )
    form4_price_per_share: Money | None = Field(
        None,
        description="The price per share a Form 4 reports for the grant, USD (absent: 0, an "
        "RSU grant is made for no price).",
        exclude_if=_absent,
    )
    form4_address: Literal["director", "company"] | None = Field(
        None,
        description="Whose address each director's Form 4 reports: the director's own "
        '(absent, or director) or the company\'s, "c/o" the company (company: give '
        "company.address).",
        exclude_if=_absent,
    )
    address: list[Text] | None = Field(
        None,
        max_length=2,
        description='The company\'s address for Form 4s reported "c/o" it: one street line, '
        'then the city, state and ZIP code ("City, ST 12345").',
        exclude_if=_absent,
    )


def _every_acceleration() -> list[Literal["death", "disability", "change_of_control"]]:
    """By default every Section B event vests the units early."""
    return ["death", "disability", "change_of_control"]


class Vesting(Fact):
    anniversary: Anniversary = Field(
        1, description="Specified Date = this anniversary of the Grant Date."
    )
    annual_meeting_date: FactDate | None = Field(
        None, description="If set, the units vest on the earlier of the anniversary and this date."
    )
    accelerate_on: list[Literal["death", "disability", "change_of_control"]] = Field(
        default_factory=_every_acceleration,
        description="Section B events that vest the units early.",
    )


class Dividend(Fact):
    """A dividend paid on the Company Stock after the Grant Date (Notice E)."""

    paid_on: FactDate = Field(description="The day the dividend was paid.")
    per_share: PositiveMoney = Field(description="The dividend per share of Company Stock, USD.")
    fair_market_value: PositiveMoney = Field(
        description="Fair Market Value of a share on the day the dividend was paid, USD (the "
        "price Notice E converts the dividend equivalent into units at)."
    )


class MarketPriceRange(Fact):
    """The prices a share of Company Stock is known to trade between, for a second look at the
    Grant Date Fair Market Value (RSU-FMV-OUT-OF-RANGE)."""

    min: PositiveMoney = Field(description="The lowest price per share expected, USD.")
    max: PositiveMoney = Field(description="The highest price per share expected, USD.")

    @model_validator(mode="after")
    def _min_not_above_max(self) -> MarketPriceRange:
        if self.min > self.max:
            raise form_error(
                f"min {self.min} is above max {self.max}",
                "Give the lowest price as min and the highest as max.",
                field="min",
            )
        return self


class Grant(Fact):
    id: FactId = Field(description="Names the cycle's output folder, e.g. 2026-annual.")
    grant_date: FactDate = Field(description='"Grant Date" / "Date of Grant".')
    notice_date: FactDate = Field(description="The date line at the top of the Notice.")
    election_deadline: FactDate = Field(description="Exhibit I must be filed PRIOR TO this date.")
    fair_market_value: PositiveMoney = Field(
        description="Grant Date Fair Market Value per share, USD."
    )
    previous_fair_market_value: PositiveMoney | None = Field(
        None,
        description="The previous grant's Grant Date Fair Market Value per share, USD: a value "
        "100 times it or more, or a hundredth of it or less, is a warning (RSU-FMV-OUT-OF-RANGE).",
    )
    market_price_range: MarketPriceRange | None = Field(
        None,
        description="The range (min, max) a share is expected to trade in, USD: a Fair Market "
        "Value 100 times max or more, or min/100 or less, is a warning (RSU-FMV-OUT-OF-RANGE).",
    )
    vesting: Vesting = Field(default_factory=Vesting)
    default_payment_anniversary: Anniversary = Field(
        1, description="Exhibit I: payment on this anniversary absent an election."
    )
    dividends: list[Dividend] = Field(
        default_factory=list,
        description="Dividends paid on the Company Stock from the Grant Date on (Notice E): each "
        "adds dividend-equivalent units to a director's units until the Payment Date.",
    )


class DirectorElection(Fact):
    """An Exhibit I form received from a director."""

    grant_id: FactId = Field(description="The grant the form names.")
    filed_on: FactDate = Field(
        description="The day the Company received the form (no later than --as-of)."
    )
    percent: Percent = Field(
        description="Exhibit I allows all (100%) only; the checker flags others."
    )
    pay_on: Literal["separation", "date", "earlier_of_separation_or_date"]
    pay_date: FactDate | None = None
    status: RecordStatus = None
    reason: DecisionText = None
    decided_by: DecisionText = None
    form_sha256: FormSHA256 = None
    # How the form arrived and what its Section IV says, as the on-file copy states them (it
    # never claims a signature docgen did not see).
    received_as: Literal["pdf", "paper"] | None = Field(
        None,
        description="How the form was received: pdf (a filled PDF, `docgen intake`) or paper "
        "(a scan, fax or paper form whose content was recorded with `docgen elect`).",
    )
    printed_name: PersonName | None = Field(
        None, description="Section IV: the name as the director printed it on the form."
    )
    name_accepted: Text | None = Field(
        None,
        description="Why a printed name that does not read as the director's name was accepted "
        "(`--accept-name REASON` on intake or elect).",
    )
    signed_on: FactDate | None = Field(
        None, description="Section IV: the date signed, as written on the form."
    )
    recorded_by: Text | None = Field(
        None, description="Who recorded a paper form's content (`docgen elect --recorded-by`)."
    )
    recorded_on: FactDate | None = Field(
        None, description="The day a paper form's content was recorded (`docgen elect`)."
    )
    signature_seen_by: Text | None = Field(
        None,
        description="Who saw the director's signature on the form, set by whoever checked it "
        "(`docgen decide --for ID --signature-seen-by NAME`). "
        "Only then does the on-file copy say the form was signed; without it, it says how the "
        "form was received and never claims a signature.",
    )

    @model_validator(mode="after")
    def _pay_date_matches_choice(self) -> DirectorElection:
        check_decision(self)
        if self.pay_on in ("date", "earlier_of_separation_or_date") and self.pay_date is None:
            raise form_error(
                f"pay_on: {self.pay_on} needs a pay_date",
                "Add the elected payment date as pay_date: YYYY-MM-DD.",
                field="pay_date",
            )
        if self.pay_on == "separation" and self.pay_date is not None:
            raise form_error(
                "pay_date is only used with pay_on: date or earlier_of_separation_or_date",
                "Remove pay_date, or change pay_on to the choice the director marked.",
                field="pay_date",
            )
        return self


class Settlement(Fact):
    """What happened after the grant: the facts the payment-timing rules check."""

    separation_on: FactDate | None = None
    death_on: FactDate | None = None
    disability_on: FactDate | None = None
    change_in_control_on: FactDate | None = Field(
        None, description="The day of a Change of Control as the Plan defines it."
    )
    change_in_control_is_409a_event: StrictBool | None = Field(
        None,
        description="Whether that Change of Control is also a change in control event under "
        "Treas. Reg. 1.409A-3(i)(5): only then is it a payment event (Exhibit I (iii)) and an "
        "accelerating event of the drafted Section B. Absent: taken as one, with a warning.",
    )
    delivered_on: FactDate | None = None
    delivered_fair_market_value: PositiveMoney | None = Field(
        None,
        description="The Fair Market Value of a share on the day the shares were delivered "
        "(USD): the release price of the Open Cap Format release (`docgen export-ocf` refuses a "
        "release without it).",
        exclude_if=_absent,
    )


def _none_given(value: object) -> bool:
    """An optional list not given is left out of the record, as :func:`_absent` leaves a fact."""
    return value is None or value == []


class EdgarAddress(Fact):
    """A Form 4 address given field by field, as EDGAR takes it (a foreign one, or any the
    address lines do not give as "City, ST 12345")."""

    street1: Text
    street2: Text | None = None
    city: Text
    state: Annotated[StrictStr, Field(pattern=r"^[A-Z0-9]{2}$")] = Field(
        description="A USPS state code, or EDGAR's code for the country (or Canadian province), "
        "e.g. X0 for the United Kingdom: EDGAR's list of state and country codes."
    )
    zip_code: Text | None = Field(None, description="The ZIP or postal code.")
    state_description: Text | None = Field(
        None, description="For a foreign address, the country as words (rptOwnerStateDescription)."
    )


class DirectorCompensation(Fact):
    """A director's compensation for one fiscal year besides this grant's stock award, as the
    proxy's Director Compensation table reports it (Regulation S-K Item 402(k)(2); `docgen
    proxy`). A figure not given is shown as missing, never as zero."""

    fiscal_year_end: FactDate = Field(description="The last day of the fiscal year it is for.")
    fees_earned_or_paid_in_cash: Money | None = Field(
        None,
        description="Item 402(k)(2)(ii): all fees earned or paid in cash for services as a "
        "director, retainer, committee, chair and meeting fees included (USD).",
    )
    option_awards: Money | None = Field(
        None,
        description="Item 402(k)(2)(iv): the grant-date fair value of option awards granted in "
        "the fiscal year (FASB ASC Topic 718), when the director had any (USD).",
    )
    all_other_compensation: Money | None = Field(
        None,
        description="Item 402(k)(2)(vii): all other compensation, as Item 402(k)(2)(vii) and "
        "its Instruction list it (USD).",
    )
    source: Text = Field(
        description="Where the figures come from (e.g. payroll's fee register for FY2027, "
        "approved by the Compensation Committee 2027-03-10): printed in the table's notes."
    )


class Director(Fact):
    id: SubjectId = Field(
        description="As payroll writes it (letters, digits, ., _, -); unique without regard to "
        "case; names the director's folder."
    )
    name: PersonName = Field(description="As it should read in the documents.")
    salutation: PersonName | None = Field(None, description="Defaults to the name.")
    address: list[Text] = Field(
        default_factory=list,
        max_length=ADDRESS_MAX_LINES,
        description=f"Address lines for the Notice (at most {ADDRESS_MAX_LINES}).",
    )
    email: EmailAddress | None = Field(
        None,
        description="Where `docgen send` mails the forms (one address, name@example.com); no "
        "document prints it.",
    )
    employee: StrictBool = Field(False, description="Exhibit I is for non-employee Directors only.")
    specified_employee: StrictBool = Field(
        False, description="Code 409A(a)(2)(B)(i) status at Separation from Service."
    )
    first_eligible_on: FactDate | None = Field(
        None, description="A director newly eligible this cycle (first-year 30-day rule)."
    )
    units: PositiveInt = Field(description="Restricted stock units granted.")
    elections: list[DirectorElection] = Field(
        default_factory=list,
        description="Exhibit I forms received. The last one filed before the deadline governs; "
        "an earlier one it supersedes is named on the on-file copy.",
    )
    settlement: Settlement | None = Field(None, description="What happened later (payment checks).")
    cik: Cik | None = Field(
        None,
        description="The director's SEC Central Index Key (`docgen section16`: rptOwnerCik).",
        json_schema_extra={"fix": _CIK_FIX},
        exclude_if=_absent,
    )
    edgar_name: Text | None = Field(
        None,
        description="The director's name as EDGAR's record for the CIK writes it (last name "
        "first, e.g. Smith Jane Q.), for the Form 4's rptOwnerName; without it the draft writes "
        "the name as given and its remarks say to check it.",
        exclude_if=_absent,
    )
    edgar_address: EdgarAddress | None = Field(
        None,
        description="The director's address for the Form 4 given field by field (a foreign "
        "address with EDGAR's country code); absent, the address lines are read.",
        exclude_if=_absent,
    )
    form4_filed_on: FactDate | None = Field(
        None,
        description="The day the director's Form 4 for this grant was filed on EDGAR "
        "(RSU-FORM4-DUE: due by the end of the second business day after the grant date).",
        exclude_if=_absent,
    )
    director_compensation: list[DirectorCompensation] = Field(
        default_factory=list,
        description="For `docgen proxy`: the director's cash fees, option awards and all other "
        "compensation, one entry per fiscal year, each with its source.",
        exclude_if=_none_given,
    )
    shares_owned_after: Count | None = Field(
        None,
        description="Shares (Table I) or units (Table II) of the class the Form 4 reports that "
        "the director holds after the grant; without it the draft says so in a footnote.",
        exclude_if=_absent,
    )

    @property
    def greeting(self) -> str:
        return self.salutation or self.name


class DirectorGrantFacts(KindFacts[DirectorCompany]):
    kind: Literal["director-rsu-grant"]
    stock_plan: Text = Field(
        description='The plan the units are granted under ("the Plan").',
        json_schema_extra={
            "fix": "Add stock_plan: the plan the units are granted under, as the Notice names "
            "it (e.g. Example Co. 2024 Stock Incentive Plan); docgen never fills in another "
            "company's."
        },
    )
    form_10k_fiscal_year: Year = Field(description="The Form 10-K fiscal year the Notice offers.")
    grant: Grant
    ocf: OCFFacts | None = Field(
        None,
        description="The issuer's facts an Open Cap Format bundle requires beyond the Notice "
        "(`docgen export-ocf`, which refuses without them).",
    )
    directors_csv: Text | None = Field(
        None, description="Roster file (relative path), one row per director."
    )
    elections_csv: Text | None = Field(
        None,
        description="Exhibit I forms as rows (relative path): one row per form received, naming "
        "its director by director_id; columns as an election's fields (form_sha256 too). A "
        "director's elections are all here or all elsewhere.",
    )
    directors: list[Director] = Field(default_factory=list)

    shared_fields_before: ClassVar[str | None] = "directors_csv"
    not_in_slice: ClassVar[tuple[str, ...]] = ("ocf",)  # only `docgen export-ocf` reads it
    # What only the Form 4 drafts (`docgen section16`) read: no Notice, Exhibit I or on-file copy
    # prints them, so adding a CIK or the trading symbol re-issues no packet.
    not_printed: ClassVar[tuple[str, ...]] = (
        "company.cik",
        "company.trading_symbol",
        "company.form4_table",
        "company.form4_price_per_share",
        "directors[].cik",
        "directors[].edgar_name",
        "directors[].form4_filed_on",
        "directors[].shares_owned_after",
    )

    def director(self, director_id: str) -> Director:
        for director in self.directors:
            if director.id == director_id:
                return director
        raise KeyError(director_id)
