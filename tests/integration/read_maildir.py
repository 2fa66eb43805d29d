"""Prints, as JSON, every mail in a Maildir that aiosmtpd's Mailbox handler filled, as a
person's mail program would show it: headers decoded (RFC 2047), each body part decoded,
the links in the plain text, and every defect Python's parser found. The notice tests
(notices_test.cpp) read mails through it, so that a real MIME parser, not ours, judges them.
Usage: /usr/bin/python3 read_maildir.py MAILDIR"""
import email
import email.policy
import json
import pathlib
import re
import sys

mails = []
folder = pathlib.Path(sys.argv[1])
for path in sorted(list(folder.glob("new/*")) + list(folder.glob("cur/*")), key=lambda p: p.stat().st_mtime_ns):
    message = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    parts = {}
    defects = [str(d) for d in message.defects]
    for part in message.walk():
        defects += [str(d) for d in part.defects]
        if not part.is_multipart():
            parts[part.get_content_type()] = part.get_content()
    text = parts.get("text/plain", "")
    mails.append({
        "from": str(message["From"]),
        "to": str(message["To"]),
        "subject": str(message["Subject"]),
        "message_id": str(message["Message-ID"]),
        "content_type": message.get_content_type(),
        "list_unsubscribe": str(message.get("List-Unsubscribe", "")),
        "list_unsubscribe_post": str(message.get("List-Unsubscribe-Post", "")),
        "headers": [name.lower() for name in message.keys()],
        "text": text,
        "html": parts.get("text/html", ""),
        "links": re.findall(r"https?://\S+", text),
        "defects": defects,
    })
json.dump(mails, sys.stdout)
