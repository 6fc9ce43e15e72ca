"""`docgen send` (issue 42, DESIGN.md A26): the forms stage mailed person by person with the
cover letter counsel approved, as .eml drafts or through a real SMTP server on 127.0.0.1
(aiosmtpd, STARTTLS and AUTH, a CA made in the test); reminders after an intake; nothing sent
twice; each bad input refused with its message and exit code."""

from __future__ import annotations

import datetime as dt
import email
import email.policy
import hashlib
import ipaddress
import json
import re
import shutil
import socket
import ssl
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.x509.oid import NameOID

from docgen.load import load_facts
from docgen.send.letters import FORMS_OUT, REMINDER, review
from tests.fillers import pypdf_fill
from tests.signing_pki import _key, _name, certificate, pem

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "director-grant-2026.yaml"
AS_OF = "2026-06-22"
SENDING = """sending:
  from_name: Jane Roe, Corporate Secretary
  from_address: corporate.secretary@carmax.example
  ask: Jane Roe at (804) 747-0422 or corporate.secretary@carmax.example
  return_to: reply to this message with page 2 signed and attached, or hand it to Jane Roe
"""


def _facts_text() -> str:
    """The sample as the README's tour has it: a sending block, the letters approved, and an
    address for everyone but ebrooks."""
    text = SAMPLE.read_text(encoding="utf-8")
    assert SENDING in text and "    email: jsmith@carmax.example\n" in text
    assert "  - id: ebrooks" in text and "email: ebrooks" not in text
    return text


def _unmailed_text() -> str:
    """The sample without anything only `docgen send` reads."""
    text = _facts_text().replace(SENDING, "")
    text = re.sub(r"    email: [^\n]*\n", "", text)
    return re.sub(r"  - clause: letter\.[a-z-]+\n(    [^\n]*\n|      [^\n]*\n)+", "", text)


def _approve(path: Path) -> None:
    """Counsel's approval of both letters' present wording, added to clause_approvals."""
    loaded = load_facts(path)
    text = path.read_text(encoding="utf-8")
    for letter in (FORMS_OUT, REMINDER):
        seen = review(loaded, letter)
        if seen.approved:
            continue
        entry = (
            f"  - clause: {letter.id}\n    sha256: {seen.sha256}\n    by: A. Counsel\n"
            "    on: 2026-05-01\n"
        )
        text = text.replace("clause_approvals:\n", "clause_approvals:\n" + entry, 1)
    path.write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def issued(tmp_path_factory):
    """The elections stage issued once for the module (copied per test)."""
    from docgen import api

    folder = tmp_path_factory.mktemp("issued")
    facts = folder / "grant.yaml"
    facts.write_text(_facts_text(), encoding="utf-8")
    _approve(facts)
    api.batch(facts, folder / "out", stage="elections", as_of=dt.date.fromisoformat(AS_OF))
    return folder


@pytest.fixture
def cycle(issued, tmp_path):
    shutil.copytree(issued, tmp_path / "c")
    return tmp_path / "c"


STAGE = Path("out/2026-annual/elections")


def _manifest(cycle: Path) -> dict:
    return json.loads((cycle / STAGE / "manifest.json").read_text(encoding="utf-8"))


def _log(cycle: Path) -> list[dict]:
    return json.loads((cycle / STAGE / "sent.json").read_text(encoding="utf-8"))["messages"]


def _parsed(data: bytes) -> email.message.EmailMessage:
    return email.message_from_bytes(data, policy=email.policy.default)


def _check_message(message, cycle: Path, who: str, name: str) -> str:
    """Headers, the letter, each attachment byte for byte as the manifest lists it."""
    assert message["To"].addresses[0].addr_spec == f"{who}@carmax.example"
    assert message["To"].addresses[0].display_name == name
    assert message["From"].addresses[0].addr_spec == "corporate.secretary@carmax.example"
    assert message["Message-ID"].startswith("<") and "@carmax.example>" in message["Message-ID"]
    assert message["Bcc"] is None and message["Cc"] is None
    text = message.get_body(("plain",)).get_content().replace("\r\n", "\n")
    assert max(len(line) for line in text.splitlines()) <= 72
    files = _manifest(cycle)["files"]
    attachments = list(message.iter_attachments())
    assert [a.get_filename() for a in attachments] == [f"exhibit-i-{who}.pdf"]
    data = attachments[0].get_content()
    assert hashlib.sha256(data).hexdigest() == files[f"{who}/exhibit-i.pdf"]["sha256"]
    assert data == (cycle / STAGE / who / "exhibit-i.pdf").read_bytes()
    return text


# ------------------------------------------------------------------------- .eml drafts


