"""`docgen send`: one message per person from a stage folder as issued, or reminders.

What goes, to whom, and what is refused (DESIGN.md A26):

- The stage is the kind's forms stage (the stage its blank forms are issued at: elections,
  enrollment); each person with a packet in its folder gets one message with the packet's PDFs
  attached. A person held or not issued a packet gets nothing.
- Each attachment is read from the stage folder and its SHA-256 compared with the manifest's: a
  file changed since it was issued refuses the whole run before anything is sent (exit 2).
- The letter's wording must be approved (docgen.send.letters): else nothing is sent (exit 1).
- A person with no ``email`` is named and skipped, never guessed (exit 1, the rest are sent).
- Nothing is sent twice: a message of the same letter with the same attachments (same SHA-256)
  delivered to a person before is not sent again unless ``again`` names them; a reminder goes
  at most once a day. A re-issued form is another document, so it goes.
- Reminders go only to a person the kind expects a form from, whose form this cycle is not on
  record (one on record but not in effect counts as recorded: it is a decision, not a silence),
  who is not held, and whose last day has not passed (within ``days_before`` days of it, when
  given).
- The log (docgen.issue.sent_log) is written after each message, so an interruption loses
  nothing already sent; a server that refuses one recipient does not stop the rest.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

from docgen.core.dates import long_date
from docgen.core.model import fact_path
from docgen.intake.status import sent_forms
from docgen.issue.files import BadRequest, OutLock
from docgen.issue.folder import read_issued
from docgen.issue.manifest import Manifest, Packet, read
from docgen.issue.sent_log import Attachment, SentLogUnreadable, SentMessage, read_log, write_log
from docgen.kinds import kind_of
from docgen.load import LoadedFacts, load_facts
from docgen.send.letters import FORMS_OUT, REMINDER, Letter, approved_sha256, letter_text
from docgen.send.message import Outgoing, build
from docgen.send.transport import Server, SmtpSettings, write_eml


class AttachmentChanged(BadRequest):
    """An issued file is not as its manifest lists it: nothing is sent. Exit code 2."""


@dataclass(frozen=True)
class Skipped:
    subject: str
    name: str
    reason: str


@dataclass(frozen=True)
class Planned:
    """One message to go: to whom, with which files."""

    subject: str
    name: str
    address: str
    attachments: tuple[Attachment, ...]


@dataclass
class SendResult:
    folder: Path
    letter: str
    via: str  # eml, smtp or dry-run
    planned: list[Planned] = field(default_factory=list)
    messages: list[SentMessage] = field(default_factory=list)  # this run's
    skipped: list[Skipped] = field(default_factory=list)  # nothing due, or already sent
    no_address: list[Skipped] = field(default_factory=list)

    @property
    def refused(self) -> list[SentMessage]:
        return [m for m in self.messages if not m.delivered]

    @property
    def exit_code(self) -> int:
        return 1 if self.no_address or self.refused else 0


def _stage_folder(loaded: LoadedFacts, out: Path, stage: str | None) -> tuple[Any, Path]:
    kind = kind_of(loaded.facts)
    hooks = kind.intake
    if hooks is None:
        raise BadRequest(f"{loaded.source.file}: a {kind.name} file sends no forms.")
    if stage is not None and stage != hooks.stage:
        raise BadRequest(
            f"--stage {stage}: docgen sends the forms of stage {hooks.stage}, the stage a "
            f"{kind.name} file issues them at. Use --stage {hooks.stage}."
        )
    manifest_path, _ = sent_forms(out, kind.cycle_name(loaded.facts), hooks.stage, hooks.document)
    return hooks, Path(manifest_path).parent


def _attachments(folder: Path, manifest: Manifest, packet: Packet) -> list[tuple[str, bytes]]:
    """The packet's PDFs as issued: each one's bytes, checked against the manifest."""
    found = []
    for document in packet.documents:
        name = document.files.get("pdf")
        if name is None:
            continue
        entry = manifest.files.get(name)
        try:
            data = read_issued(folder / name)
        except OSError as error:
            raise AttachmentChanged(
                f"{folder / name}: cannot be read ({error}); nothing was sent. Run `docgen "
                f"verify {folder}`, and re-issue with `docgen batch` if it changed."
            ) from None
        digest = hashlib.sha256(data).hexdigest()
        if entry is None or digest != entry.sha256:
            raise AttachmentChanged(
                f"{folder / name}: changed since it was issued (SHA-256 {digest[:12]}…, the "
                f"manifest lists {str(entry.sha256 if entry else None)[:12]}…); nothing was "
                f"sent. Run `docgen verify {folder}`, and re-issue with `docgen batch` (it "
                "renders again when a folder has changed)."
            )
        found.append((name, data))
    return found


def _eml_name(folder: Path, subject: str, letter: Letter, today: date) -> str:
    stem = f"{subject}-{letter.id.split('.', 1)[1]}"
    if letter is REMINDER:
        stem += f"-{today.isoformat()}"
    name, n = f"{stem}.eml", 1
    while (folder / name).exists():
        n += 1
        name = f"{stem}-{n}.eml"
    return name


def send(
    path: str | Path,
    out: str | Path,
    *,
    as_of: date,
    stage: str | None = None,
    eml: Path | None = None,
    smtp: SmtpSettings | None = None,
    password: str | None = None,
    dry_run: bool = False,
    reminders: bool = False,
    days_before: int | None = None,
    again: tuple[str, ...] = (),
) -> SendResult:
    """Send (or draft, or plan with ``dry_run``) the stage's forms or reminders; see the
    module's docstring."""
    if not dry_run and (eml is None) == (smtp is None):
        raise BadRequest("Say where the messages go: --eml FOLDER (drafts) or --smtp (send).")
    loaded = load_facts(path)
    facts = loaded.facts
    kind = kind_of(facts)
    hooks, folder = _stage_folder(loaded, Path(out), stage)
    if eml is not None and eml.resolve().is_relative_to(folder.resolve()):
        raise BadRequest(
            f"--eml {eml}: inside the issued folder {folder}, which holds only what docgen "
            "issued (`docgen verify` would find the drafts). Choose a folder outside it, like "
            "drafts."
        )
    sending = getattr(facts, "sending", None)
    if sending is None:
        raise BadRequest(
            f"{loaded.source.file}: no sending: block. Add one (from_name, from_address, ask, "
            'return_to; see docs/election-loop.md, "Sending the forms"): who the messages '
            "come from, whom to ask and how a form comes back are facts, never guessed."
        )
    letter = REMINDER if reminders else FORMS_OUT
    letter_sha256 = approved_sha256(loaded, letter)
    people = {subject.id: subject for subject in kind.subjects(facts)}
    unknown = [subject for subject in again if subject not in people]
    if unknown:
        raise BadRequest(f"--again {', '.join(unknown)}: no such person in {loaded.source.file}.")
    via = "dry-run" if dry_run else ("eml" if eml is not None else "smtp")
    result = SendResult(folder, letter.id, via)
    with OutLock(Path(out)):
        manifest = read(folder)
        try:
            log = read_log(folder)
        except SentLogUnreadable as error:
            raise BadRequest(
                f"{folder}/sent.json: {error}; nothing was sent. Run `docgen verify {folder}`."
            ) from None
        held = {entry.subject for entry in manifest.held}
        packets = {packet.subject: packet for packet in manifest.packets}
        titles = {spec.name: spec.title for spec in kind.documents}
        today = _now().date()
        queue: list[tuple[Any, Packet, list[tuple[str, bytes]], int | None]] = []
        for index, subject in enumerate(kind.subjects(facts)):
            name = subject.name
            packet = packets.get(subject.id)
            deadline = hooks.deadline(facts, subject)
            days_left = (deadline - as_of).days if deadline is not None else None
            if packet is None:
                why = "held" if subject.id in held else "no packet in the stage folder"
                result.skipped.append(Skipped(subject.id, name, why))
                continue
            if reminders:
                not_due = _no_reminder(hooks, facts, subject, days_left, days_before)
                if not_due:
                    result.skipped.append(Skipped(subject.id, name, not_due))
                    continue
            files = _attachments(folder, manifest, packet)
            sent_before = _sent_before(log, subject.id, letter, files, today)
            if sent_before is not None and subject.id not in again:
                result.skipped.append(Skipped(subject.id, name, f"already sent {sent_before}"))
                continue
            address = getattr(subject, "email", None)
            if not address:
                file, line = loaded.source.locate(fact_path(kind.subjects_field, index))
                where = f"{file}:{line}" if line else file
                result.no_address.append(Skipped(subject.id, name, f"no email ({where})"))
                continue
            queue.append((subject, packet, files, days_left))
        for subject, _packet, files, _days in queue:
            result.planned.append(
                Planned(
                    subject.id,
                    subject.name,
                    subject.email,
                    tuple(Attachment(n, hashlib.sha256(d).hexdigest()) for n, d in files),
                )
            )
        if dry_run or not queue:
            return result
        if eml is not None:
            eml.mkdir(parents=True, exist_ok=True)
        server = Server(smtp, password) if smtp is not None else None
        try:
            for subject, packet, files, days_left in queue:
                company = getattr(facts.company, "name", facts.company)
                form_title = titles.get(hooks.document, hooks.document)
                others = [titles.get(d.name, d.name) for d in packet.documents]
                others = [t for t in others if t != form_title]
                deadline = hooks.deadline(facts, subject)
                context = {
                    "greeting": getattr(subject, "greeting", subject.name),
                    "company": company,
                    "form_title": form_title,
                    "other_titles": " and ".join(others),
                    "last_day": long_date(deadline) if deadline else "",
                    "days_left": days_left,
                    "return_to": sending.return_to.rstrip("."),
                    "ask": sending.ask.rstrip("."),
                    "sender": sending.from_name,
                }
                text = letter_text(loaded, letter, context)
                when = _now().replace(microsecond=0)
                last = f": last day {long_date(deadline)}" if deadline else ""
                title = f"{form_title}{last}"
                outgoing = Outgoing(
                    to_name=subject.name,
                    to_address=subject.email,
                    from_name=sending.from_name,
                    from_address=sending.from_address,
                    reply_to=sending.reply_to,
                    subject=f"Reminder: {title}" if reminders else title,
                    text=text,
                    attachments=tuple(
                        (f"{name.rsplit('/', 1)[-1][:-4]}-{subject.id}.pdf", data)
                        for name, data in files
                    ),
                )
                message = build(outgoing, when, draft=eml is not None)
                if eml is not None:
                    written = write_eml(eml, _eml_name(eml, subject.id, letter, today), message)
                    outcome, detail = "drafted", str(written)
                else:
                    assert server is not None
                    refusal = server.send(message)
                    outcome, detail = ("sent", "") if refusal is None else ("refused", refusal)
                entry = SentMessage(
                    subject=subject.id,
                    name=subject.name,
                    address=subject.email,
                    letter=letter.id,
                    letter_sha256=letter_sha256,
                    when=when.isoformat().replace("+00:00", "Z"),
                    message_id=str(message["Message-ID"]),
                    via=via,
                    outcome=outcome,
                    attachments=tuple(
                        Attachment(n, hashlib.sha256(d).hexdigest()) for n, d in files
                    ),
                    detail=detail,
                )
                log.append(entry)
                result.messages.append(entry)
                write_log(folder, manifest, log)  # after each message: nothing sent is lost
        finally:
            if server is not None:
                server.close()
    return result


