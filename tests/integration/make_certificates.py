"""Makes the TLS files the HTTPS tests serve with, into the folder named on the command line:
a test CA (ca.pem), and certificates it signed for localhost and 127.0.0.1 (server, renewed),
one that has expired (expired), and a key that belongs to none of them (stranger.key).
Each certificate X is X.pem (the chain, as Let's Encrypt's fullchain.pem) and X.key.

With a host name after the folder (scripts/rehearsal/certbot, the deployment rehearsal's
stand-in for Let's Encrypt), it makes only one certificate, for that name, valid 90 days:
HOST.pem and HOST.key, signed by the CA kept in the folder (ca.pem and its key ca.key, made
the first time and reused after, so that every certificate it issues has one issuer)."""

import datetime
import ipaddress
import pathlib
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

folder = pathlib.Path(sys.argv[1])
host = sys.argv[2] if len(sys.argv) > 2 else None
now = datetime.datetime.now(datetime.timezone.utc)


def write_key(key, name):
    (folder / name).write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))


def pem(certificate):
    return certificate.public_bytes(serialization.Encoding.PEM)


def make_ca():
    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "El Grande test CA")])
    certificate = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=30))
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256()))
    (folder / "ca.pem").write_bytes(pem(certificate))
    return key, certificate


def kept_ca():
    if not (folder / "ca.key").exists():
        key, certificate = make_ca()
        write_key(key, "ca.key")
        return key, certificate
    key = serialization.load_pem_private_key((folder / "ca.key").read_bytes(), password=None)
    return key, x509.load_pem_x509_certificate((folder / "ca.pem").read_bytes())


def leaf(ca_key, ca, name, common_name, not_before, not_after, alternative_names):
    key = ec.generate_private_key(ec.SECP256R1())
    certificate = (
        x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)]))
        .issuer_name(ca.subject).public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(not_before).not_valid_after(not_after)
        .add_extension(x509.SubjectAlternativeName(alternative_names), critical=False)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(ca_key, hashes.SHA256()))
    (folder / f"{name}.pem").write_bytes(pem(certificate) + pem(ca))
    write_key(key, f"{name}.key")


if host:
    ca_key, ca = kept_ca()
    leaf(ca_key, ca, host, host, now - datetime.timedelta(hours=1), now + datetime.timedelta(days=90), [x509.DNSName(host)])
else:
    ca_key, ca = make_ca()
    local = [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    leaf(ca_key, ca, "server", "first.localhost", now - datetime.timedelta(hours=1), now + datetime.timedelta(days=30), local)
    leaf(ca_key, ca, "renewed", "renewed.localhost", now - datetime.timedelta(hours=1), now + datetime.timedelta(days=90),
         local)
    leaf(ca_key, ca, "expired", "expired.localhost", now - datetime.timedelta(days=30), now - datetime.timedelta(days=1),
         local)
    write_key(ec.generate_private_key(ec.SECP256R1()), "stranger.key")