@pytest.mark.slow
def test_eml_drafts_one_per_person_then_nothing_twice(cli, cycle, monkeypatch):
    monkeypatch.chdir(cycle)
    result = cli("send", "grant.yaml", "--out", "out", "--eml", "drafts", "--as-of", AS_OF)
    # ebrooks has no address: named and skipped, the rest drafted, exit 1
    assert result.exit_code == 1, result.output
    assert "no address ebrooks (Evelyn Brooks): no email (grant.yaml:" in result.stderr
    drafts = sorted(p.name for p in (cycle / "drafts").iterdir())
    assert len(drafts) == 9 and "ebrooks-forms-out.eml" not in drafts
    message = _parsed((cycle / "drafts" / "rgarcia-forms-out.eml").read_bytes())
    assert message["X-Unsent"] == "1"
    assert message["Subject"] == "Exhibit I Deferral Election Form: last day June 22, 2026"
    text = _check_message(message, cycle, "rgarcia", "Roberto García")
    assert text.startswith(
        "Dear Mr. García,\n\nYour Exhibit I Deferral Election Form from CarMax, Inc. is"
    )
    text = " ".join(text.split())
    assert "no later than June 22, 2026" in text
    assert "To return it: reply to this message with page 2 signed and attached, or hand it to " \
        "Jane Roe." in text  # fmt: skip
    assert "please ask Jane Roe at (804) 747-0422 or corporate.secretary@carmax.example." in text
    log = _log(cycle)
    assert [m["subject"] for m in log] == [
        "jsmith", "rgarcia", "mobrien", "tnguyen", "akhan", "lchen", "dwhite",
        "sjohnson-ames", "pmurphy",
    ]  # fmt: skip
    entry = log[1]
    assert entry["outcome"] == "drafted" and entry["address"] == "rgarcia@carmax.example"
    assert entry["message_id"] == message["Message-ID"]
    assert entry["attachments"] == [
        {"file": "rgarcia/exhibit-i.pdf", "sha256": _manifest(cycle)["files"][
            "rgarcia/exhibit-i.pdf"]["sha256"]}
    ]  # fmt: skip
    # The stage folder with its send log still verifies.
    assert cli("verify", str(STAGE)).exit_code == 0
    # A second send sends nothing; --again sends one person's anew.
    again = cli("send", "grant.yaml", "--out", "out", "--eml", "drafts", "--as-of", AS_OF)
    assert "0 form messages drafted" in again.stdout
    assert "not sent jsmith (Jane Q. Smith): already sent" in again.stdout
    assert len(_log(cycle)) == 9 and len(list((cycle / "drafts").iterdir())) == 9
    one = cli("send", "grant.yaml", "--out", "out", "--eml", "drafts", "--again", "jsmith",
              "--as-of", AS_OF)  # fmt: skip
    assert "1 form message drafted" in one.stdout
    assert (cycle / "drafts" / "jsmith-forms-out-2.eml").is_file()
    # An altered log is found by verify.
    path = cycle / STAGE / "sent.json"
    path.write_text(path.read_text().replace("rgarcia@", "rgarcla@"))
    changed = cli("verify", str(STAGE))
    assert changed.exit_code == 1
    assert "sent.json: changed: its messages are not as docgen recorded them" in changed.output


@pytest.mark.slow
def test_a_changed_attachment_refuses_the_run_before_anything_is_sent(cli, cycle, monkeypatch):
    monkeypatch.chdir(cycle)
    pdf = cycle / STAGE / "lchen" / "exhibit-i.pdf"
    pdf.write_bytes(pdf.read_bytes() + b"\n%changed\n")
    result = cli("send", "grant.yaml", "--out", "out", "--eml", "drafts", "--as-of", AS_OF)
    assert result.exit_code == 2
    assert "lchen/exhibit-i.pdf: changed since it was issued" in result.stderr
    assert "nothing was sent" in result.stderr
    assert not (cycle / "drafts").exists() and not (cycle / STAGE / "sent.json").exists()


@pytest.mark.slow
def test_an_unapproved_letter_sends_nothing(cli, cycle, monkeypatch):
    monkeypatch.chdir(cycle)
    facts = cycle / "grant.yaml"
    facts.write_text(re.sub(r"  - clause: letter\.forms-out\n(    [^\n]*\n|      [^\n]*\n)+", "",
                            facts.read_text()))  # fmt: skip
    result = cli("send", "grant.yaml", "--out", "out", "--eml", "drafts", "--as-of", AS_OF)
    assert result.exit_code == 1
    assert "the wording of letter.forms-out (Cover letter sent with the blank form) is not " \
        "approved; nothing was sent" in " ".join(result.stderr.split())  # fmt: skip
    assert not (cycle / "drafts").exists()


