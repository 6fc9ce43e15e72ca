"""A company's signing key made in the test run, never the network: a test root CA, a signing
certificate (PKCS#12, passphrase "correct horse"), the bad ones signing must refuse (expired, no
document-signing key usage), another company's CA and key (a forger's), and an RFC 3161
timestamp server on 127.0.0.1 (pyHanko's DummyTimeStamper behind a small HTTP server)."""

from __future__ import annotations

import datetime as dt
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives.serialization import pkcs12
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

PASSPHRASE = "correct horse"
NOW = dt.datetime.now(dt.UTC)


def _key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def _name(common: str, org: str) -> x509.Name:
    return x509.Name(
        [
            x509.NameAttribute(NameOID.ORGANIZATION_NAME, org),
            x509.NameAttribute(NameOID.COMMON_NAME, common),
        ]
    )


def _usage(**allowed: bool) -> x509.KeyUsage:
    names = (
        "digital_signature content_commitment key_encipherment data_encipherment key_agreement "
        "key_cert_sign crl_sign encipher_only decipher_only"
    ).split()
    return x509.KeyUsage(**{name: allowed.get(name, False) for name in names})


def certificate(
    subject: x509.Name,
    key: rsa.RSAPrivateKey,
    issuer: x509.Name,
    issuer_key: rsa.RSAPrivateKey,
    *,
    ca: bool = False,
    usage: x509.KeyUsage | None = None,
    eku: list | None = None,
    not_before: dt.datetime = NOW - dt.timedelta(days=30),
    not_after: dt.datetime = NOW + dt.timedelta(days=365),
) -> x509.Certificate:
    builder = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(not_before)
        .not_valid_after(not_after)
        .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True)
    )
    if ca:
        usage = _usage(digital_signature=True, key_cert_sign=True, crl_sign=True)
    if usage is not None:
        builder = builder.add_extension(usage, critical=True)
    if eku:
        builder = builder.add_extension(x509.ExtendedKeyUsage(eku), critical=True)
    return builder.sign(issuer_key, hashes.SHA256())


def pem(cert: x509.Certificate) -> bytes:
    return cert.public_bytes(serialization.Encoding.PEM)


def p12(key, cert, chain, passphrase: str = PASSPHRASE) -> bytes:
    return pkcs12.serialize_key_and_certificates(
        b"signer", key, cert, chain, serialization.BestAvailableEncryption(passphrase.encode())
    )


@dataclass
class Pki:
    folder: Path
    ca_pem: Path  # the company's trust anchor (--trust)
    config: Path  # the good key, timestamped by the local server
    config_no_tsa: Path
    expired_config: Path
    no_usage_config: Path
    forger_config: Path  # another company's key, its own CA
    forger_ca_pem: Path
    tsa_url: str
    serial: int  # the good signing certificate's


def _config(folder: Path, name: str, key_file: str, tsa: str | None) -> Path:
    path = folder / name
    text = f'key = "{key_file}"\n'
    if tsa:
        text += f'timestamp_url = "{tsa}"\n'
    path.write_text(text, encoding="utf-8")
    return path


class _TsaHandler(BaseHTTPRequestHandler):
    stamper = None

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        from asn1crypto import tsp

        body = self.rfile.read(int(self.headers["Content-Length"]))
        reply = self.stamper.request_tsa_response(tsp.TimeStampReq.load(body)).dump()
        self.send_response(200)
        self.send_header("Content-Type", "application/timestamp-reply")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args) -> None:
        pass


def start_tsa(cert: x509.Certificate, key: rsa.RSAPrivateKey) -> tuple[str, ThreadingHTTPServer]:
    from asn1crypto import keys as asn1_keys
    from asn1crypto import x509 as asn1_x509
    from pyhanko.sign.timestamps.dummy_client import DummyTimeStamper

    der = serialization.Encoding.DER
    private = key.private_bytes(
        der, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    handler = type("Handler", (_TsaHandler,), {})
    handler.stamper = DummyTimeStamper(
        tsa_cert=asn1_x509.Certificate.load(cert.public_bytes(der)),
        tsa_key=asn1_keys.PrivateKeyInfo.load(private),
    )
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_address[1]}/", server


