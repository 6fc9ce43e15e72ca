"""Signing as a step of issuing (DESIGN.md, "Signed documents"): `batch --sign` and `render --sign`
certify every issued PDF with the company's key, as an incremental update over the unsigned
document, which stays byte for byte what the same facts always make.

The key is named outside the facts file, in a small signing config (TOML; ``--sign-config PATH``
or the environment variable ``DOCGEN_SIGN_CONFIG``), with paths relative to it::

    key = "company.p12"            # a PKCS#12 file; or a PEM private key with chain = [...]
    chain = ["intermediate.pem"]   # the certificates above the signer's (optional for PKCS#12)
    timestamp_url = "http://tsa.example.com/"   # optional: RFC 3161 (PAdES B-T)

The passphrase comes from ``DOCGEN_SIGN_PASSPHRASE`` or a prompt, and is never written anywhere.
A wrong passphrase, a certificate that is expired or not yet valid, a key that does not match
its certificate, or a certificate whose key usage allows neither digitalSignature nor
nonRepudiation is refused (exit 2) before anything is rendered.

A document to keep (a Notice, an on-file copy) is certified with no changes allowed (DocMDP 1); a
blank form with form filling allowed (DocMDP 2). The signature is PAdES baseline (ETSI.CAdES.
detached), timestamped when a server is configured (B-T), with the signer's whole chain in the
signature and, when the chain ends in a root, in a document security store written in the
signature's own revision (B-LT's validation data, without revocation data: docgen.issue.
validation_data, checks/NOT_ENCODED.md). pyHanko is told not to rewrite the
XMP packet or the Info dictionary, so PDF/A-3b survives signing.
"""

from __future__ import annotations

import getpass
import io
import os
import re
import tomllib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from pathlib import Path
from typing import Any

from docgen.core.errors import DocgenError
from docgen.core.safe_open import read_regular, unreadable
from docgen.issue.tsa_exchange import ExchangeFailed, exchange
from docgen.issue.validation_data import (
    chain_problem,
    chained_paths,
    signature_settings,
    validation_context,
)

CONFIG_ENV = "DOCGEN_SIGN_CONFIG"
PASSPHRASE_ENV = "DOCGEN_SIGN_PASSPHRASE"
FIELD_NAME = "CompanyCertification"
TIMESTAMP_SECONDS = 20  # the whole exchange with the timestamp server, not each read
_CONTENTS = re.compile(rb"/Contents <([0-9A-Fa-f]+)>")


class SigningRefused(DocgenError):
    """The signing key cannot sign (its config, passphrase, certificate or timestamp server).
    Exit code 2; nothing is issued."""


@dataclass(frozen=True)
class SigningConfig:
    """Where the company's key is: the key file (PKCS#12, or PEM with a chain), the timestamp
    server, and the config file that named them (for messages)."""

    source: Path
    key: Path
    chain: tuple[Path, ...] = ()
    timestamp_url: str | None = None

    @classmethod
    def read(cls, path: str | Path) -> SigningConfig:
        path = Path(path)
        try:
            # A FIFO or device named here would block the read: refused unopened (safe_open)
            data = tomllib.loads(read_regular(path).decode("utf-8"))
        except OSError as error:
            raise SigningRefused(
                f"{path}: the signing config cannot be read ({unreadable(error)}). Name the TOML "
                f"file with --sign-config PATH or {CONFIG_ENV}."
            ) from None
        except (UnicodeDecodeError, tomllib.TOMLDecodeError) as error:
            raise SigningRefused(f"{path}: not a TOML signing config ({error}).") from None
        unknown = sorted(set(data) - {"key", "chain", "timestamp_url"})
        if unknown:
            raise SigningRefused(
                f"{path}: {', '.join(unknown)}: not a signing config key (expected key, chain, "
                "timestamp_url)."
            )
        key = data.get("key")
        if not isinstance(key, str) or not key:
            raise SigningRefused(
                f'{path}: key: name the PKCS#12 file or PEM private key, e.g. key = "company.p12".'
            )
        chain = data.get("chain", [])
        if isinstance(chain, str):
            chain = [chain]
        if not isinstance(chain, list) or not all(isinstance(c, str) for c in chain):
            raise SigningRefused(f'{path}: chain: a list of PEM files, e.g. ["ca.pem"].')
        url = data.get("timestamp_url")
        if url is not None and (
            not isinstance(url, str) or not url.startswith(("http:", "https:"))
        ):
            raise SigningRefused(
                f"{path}: timestamp_url: an http(s) URL of an RFC 3161 server (got {url!r})."
            )
        base = path.parent
        return cls(path, base / key, tuple(base / c for c in chain), url)

    @classmethod
    def named(cls, option: str | Path | None) -> SigningConfig:
        """The config ``--sign-config`` names, else the one the environment names."""
        named = option or os.environ.get(CONFIG_ENV)
        if not named:
            raise SigningRefused(
                f"--sign: name the signing config with --sign-config PATH or {CONFIG_ENV} (a TOML "
                'file: key = "company.p12", optional chain and timestamp_url).'
            )
        return cls.read(named)