def test_ca_file_with_text_before_its_certificate_is_read_as_pem(tmp_path):
    """--ca-file as `openssl pkcs12 -out` writes it ("Bag Attributes" lines above the
    certificate) is a PEM file, as OpenSSL's cafile read it; not refused as DER (the CA file is
    read through safe_open and handed to OpenSSL as cadata)."""
    from docgen.send.transport import tls_context

    ca, _, _ = _server_certificates(tmp_path)
    bag = tmp_path / "bag.pem"
    bag.write_bytes(b"Bag Attributes\n    friendlyName: Test Mail CA\n" + ca.read_bytes())
    names = [c["subject"] for c in tls_context(bag).get_ca_certs()]
    assert names == [((("organizationName", "docgen tests"),), (("commonName", "Test Mail CA"),))]


@pytest.mark.slow
def test_dry_run_shows_who_would_get_what(cli, cycle, monkeypatch):
    monkeypatch.chdir(cycle)
    result = cli("send", "grant.yaml", "--out", "out", "--dry-run", "--as-of", AS_OF)
    assert "would send jsmith (Jane Q. Smith <jsmith@carmax.example>): jsmith/exhibit-i.pdf" in (
        result.stdout
    )
    assert "9 form messages would be sent" in result.stdout
    assert not (cycle / STAGE / "sent.json").exists()


# ------------------------------------------------------------------- a real SMTP server


def _server_certificates(folder: Path) -> tuple[Path, Path, Path]:
    """A test CA, and a certificate for 127.0.0.1 it signed (key and chain as PEM files)."""
    ca_key, key = _key(), _key()
    ca_name = _name("Test Mail CA", "docgen tests")
    ca = certificate(ca_name, ca_key, ca_name, ca_key, ca=True)
    now = dt.datetime.now(dt.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "127.0.0.1")]))
        .issuer_name(ca_name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - dt.timedelta(days=1))
        .not_valid_after(now + dt.timedelta(days=30))
        .add_extension(
            x509.SubjectAlternativeName([x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]),
            critical=False,
        )
        .sign(ca_key, hashes.SHA256())
    )
    (folder / "ca.pem").write_bytes(pem(ca))
    (folder / "server.pem").write_bytes(pem(cert))
    (folder / "server.key").write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return folder / "ca.pem", folder / "server.pem", folder / "server.key"


class _Inbox:
    def __init__(self, refuse: set[str]):
        self.received: list[tuple[list[str], bytes]] = []
        self.refuse = refuse

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refuse:
            return "550 5.1.1 no such mailbox"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.received.append((list(envelope.rcpt_tos), envelope.original_content))
        return "250 Message accepted"


@pytest.fixture
def smtp_server(tmp_path):
    """aiosmtpd on 127.0.0.1: STARTTLS required, AUTH (user secretary, password s3cret) only
    over TLS; it refuses mail to tnguyen."""
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult

    ca, cert, key = _server_certificates(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)

    def authenticator(server, session, envelope, mechanism, auth_data):
        ok = auth_data.login == b"secretary" and auth_data.password == b"s3cret"
        return AuthResult(success=ok, handled=False)  # the server answers 535 itself

    inbox = _Inbox({"tnguyen@carmax.example"})
    with socket.socket() as probe:  # a free port (the controller's start-up check needs one)
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(
        inbox,
        hostname="127.0.0.1",
        port=port,
        tls_context=context,
        require_starttls=True,
        authenticator=authenticator,
        auth_require_tls=True,
    )
    controller.start()
    try:
        yield inbox, port, ca
    finally:
        controller.stop()


def _smtp_config(cycle: Path, port: int, ca: Path | None) -> Path:
    config = cycle / "smtp.toml"
    lines = ["[smtp]", 'host = "127.0.0.1"', f"port = {port}", 'security = "starttls"',
             'user = "secretary"']  # fmt: skip
    if ca is not None:
        lines.append(f'ca_file = "{ca}"')
    config.write_text("\n".join(lines) + "\n")
    return config


