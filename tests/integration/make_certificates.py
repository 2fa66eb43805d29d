"""Makes the TLS files the HTTPS tests serve with, into the folder named on the command line:
a test CA (ca.pem), and certificates it signed for localhost and 127.0.0.1 (server, renewed),
one that has expired (expired), and a key that belongs to none of them (stranger.key).
Each certificate X is X.pem (the chain, as Let's Encrypt's fullchain.pem) and X.key."""

import datetime
import ipaddress
import pathlib
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

folder = pathlib.Path(sys.argv[1])
now = datetime.datetime.now(datetime.timezone.utc)


def write_key(key, name):
    (folder / name).write_bytes(
        key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))


def pem(certificate):
    return certificate.public_bytes(serialization.Encoding.PEM)


ca_key = ec.generate_private_key(ec.SECP256R1())
ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "El Grande test CA")])
ca = (x509.CertificateBuilder().subject_name(ca_name).issuer_name(ca_name).public_key(ca_key.public_key())
      .serial_number(x509.random_serial_number()).not_valid_before(now - datetime.timedelta(days=1))
      .not_valid_after(now + datetime.timedelta(days=30))
      .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
      .sign(ca_key, hashes.SHA256()))
(folder / "ca.pem").write_bytes(pem(ca))


def leaf(name, common_name, not_before, not_after):
    key = ec.generate_private_key(ec.SECP256R1())
    certificate = (
        x509.CertificateBuilder().subject_name(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common_name)]))
        .issuer_name(ca_name).public_key(key.public_key()).serial_number(x509.random_serial_number())
        .not_valid_before(not_before).not_valid_after(not_after)
        .add_extension(x509.SubjectAlternativeName(
            [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
        .add_extension(x509.ExtendedKeyUsage([x509.oid.ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
        .sign(ca_key, hashes.SHA256()))
    (folder / f"{name}.pem").write_bytes(pem(certificate) + pem(ca))
    write_key(key, f"{name}.key")


leaf("server", "first.localhost", now - datetime.timedelta(hours=1), now + datetime.timedelta(days=30))
leaf("renewed", "renewed.localhost", now - datetime.timedelta(hours=1), now + datetime.timedelta(days=90))
leaf("expired", "expired.localhost", now - datetime.timedelta(days=30), now - datetime.timedelta(days=1))
write_key(ec.generate_private_key(ec.SECP256R1()), "stranger.key")