def passphrase(prompt: bool) -> bytes | None:
    """The key's passphrase from the environment, else asked for at the terminal (never echoed,
    never written); None when there is neither (an unencrypted key)."""
    if PASSPHRASE_ENV in os.environ:
        return os.environ[PASSPHRASE_ENV].encode("utf-8")
    if prompt:
        return getpass.getpass("Passphrase for the signing key: ").encode("utf-8")
    return None


@dataclass
class Signing:
    """The company's key, loaded and checked, ready to certify PDFs (one per process: a worker
    forks with it)."""

    config: SigningConfig
    key: Any  # cryptography's private key
    certificate: Any  # cryptography's x509.Certificate
    chain: list[Any] = field(default_factory=list)
    # The room pyHanko reserved for the first signature (hex digits), reused for every other:
    # its estimate is a dry-run signature, as dear as the signature itself.
    reserved: int | None = field(default=None, compare=False)

    @cached_property
    def signer(self) -> Any:
        return _signer(self)

    @cached_property
    def validation(self) -> Any:
        """The validation context written with each signature (docgen.issue.validation_data),
        or None when the key file's chain holds no root."""
        return validation_context(self.certificate, self.chain)

    @cached_property
    def timestamper(self) -> Any:
        url = self.config.timestamp_url
        return url_timestamper(url) if url else None

    def prepare(self) -> None:
        """pyHanko imported and the signer built, once, before the batch's workers fork."""
        import pyhanko.pdf_utils.incremental_writer  # noqa: F401
        import pyhanko.sign.signers  # noqa: F401

        _ = self.signer, self.timestamper, self.validation

    def sign_pdf(self, data: bytes, *, fillable: bool) -> bytes:
        """``data`` certified: DocMDP form filling for a blank form, no changes otherwise."""
        from pyhanko.pdf_utils.incremental_writer import IncrementalPdfFileWriter
        from pyhanko.sign import signers
        from pyhanko.sign.fields import MDPPerm, SigSeedSubFilter
        from pyhanko.sign.general import SigningError

        writer = IncrementalPdfFileWriter(io.BytesIO(data))
        # pyHanko would rewrite the XMP packet and the Info dictionary's ModDate (from the
        # clock): left as WeasyPrint wrote them, the two agree and the PDF/A-3b identification
        # stands. pyHanko has no public switch for it; its maintainer names this override as the
        # way (MatthiasValvekens/pyHanko issue 223).
        writer._update_meta = lambda: None  # type: ignore[method-assign]
        meta = signers.PdfSignatureMetadata(
            field_name=FIELD_NAME,
            certify=True,
            docmdp_permissions=MDPPerm.FILL_FORMS if fillable else MDPPerm.NO_CHANGES,
            subfilter=SigSeedSubFilter.PADES,
            md_algorithm="sha256",
            reason="Issued by the company",
            **(signature_settings(self.validation) if self.validation is not None else {}),
        )
        try:
            with _streams_ended_safely():
                signed = signers.PdfSigner(
                    meta, signer=self.signer, timestamper=self.timestamper
                ).sign_pdf(writer, bytes_reserved=self.reserved)
        except SigningError as error:
            raise SigningRefused(f"signing failed: {error}") from None
        result = signed.getvalue()
        if self.reserved is None:
            found = _CONTENTS.search(result, len(data))
            self.reserved = len(found.group(1)) if found else None
        return result