@pytest.mark.slow
def test_smtp_sends_over_starttls_with_auth_and_reminds_after_intake(
    cli, cycle, smtp_server, monkeypatch
):
    inbox, port, ca = smtp_server
    monkeypatch.chdir(cycle)
    monkeypatch.setenv("DOCGEN_SMTP_PASSWORD", "s3cret")
    config = _smtp_config(cycle, port, ca)
    result = cli("send", "grant.yaml", "--out", "out", "--smtp", "--smtp-config", config,
                 "--as-of", AS_OF)  # fmt: skip
    # ebrooks has no address, the server refused tnguyen: exit 1, the other 8 received
    assert result.exit_code == 1, result.output
    assert "refused tnguyen (Thanh Nguyen <tnguyen@carmax.example>): 550 5.1.1 no such mailbox" in (
        " ".join(result.stderr.split())
    )
    received = {rcpt[0]: _parsed(data) for rcpt, data in inbox.received}
    assert len(received) == 8 and "tnguyen@carmax.example" not in received
    message = received["jsmith@carmax.example"]
    assert message["X-Unsent"] is None
    text = _check_message(message, cycle, "jsmith", "Jane Q. Smith")
    assert "no later than June 22, 2026" in " ".join(text.split())
    log = {m["subject"]: m for m in _log(cycle)}
    assert log["tnguyen"]["outcome"] == "refused" and "550" in log["tnguyen"]["detail"]
    assert log["jsmith"]["outcome"] == "sent"
    assert log["jsmith"]["message_id"] == message["Message-ID"]
    # A second send: only the one the server refused is tried again (still refused).
    inbox.received.clear()
    cli("send", "grant.yaml", "--out", "out", "--smtp", "--smtp-config", config, "--as-of", AS_OF)
    assert inbox.received == []
    # status shows the day each was e-mailed
    status = cli("status", "grant.yaml", "--out", "out", "--as-of", AS_OF, "--format", "json")
    rows = {row["subject"]: row for row in json.loads(status.stdout)["subjects"]}
    assert rows["jsmith"]["emailed_on"] == log["jsmith"]["when"][:10]
    assert rows["tnguyen"]["emailed_on"] is None and rows["ebrooks"]["emailed_on"] is None
    # One form comes back (docgen intake); reminders go to the others only, never twice a day.
    # (an election in effect from before the forms went out is on record, though not a return)
    awaited = [s for s, row in rows.items() if not row["returned"] and not row["in_effect"]]
    back = next(s for s in awaited if s not in ("ebrooks", "tnguyen"))
    blank = (cycle / STAGE / back / "exhibit-i.pdf").read_bytes()
    form = cycle / "back.pdf"
    form.write_bytes(
        pypdf_fill(
            blank,
            {"pay_on": "separation", "printed_name": rows[back]["name"], "date_signed": AS_OF},
        )
    )
    taken = cli("intake", "grant.yaml", form, "--received-on", AS_OF, "--as-of", AS_OF)
    assert taken.exit_code in (0, 1), taken.output  # recorded
    assert f"{back}" in taken.stdout
    # Two more have no form on record (their forms taken out of the facts for the test).
    facts = cycle / "grant.yaml"
    text = facts.read_text(encoding="utf-8")
    for filed in ("2026-06-15", "2026-04-30"):  # akhan's, dwhite's
        form_entry = (
            "    elections:\n      - grant_id: 2026-annual\n"
            f"        filed_on: {filed}\n        percent: 100\n        pay_on: separation\n"
        )
        assert text.count(form_entry) == 1
        text = text.replace(form_entry, "    elections: []\n")
    facts.write_text(text, encoding="utf-8")
    inbox.received.clear()
    reminded = cli("send", "grant.yaml", "--out", "out", "--smtp", "--smtp-config", config,
                   "--reminders", "--as-of", AS_OF)  # fmt: skip
    got = {rcpt[0].split("@")[0] for rcpt, _ in inbox.received}
    # tnguyen: the server refuses; ebrooks: no address; the one taken back: recorded
    assert got == {"akhan", "dwhite"}, reminded.output
    assert reminded.exit_code == 1
    assert "not sent jsmith (Jane Q. Smith): form recorded" in reminded.stdout
    assert f"not sent {back} ({rows[back]['name']}): form recorded" in reminded.stdout
    reminder = _parsed(inbox.received[0][1])
    assert reminder["Subject"].startswith("Reminder: Exhibit I Deferral Election Form")
    assert "has not yet recorded your Exhibit I Deferral Election Form" in " ".join(
        reminder.get_body(("plain",)).get_content().split()
    )
    inbox.received.clear()
    cli("send", "grant.yaml", "--out", "out", "--smtp", "--smtp-config", config, "--reminders",
        "--as-of", AS_OF)  # fmt: skip
    assert inbox.received == []
    assert cli("verify", str(STAGE)).exit_code == 0