def _now() -> datetime:
    """When a message goes: the clock, in UTC (the log's "when"; a message's Date header)."""
    return datetime.now(UTC)


def _no_reminder(
    hooks: Any, facts: Any, subject: Any, days_left: int | None, days_before: int | None
) -> str | None:
    """Why a person gets no reminder, or None when one is due."""
    if not hooks.expects_form(facts, subject):
        return "no form needed"
    if any(form.this_cycle for form in hooks.returned(facts, subject)):
        return "form recorded"
    if days_left is not None and days_left < 0:
        return "the last day has passed"
    if days_before is not None and days_left is not None and days_left > days_before:
        return f"{days_left} days left (reminders from {days_before} days before)"
    return None


def _sent_before(
    log: list[SentMessage],
    subject: str,
    letter: Letter,
    files: list[tuple[str, bytes]],
    today: date,
) -> str | None:
    """When the same letter with the same files was delivered to the person (a reminder: today),
    or None."""
    sent = {(n, hashlib.sha256(d).hexdigest()) for n, d in files}
    for entry in reversed(log):
        if entry.subject != subject or entry.letter != letter.id or not entry.delivered:
            continue
        if letter is REMINDER and entry.when[:10] != today.isoformat():
            continue
        if {(a.file, a.sha256) for a in entry.attachments} == sent:
            return f"{entry.when[:10]} ({entry.via}, {entry.message_id})"
    return None