class TsaProcess:
    """The timestamp server in a process of its own (the bench: its signing is then not counted
    in the CPU time of the batch it serves, as a real server's is not)."""

    def __init__(self, cert: x509.Certificate, key: rsa.RSAPrivateKey) -> None:
        import multiprocessing

        context = multiprocessing.get_context("fork")
        here, there = context.Pipe()
        self.process = context.Process(target=self._serve, args=(cert, key, there), daemon=True)
        self.process.start()
        self.url = here.recv()

    @staticmethod
    def _serve(cert: x509.Certificate, key: rsa.RSAPrivateKey, pipe) -> None:
        url, server = start_tsa(cert, key)
        pipe.send(url)
        threading.Event().wait()

    def shutdown(self) -> None:
        self.process.terminate()
        self.process.join()


def make_pki(
    folder: Path, tsa_process: bool = False
) -> tuple[Pki, ThreadingHTTPServer | TsaProcess]:
    folder.mkdir(parents=True, exist_ok=True)
    ca_key, ca_name = _key(), _name("Test Co Root CA", "Test Co")
    ca = certificate(ca_name, ca_key, ca_name, ca_key, ca=True)
    signing = _usage(digital_signature=True, content_commitment=True)
    key = _key()
    good = certificate(_name("Corporate Secretary", "Test Co"), key, ca_name, ca_key, usage=signing)
    expired = certificate(
        _name("Corporate Secretary (old)", "Test Co"),
        key,
        ca_name,
        ca_key,
        usage=signing,
        not_before=NOW - dt.timedelta(days=400),
        not_after=NOW - dt.timedelta(days=1),
    )
    wrong_usage = certificate(
        _name("Mail encryption", "Test Co"),
        key,
        ca_name,
        ca_key,
        usage=_usage(key_encipherment=True),
    )
    tsa_key = _key()
    tsa = certificate(
        _name("Test Co TSA", "Test Co"),
        tsa_key,
        ca_name,
        ca_key,
        usage=signing,
        eku=[ExtendedKeyUsageOID.TIME_STAMPING],
    )
    forger_key, forger_name = _key(), _name("Forger Root CA", "Test Co")
    forger_ca = certificate(forger_name, forger_key, forger_name, forger_key, ca=True)
    forged = certificate(
        _name("Corporate Secretary", "Test Co"), forger_key, forger_name, forger_key, usage=signing
    )
    (folder / "ca.pem").write_bytes(pem(ca))
    (folder / "forger-ca.pem").write_bytes(pem(forger_ca))
    (folder / "company.p12").write_bytes(p12(key, good, [ca]))
    (folder / "expired.p12").write_bytes(p12(key, expired, [ca]))
    (folder / "encrypt-only.p12").write_bytes(p12(key, wrong_usage, [ca]))
    (folder / "forger.p12").write_bytes(p12(forger_key, forged, [forger_ca]))
    if tsa_process:
        server = TsaProcess(tsa, tsa_key)
        url = server.url
    else:
        url, server = start_tsa(tsa, tsa_key)
    pki = Pki(
        folder=folder,
        ca_pem=folder / "ca.pem",
        config=_config(folder, "signing.toml", "company.p12", url),
        config_no_tsa=_config(folder, "signing-no-tsa.toml", "company.p12", None),
        expired_config=_config(folder, "expired.toml", "expired.p12", None),
        no_usage_config=_config(folder, "encrypt-only.toml", "encrypt-only.p12", None),
        forger_config=_config(folder, "forger.toml", "forger.p12", None),
        forger_ca_pem=folder / "forger-ca.pem",
        tsa_url=url,
        serial=good.serial_number,
    )
    return pki, server


def pki_fixture(tmp_path_factory):
    """The test run's PKI and timestamp server (stopped when the module's tests end)."""
    made, server = make_pki(tmp_path_factory.mktemp("pki"))
    yield made
    server.shutdown()


def signing_fixture(pki):
    """The company's key, loaded as `batch --sign` loads it."""
    from docgen.issue.signing import SigningConfig, load

    return load(SigningConfig.read(pki.config), PASSPHRASE.encode())


def module_fixtures() -> tuple:
    """The two fixtures for a test module: ``pki, signing = module_fixtures()``."""
    return (
        pytest.fixture(scope="module", name="pki")(pki_fixture),
        pytest.fixture(scope="module", name="signing")(signing_fixture),
    )