@pytest.mark.slow
def test_smtp_refuses_an_untrusted_certificate_and_a_wrong_password(
    cli, cycle, smtp_server, monkeypatch
):
    inbox, port, ca = smtp_server
    monkeypatch.chdir(cycle)
    monkeypatch.setenv("DOCGEN_SMTP_PASSWORD", "s3cret")
    untrusted = cli("send", "grant.yaml", "--out", "out", "--smtp", "--smtp-config",
                    _smtp_config(cycle, port, None), "--as-of", AS_OF)  # fmt: skip
    assert untrusted.exit_code == 2
    assert f"127.0.0.1:{port}: its certificate is not trusted" in untrusted.stderr
    monkeypatch.setenv("DOCGEN_SMTP_PASSWORD", "wrong")
    wrong = cli("send", "grant.yaml", "--out", "out", "--smtp", "--smtp-config",
                _smtp_config(cycle, port, ca), "--as-of", AS_OF)  # fmt: skip
    assert wrong.exit_code == 2
    assert f"127.0.0.1:{port}: refused the login secretary (535" in wrong.stderr
    monkeypatch.delenv("DOCGEN_SMTP_PASSWORD")
    none = cli("send", "grant.yaml", "--out", "out", "--smtp", "--smtp-config",
               _smtp_config(cycle, port, ca), "--as-of", AS_OF)  # fmt: skip
    assert none.exit_code == 2
    assert "needs a password: set DOCGEN_SMTP_PASSWORD" in none.stderr
    assert inbox.received == [] and not (cycle / STAGE / "sent.json").exists()


# ------------------------------------------------------------- refused at load (fast)


@pytest.mark.parametrize(
    ("before", "after", "message"),
    [
        (
            "    name: Jane Q. Smith ",
            '    name: "Jane Q. Smith\\r\\nBcc: everyone@example.com" ',
            "directors[0].name: contains a line break",
        ),
        (
            "    email: jsmith@carmax.example\n",
            '    email: "jsmith@carmax.example\\r\\nBcc: x@example.com"\n',
            "directors[0].email: 'jsmith@carmax.example\\r\\nBcc: x@example.com' is not one "
            "e-mail address",
        ),
        (
            "    email: jsmith@carmax.example\n",
            "    email: Jane Smith <jsmith@carmax.example>\n",
            "directors[0].email: 'Jane Smith <jsmith@carmax.example>' is not one e-mail address",
        ),
        (
            "    email: jsmith@carmax.example\n",
            "    email: jsmith@carmax\n",
            "directors[0].email: 'jsmith@carmax' is not one e-mail address",
        ),
        (
            "  from_address: corporate.secretary@carmax.example\n",
            "  from_address: a@b.example, c@d.example\n",
            "sending.from_address: 'a@b.example, c@d.example' is not one e-mail address",
        ),
    ],
)
def test_a_header_injection_or_a_bad_address_is_refused_at_load(
    cli, tmp_path, before, after, message
):
    text = _facts_text()
    assert before in text
    facts = tmp_path / "grant.yaml"
    facts.write_text(text.replace(before, after, 1), encoding="utf-8")
    result = cli("validate", facts)
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())


def test_addresses_and_the_sending_block_are_in_no_packet_slice(tmp_path):
    """Adding an address or the sender re-issues nothing: no document prints them."""
    from docgen.kinds import kind_of

    plain = tmp_path / "plain.yaml"
    plain.write_text(_unmailed_text(), encoding="utf-8")
    assert "clause: letter." not in plain.read_text() and "    email:" not in plain.read_text()
    mailed = tmp_path / "mailed.yaml"
    mailed.write_text(_facts_text(), encoding="utf-8")
    _approve(mailed)
    slices = []
    for path in (plain, mailed):
        facts = load_facts(path).facts
        slices.append(kind_of(facts).slices(facts, ["jsmith"]))
    assert slices[0] == slices[1]


def test_the_letters_are_listed_by_clauses_with_their_sha256(cli, tmp_path):
    facts = tmp_path / "grant.yaml"
    facts.write_text(_facts_text(), encoding="utf-8")
    result = cli("clauses", facts)
    loaded = load_facts(facts)
    for letter in (FORMS_OUT, REMINDER):
        assert f"  - clause: {letter.id}\n    sha256: {review(loaded, letter).sha256}" in (
            result.stdout
        )


# ------------------------------------------------------------------ bad input, pinned


