"""Reads the mails mail_samples renders with Python's email package (Debian's /usr/bin/python3)
and checks they say what was meant: names and subject decoded as given (CR/LF as spaces), one
From/To/Subject and no Bcc/Cc, no defects, both parts decoding to the bodies, the unsubscribe
headers when asked. Usage: check_mails.py PATH/TO/mail_samples"""
import email.header
import email.parser
import email.policy
import json
import pathlib
import subprocess
import sys
import tempfile


def raw_phrase(raw: bytes, field: str) -> str:
    """The display name part of a From or To header as written, unfolded."""
    head = raw.split(b"\r\n\r\n", 1)[0].decode("ascii").replace("\r\n ", " ")
    for line in head.split("\r\n"):
        if line.lower().startswith(field + ":"):
            value = line[len(field) + 1:].strip()
            return value[:value.rfind("<")].strip() if value.endswith(">") else ""
    return ""


def check(eml: pathlib.Path, expected: dict) -> list:
    problems = []
    raw = eml.read_bytes()
    msg = email.parser.BytesParser(policy=email.policy.default).parsebytes(raw)

    def want(ok, what):
        if not ok:
            problems.append(what)

    want(not msg.defects, f"message defects {msg.defects}")
    for name, value in msg.items():
        want(not getattr(value, "defects", ()), f"{name} header defects {getattr(value, 'defects', ())}")
    for line in raw.split(b"\r\n"):
        want(len(line) <= 998, "a line over 998 bytes")
        want(b"\n" not in line and b"\r" not in line, "a bare CR or LF")
    for name in ("From", "To", "Subject", "Date", "Message-ID"):
        want(len(msg.get_all(name, [])) == 1, f"{name} not exactly once")
    for name in ("Bcc", "Cc"):
        want(msg.get_all(name) is None, f"a {name} header")
    for field in ("from", "to"):
        addresses = msg[field].addresses
        want(len(addresses) == 1, f"{field}: {len(addresses)} addresses")
        if not addresses:
            continue
        name = expected[f"{field}_name"]
        got = addresses[0].display_name
        want(addresses[0].addr_spec == expected[f"{field}_address"], f"{field} address {addresses[0].addr_spec!r}")
        phrase = raw_phrase(raw, field)
        if phrase.count("=?") > 1:
            # Python 3.11's phrase parser keeps a space between adjacent encoded-words, which
            # RFC 2047 §6.2 says to drop: its own long names read back wrong the same way. The
            # RFC's reading (the legacy decoder, which follows it) must be exact; Python's may
            # differ only in whitespace.
            rfc = str(email.header.make_header(email.header.decode_header(phrase)))
            want(rfc == name, f"{field} name by RFC 2047 {rfc!r} != {name!r}")
            want("".join(got.split()) == "".join(name.split()), f"{field} name {got!r} != {name!r} beyond spaces")
        else:
            want(got == name, f"{field} name {got!r} != {name!r}")
    want(str(msg["subject"]) == expected["subject"], f"subject {str(msg['subject'])!r} != {expected['subject']!r}")
    want(msg["message-id"] == f"<{expected['message_id']}>", f"message-id {msg['message-id']!r}")
    want(msg["auto-submitted"] == "auto-generated", "Auto-Submitted")
    want(msg.get_content_type() == "multipart/alternative", f"content type {msg.get_content_type()}")

    parts = list(msg.iter_parts())
    want([p.get_content_type() for p in parts] == ["text/plain", "text/html"],
         f"parts {[p.get_content_type() for p in parts]}")
    for part, key in zip(parts, ("text", "html")):
        want(not part.defects, f"{key} part defects {part.defects}")
        want(part.get_content_charset() == "utf-8", f"{key} charset {part.get_content_charset()}")
        want(part["content-transfer-encoding"] == "quoted-printable", f"{key} transfer encoding")
        decoded = part.get_payload(decode=True).decode("utf-8")
        # The hard line ends are CRLF on the wire; the body's own are '\n'.
        decoded = decoded.replace("\r\n", "\n")
        want(decoded == expected[key], f"{key} body {decoded[:80]!r}... != {expected[key][:80]!r}...")

    url = expected["unsubscribe_url"]
    if url is None:
        want(msg["list-unsubscribe"] is None and msg["list-unsubscribe-post"] is None, "unasked List-Unsubscribe")
    else:
        want(msg["list-unsubscribe"] == f"<{url}>", f"List-Unsubscribe {msg['list-unsubscribe']!r}")
        want(msg["list-unsubscribe-post"] == "List-Unsubscribe=One-Click", "List-Unsubscribe-Post")
    return problems


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run([sys.argv[1], tmp], check=True)
        emls = sorted(pathlib.Path(tmp).glob("*.eml"))
        if not emls:
            print("no mails rendered")
            return 1
        failed = 0
        for eml in emls:
            expected = json.loads(eml.with_suffix(".json").read_text(encoding="utf-8"))
            problems = check(eml, expected)
            if problems:
                failed += 1
                print(f"{eml.name}:")
                for problem in problems:
                    print(f"  {problem}")
                print(eml.read_bytes().decode("ascii", "replace"))
        print(f"{len(emls) - failed} of {len(emls)} mails read back as meant")
        return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