@contextmanager
def _streams_ended_safely() -> Iterator[None]:
    """While pyHanko writes the signature's update, a stream whose data ends in a carriage return
    closes with CR LF before ``endstream`` (as docgen.render.pdf has WeasyPrint's do): with LF
    alone a reader counts one byte fewer than /Length (page-validation's PDFA3B-STREAM-LENGTH-001;
    the update's cross-reference stream ends in CR once in 256 signatures)."""
    from pyhanko.pdf_utils.generic import StreamObject

    original = StreamObject.write_to_stream

    def write_to_stream(self: Any, stream: Any, handler: Any = None, container_ref: Any = None):
        buffer = io.BytesIO()
        original(self, buffer, handler, container_ref)
        written = buffer.getvalue()
        if written.endswith(b"\r\nendstream"):
            written = written[: -len(b"\nendstream")] + b"\r\nendstream"
        stream.write(written)

    StreamObject.write_to_stream = write_to_stream  # type: ignore[method-assign]
    try:
        yield
    finally:
        StreamObject.write_to_stream = original  # type: ignore[method-assign]


def load(config: SigningConfig, secret: bytes | None, now: datetime | None = None) -> Signing:
    """The key the config names, opened with ``secret`` and checked; SigningRefused says why
    it cannot sign."""
    from cryptography import x509
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.serialization import pkcs12

    data = _read(config.key, config.source, "key")
    chain = [c for path in config.chain for c in _certificates(path, config.source)]
    if data.lstrip().startswith(b"-----BEGIN"):
        try:
            key = serialization.load_pem_private_key(data, password=secret or None)
        except TypeError:
            raise _passphrase_refused(config, secret) from None
        except ValueError:
            raise _passphrase_refused(config, secret) from None
        certificates = (
            [c for c in x509.load_pem_x509_certificates(data)] if b"CERTIFICATE" in data else []
        )
        certificates += chain
        match = [c for c in certificates if c.public_key() == key.public_key()]
        if not match:
            raise SigningRefused(
                f"{config.key}: no certificate for this key: add the signer's certificate to "
                f"the key file or to chain in {config.source}."
            )
        certificate = match[0]
        chain = [c for c in certificates if c is not certificate]
    else:
        try:
            opened = pkcs12.load_key_and_certificates(data, secret or None)
        except ValueError:
            raise _passphrase_refused(config, secret) from None
        if opened[0] is None or opened[1] is None:
            raise SigningRefused(f"{config.key}: the PKCS#12 file holds no key and certificate.")
        key, certificate = opened[0], opened[1]
        chain = [*opened[2], *chain]
    _usable(certificate, key, config, now or datetime.now(UTC))
    signing = Signing(config, key, certificate, chain)
    if signing.validation is not None:
        problem = chain_problem(signing.validation, signing.signer)
        if problem:
            raise SigningRefused(
                f"{config.key}: the signing certificate ({certificate.subject.rfc4514_string()})"
                f" does not validate up to the root its key file holds: {problem}"
            )
    return signing


def _read(path: Path, source: Path, what: str) -> bytes:
    try:
        return read_regular(path)
    except OSError as error:
        raise SigningRefused(
            f"{source}: {what} {path}: cannot be read ({unreadable(error)})."
        ) from None


def _certificates(path: Path, source: Path) -> list[Any]:
    from cryptography import x509

    data = _read(path, source, "chain")
    try:
        if b"-----BEGIN" in data:
            return list(x509.load_pem_x509_certificates(data))
        return [x509.load_der_x509_certificate(data)]
    except ValueError as error:
        raise SigningRefused(f"{source}: chain {path}: not a certificate ({error}).") from None