@pytest.mark.slow
@pytest.mark.parametrize(
    ("args", "edit", "code", "message"),
    [
        (["--eml", "d", "--smtp"], None, 2, "--eml and --smtp: choose one"),
        ([], None, 2, "Say where the messages go: --eml FOLDER (drafts) or --smtp (send)."),
        (["--eml", "d", "--days-before", "3"], None, 2, "--days-before: only with --reminders."),
        (["--eml", "d", "--ca-file", "ca.pem"], None, 2, "--smtp-config and --ca-file: only "),
        (["--eml", "d", "--stage", "grant"], None, 2, "--stage grant: docgen sends the forms of "
         "stage elections, the stage a director-rsu-grant file issues them at."),
        (["--eml", "d", "--again", "nobody"], None, 2, "--again nobody: no such person in "),
        (["--eml", "out/2026-annual/elections/d"], None, 2, "--eml out/2026-annual/elections/d: "
         "inside the issued folder"),
        (["--eml", "d"], (SENDING, ""), 2, "grant.yaml: no sending: block. Add one"),
        (["--smtp"], None, 2, "--smtp: no mail server named. Add sending.smtp"),
        (["--smtp", "--smtp-config", "smtp.toml"], "password", 2, "smtp.toml: [smtp] has "
         "password, which docgen does not read"),
    ],
)  # fmt: skip
def test_each_bad_input_is_refused_with_its_message(cli, cycle, monkeypatch, args, edit, code,
                                                     message):  # fmt: skip
    monkeypatch.chdir(cycle)
    if isinstance(edit, tuple):
        facts = cycle / "grant.yaml"
        facts.write_text(facts.read_text().replace(*edit))
    if edit == "password":
        (cycle / "smtp.toml").write_text('[smtp]\nhost = "127.0.0.1"\npassword = "hunter2"\n')
    result = cli("send", "grant.yaml", "--out", "out", *args, "--as-of", AS_OF)
    assert result.exit_code == code, result.output
    assert message in " ".join(result.stderr.split())
    assert not (cycle / STAGE / "sent.json").exists()


@pytest.fixture
def tls_server(tmp_path):
    """aiosmtpd speaking TLS from the first byte (port 465 style), no login."""
    from aiosmtpd.controller import Controller

    ca, cert, key = _server_certificates(tmp_path)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    inbox = _Inbox(set())
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(inbox, hostname="127.0.0.1", port=port, ssl_context=context)
    controller.start()
    try:
        yield inbox, port, ca
    finally:
        controller.stop()


@pytest.mark.slow
def test_implicit_tls_and_days_before(cli, cycle, tls_server, monkeypatch):
    inbox, port, ca = tls_server
    monkeypatch.chdir(cycle)
    facts = cycle / "grant.yaml"
    facts.write_text(
        facts.read_text().replace(
            SENDING,
            SENDING + f"  smtp:\n    host: 127.0.0.1\n    port: {port}\n    security: tls\n",
        )
    )
    # The last day is 2026-06-20 days away on 2026-06-01: --days-before 7 sends no reminder yet.
    early = cli("send", "grant.yaml", "--out", "out", "--smtp", "--ca-file", ca, "--reminders",
                "--days-before", "7", "--as-of", "2026-06-01")  # fmt: skip
    assert early.exit_code == 0, early.output
    assert inbox.received == []
    assert "not sent tnguyen (Thanh Nguyen): 21 days left (reminders from 7 days before)" in (
        early.stdout
    )
    # On the last day itself a reminder goes (0 days left), to the two with no form on record.
    due = cli("send", "grant.yaml", "--out", "out", "--smtp", "--ca-file", ca, "--reminders",
              "--days-before", "7", "--as-of", AS_OF)  # fmt: skip
    assert due.exit_code == 1  # ebrooks: no address
    assert sorted(r[0][0] for r in inbox.received) == [
        "sjohnson-ames@carmax.example", "tnguyen@carmax.example"
    ]  # fmt: skip
    text = _parsed(inbox.received[0][1]).get_body(("plain",)).get_content()
    assert "The last day to return it is June 22, 2026, today." in " ".join(text.split())
    # The day after the last day: no reminder (the window has closed).
    late = cli("send", "grant.yaml", "--out", "out", "--smtp", "--ca-file", ca, "--reminders",
               "--again", "tnguyen", "--as-of", "2026-06-23")  # fmt: skip
    assert "not sent tnguyen (Thanh Nguyen): the last day has passed" in late.stdout
    assert len(inbox.received) == 2


@pytest.mark.slow
def test_a_reissue_keeps_the_send_log_and_a_changed_form_goes_again(cli, cycle, monkeypatch):
    monkeypatch.chdir(cycle)
    cli("send", "grant.yaml", "--out", "out", "--eml", "drafts", "--as-of", AS_OF)
    log = (cycle / STAGE / "sent.json").read_bytes()
    # jsmith's address changes: her packet is re-issued; the log is carried as it was.
    facts = cycle / "grant.yaml"
    facts.write_text(facts.read_text().replace("12 Oak Lane", "14 Oak Lane", 1))
    result = cli("batch", "grant.yaml", "--out", "out", "--stage", "elections", "--as-of", AS_OF)
    assert result.exit_code == 0, result.output
    assert (cycle / STAGE / "sent.json").read_bytes() == log
    assert sorted(p.name for p in (cycle / STAGE).parent.iterdir()) == ["elections", "returned"]
    assert cli("verify", str(STAGE)).exit_code == 0
    again = cli("send", "grant.yaml", "--out", "out", "--eml", "drafts", "--as-of", AS_OF)
    sent = [line for line in again.stdout.splitlines() if line.startswith("drafted")]
    reissued = {p.name for p in (cycle / STAGE / "superseded" / "1").iterdir() if p.is_dir()}
    assert reissued and {line.split()[1] for line in sent} == reissued


# ------------------------------------------------------------ the README's secretary tour


@pytest.mark.slow
def test_the_secretary_tour_runs_as_written_into_one_out_folder(tmp_path):
    """The README's tour as written, every line, from the sample: the forms go out as .eml
    drafts, two come back through `intake` (filled as a director's PDF viewer would), the
    reminders go to the one director still awaited who has an address, a paper form is recorded
    and its signature seen, a form decided not in effect, and the grant packets issued into the
    same --out as the forms, beside them; the on-file copy says who saw the signature."""
    import shlex
    import subprocess

    import pypdf

    from tests.test_batch import DOCGEN

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    tour = readme.split("### The election loop, as the secretary runs it", 1)[1]
    block = tour.split("```sh", 1)[1].split("```", 1)[0].replace("\\\n", " ")
    lines = [line.split("  #")[0].strip() for line in block.strip().splitlines()]
    shutil.copytree(ROOT / "samples", tmp_path / "samples")

    def run(line: str) -> subprocess.CompletedProcess:
        argv = shlex.split(line)
        return subprocess.run(
            [str(DOCGEN), *argv[1:]], cwd=tmp_path, capture_output=True, text=True, timeout=300
        )

    assert lines[0].startswith("cp samples/director-grant-2026.yaml grant.yaml")
    shutil.copy(tmp_path / "samples" / "director-grant-2026.yaml", tmp_path / "grant.yaml")
    outs = {argv[argv.index("--out") + 1] for argv in map(shlex.split, lines) if "--out" in argv}
    assert outs == {"out"}  # one --out folder throughout
    batch, send, status, intake, reminders, elect, seen, decide, check, grant = lines[1:]
    assert "--reminders" in reminders and "--signature-seen-by" in seen
    assert run(batch).returncode == 0
    sent = run(send)
    assert sent.returncode == 1  # ebrooks has no address in the sample
    assert "no address ebrooks (Evelyn Brooks)" in sent.stderr
    drafts = sorted(p.name for p in (tmp_path / "drafts").iterdir())
    assert len(drafts) == 9
    assert run(status).returncode == 0
    forms = tmp_path / "out" / "2026-annual" / "elections"
    (tmp_path / "inbox").mkdir()
    for who, name in (("tnguyen", "Thanh Nguyen"), ("ebrooks", "Evelyn Brooks")):
        filled = pypdf_fill(
            (forms / who / "exhibit-i.pdf").read_bytes(),
            {"pay_on": "separation", "printed_name": name, "date_signed": "2026-06-20"},
        )
        (tmp_path / "inbox" / f"{who}.pdf").write_bytes(filled)
    taken = run(intake)
    assert taken.returncode in (0, 1), taken.stdout + taken.stderr
    reminded = run(reminders)
    assert reminded.returncode == 0, reminded.stdout + reminded.stderr
    new = sorted(p.name for p in (tmp_path / "drafts").iterdir() if p.name not in drafts)
    assert new == ["sjohnson-ames-reminder-" + dt.datetime.now(dt.UTC).date().isoformat() + ".eml"]
    assert "not sent tnguyen (Thanh Nguyen): form recorded" in reminded.stdout
    message = _parsed((tmp_path / "drafts" / new[0]).read_bytes())
    assert message["To"].addresses[0].addr_spec == "sjohnson-ames@carmax.example"
    assert [a.get_filename() for a in message.iter_attachments()] == ["exhibit-i-sjohnson-ames.pdf"]
    assert run(reminders).returncode == 0  # nothing twice: no new draft
    assert len(list((tmp_path / "drafts").iterdir())) == 10
    for line in (elect, seen, decide, check):
        done = run(line)
        assert done.returncode == 0, line + "\n" + done.stdout + done.stderr
    issued = run(grant)
    assert issued.returncode == 0, issued.stdout + issued.stderr
    stages = sorted(p.name for p in (tmp_path / "out" / "2026-annual").iterdir() if p.is_dir())
    assert {"elections", "grant"} <= set(stages)
    on_file = tmp_path / "out" / "2026-annual" / "grant" / "sjohnson-ames" / "exhibit-i.pdf"
    words = " ".join(
        " ".join(page.extract_text() for page in pypdf.PdfReader(on_file).pages).split()
    )
    assert "the signature was seen by C. Secretary" in words