def _passphrase_refused(config: SigningConfig, secret: bytes | None) -> SigningRefused:
    said = "no passphrase was given" if not secret else "the passphrase is wrong"
    return SigningRefused(
        f"{config.key}: the signing key cannot be opened: {said} (or the file is damaged). Set "
        f"{PASSPHRASE_ENV}, or run at a terminal to be asked for it."
    )


def _usable(certificate: Any, key: Any, config: SigningConfig, now: datetime) -> None:
    """Refuse a certificate that cannot sign today: expired or not yet valid, not this key's,
    or with key usage for neither digitalSignature nor nonRepudiation (RFC 5280, 4.2.1.3; a
    certificate without the extension is not restricted)."""
    from cryptography import x509

    who = certificate.subject.rfc4514_string()
    if certificate.public_key() != key.public_key():
        raise SigningRefused(f"{config.key}: the certificate ({who}) is not this key's.")
    if now > certificate.not_valid_after_utc:
        raise SigningRefused(
            f"{config.key}: the signing certificate ({who}) expired on "
            f"{certificate.not_valid_after_utc:%Y-%m-%d}. Renew it, then sign again."
        )
    if now < certificate.not_valid_before_utc:
        raise SigningRefused(
            f"{config.key}: the signing certificate ({who}) is not valid until "
            f"{certificate.not_valid_before_utc:%Y-%m-%d}."
        )
    try:
        usage = certificate.extensions.get_extension_for_class(x509.KeyUsage).value
    except x509.ExtensionNotFound:
        return
    if not (usage.digital_signature or usage.content_commitment):
        raise SigningRefused(
            f"{config.key}: the signing certificate ({who}) may not sign documents: its key "
            "usage allows neither digitalSignature nor nonRepudiation. Use a document-signing "
            "certificate."
        )


def _signer(signing: Signing) -> Any:
    """pyHanko's signer for the key in memory (``SimpleSigner``), with the chain above it."""
    from asn1crypto import keys as asn1_keys
    from asn1crypto import x509 as asn1_x509
    from cryptography.hazmat.primitives import serialization
    from pyhanko.sign.signers import SimpleSigner
    from pyhanko_certvalidator.registry import SimpleCertificateStore

    der = serialization.Encoding.DER
    private = signing.key.private_bytes(
        der, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    return SimpleSigner(
        signing_cert=asn1_x509.Certificate.load(signing.certificate.public_bytes(der)),
        signing_key=asn1_keys.PrivateKeyInfo.load(private),
        cert_registry=SimpleCertificateStore.from_certs(
            [asn1_x509.Certificate.load(c.public_bytes(der)) for c in signing.chain]
        ),
    )


def url_timestamper(url: str) -> Any:
    """An RFC 3161 client over the standard library (pyHanko's own needs requests or an aiohttp
    session): one POST per timestamp, bounded in time and size (docgen.issue.tsa_exchange), and
    a clear refusal when the server does not answer, answers too slowly or too much, or answers
    with something that is not a TimeStampResp."""
    from asn1crypto import tsp
    from pyhanko.sign.timestamps.api import TimeStamper

    def refused(why: object) -> SigningRefused:
        return SigningRefused(
            f"timestamp_url {url}: the timestamp server did not answer ({why}). Nothing was issued."
        )

    class UrlTimeStamper(TimeStamper):
        async def async_request_tsa_response(self, req: Any) -> Any:
            try:
                body = await exchange(url, req.dump(), TIMESTAMP_SECONDS)
            except ExchangeFailed as error:
                raise refused(error) from None
            try:  # parsed whole now: garbage DER is a refusal here, not a crash in pyHanko
                response = tsp.TimeStampResp.load(body)
                _ = response.native
            except (ValueError, TypeError, KeyError, IndexError) as error:
                raise refused(f"its reply is not an RFC 3161 TimeStampResp: {error}") from None
            status = response["status"]["status"].native
            if status not in ("granted", "granted_with_mods"):
                raise refused(f"it refused to timestamp: {status}")
            return response

        def validation_paths(self, validation_context: Any) -> Any:
            return chained_paths(super().validation_paths(validation_context))

    return UrlTimeStamper()