# ----------------------------------------------------------------- the RRP's enrollment


@pytest.mark.slow
def test_the_rrp_enrollment_forms_go_out_with_their_own_deadline(cli, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    text = (ROOT / "samples" / "rrp-2026.yaml").read_text(encoding="utf-8")
    text = text.replace("clause_approvals:\n", SENDING + "clause_approvals:\n", 1)
    text = re.sub(r"(  - id: (e\d+)\b[^\n]*\n)", r"\1    email: \2@example.com\n", text)
    facts = tmp_path / "rrp.yaml"
    facts.write_text(text, encoding="utf-8")
    _approve(facts)
    issued = cli("batch", "rrp.yaml", "--out", "out", "--as-of", "2025-12-01")
    assert issued.exit_code == 0, issued.output
    stage = tmp_path / "out" / "rrp-2026" / "enrollment"
    sent = cli("send", "rrp.yaml", "--out", "out", "--eml", "drafts", "--as-of", "2025-12-01")
    assert sent.exit_code == 0, sent.output
    manifest = json.loads((stage / "manifest.json").read_text(encoding="utf-8"))
    assert len(list((tmp_path / "drafts").iterdir())) == len(manifest["packets"])
    packet = manifest["packets"][0]
    who = packet["subject"]
    message = _parsed((tmp_path / "drafts" / f"{who}-forms-out.eml").read_bytes())
    assert message["To"].addresses[0].addr_spec == f"{who}@example.com"
    (attachment,) = message.iter_attachments()
    pdf = packet["documents"][0]["files"]["pdf"]
    assert attachment.get_content() == (stage / pdf).read_bytes()
    assert hashlib.sha256(attachment.get_content()).hexdigest() == manifest["files"][pdf]["sha256"]
    text = " ".join(message.get_body(("plain",)).get_content().split())
    assert "Deferral Election Form" in message["Subject"]
    status = cli("status", "rrp.yaml", "--out", "out", "--as-of", "2025-12-01", "--format", "json")
    rows = {row["subject"]: row for row in json.loads(status.stdout)["subjects"]}
    deadline = dt.date.fromisoformat(rows[who]["deadline"])
    assert f"no later than {deadline:%B} {deadline.day}, {deadline.year}" in text
    assert rows[who]["emailed_on"] is not None


@pytest.mark.slow
def test_a_held_person_is_sent_nothing(cli, tmp_path, monkeypatch):
    """June 1: akhan's and pmurphy's packets are held (`batch --hold`); neither the forms nor a
    reminder go to them."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "grant.yaml").write_text(_facts_text(), encoding="utf-8")
    issued = cli("batch", "grant.yaml", "--out", "out", "--stage", "elections", "--as-of",
                 "2026-06-01", "--hold", "akhan", "--hold", "pmurphy")  # fmt: skip
    assert issued.exit_code == 0, issued.output
    sent = cli("send", "grant.yaml", "--out", "out", "--eml", "d", "--as-of", "2026-06-01")
    assert "not sent akhan (Aisha Khan): held" in sent.stdout
    assert "not sent pmurphy (Patrick Murphy & Sons Trustee Designee): held" in sent.stdout
    reminded = cli("send", "grant.yaml", "--out", "out", "--eml", "d", "--reminders", "--as-of",
                   "2026-06-01")  # fmt: skip
    assert "not sent akhan (Aisha Khan): held" in reminded.stdout
    names = {p.name.split("-")[0] for p in (tmp_path / "d").iterdir()}
    assert not names & {"akhan", "pmurphy"}


def test_a_roster_gives_addresses_in_its_email_column(tmp_path):
    import csv
    import io

    shutil.copy(ROOT / "samples" / "director-grant-2026-roster.yaml", tmp_path / "cycle.yaml")
    text = (ROOT / "samples" / "roster.csv").read_text(encoding="utf-8")
    rows = list(csv.reader(io.StringIO(text)))
    rows = [rows[0] + ["email"]] + [row + [f"{row[0]}@example.com"] for row in rows[1:]]

    def write() -> None:
        buffer = io.StringIO()
        csv.writer(buffer, lineterminator="\n").writerows(rows)
        (tmp_path / "roster.csv").write_text(buffer.getvalue(), encoding="utf-8")

    write()
    facts = load_facts(tmp_path / "cycle.yaml").facts
    assert {d.email for d in facts.directors} == {f"{d.id}@example.com" for d in facts.directors}
    rows[1][-1] = "kpatel at example.com"
    write()
    with pytest.raises(Exception, match=r"roster\.csv:2.*'kpatel at example\.com' is not one e-m"):
        load_facts(tmp_path / "cycle.yaml")
