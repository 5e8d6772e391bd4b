"""Players, a game master and an administrator with real mailboxes on the test mail servers,
each in a folder of this test's own (mail to user+folder@ is filed there)."""

from __future__ import annotations

import email
import imaplib
import smtplib
import time
from dataclasses import dataclass
from email.message import EmailMessage, Message
from email.policy import default

from tests.transport.helpers import MailStack

USERS = ("gm", "alice", "bob", "carol", "dave")


@dataclass
class Mailboxes:
    stack: MailStack
    folder: str

    def address(self, user: str) -> str:
        return self.stack.address(user, self.folder)

    def _imap(self, user: str) -> imaplib.IMAP4:
        client = imaplib.IMAP4(self.stack.host, self.stack.port("IMAP_PORT"), timeout=10)
        client.login(self.stack.address(user), self.stack.password(user))
        return client

    def create(self) -> None:
        for user in USERS:
            with self._imap(user) as client:
                client.create(self.folder)

    def delete(self) -> None:
        for user in USERS:
            try:
                with self._imap(user) as client:
                    client.delete(self.folder)
            except (OSError, imaplib.IMAP4.error):
                pass

    def messages(self, user: str) -> list[Message]:
        with self._imap(user) as client:
            client.select(self.folder, readonly=True)
            _, found = client.uid("search", "ALL")
            result = []
            for uid in found[0].split():
                _, data = client.uid("fetch", uid, "(BODY.PEEK[])")
                result.append(email.message_from_bytes(data[0][1], policy=default))
            return result

    def wait_for(self, user: str, subject_part: str, within: float = 30.0) -> Message:
        deadline = time.monotonic() + within
        while True:
            for message in self.messages(user):
                if subject_part in str(message["Subject"]):
                    return message
            if time.monotonic() > deadline:
                subjects = [str(m["Subject"]) for m in self.messages(user)]
                raise AssertionError(f"no mail {subject_part!r} for {user} within {within} s; there are {subjects}")
            time.sleep(0.2)

    def send(self, user: str, to: str, subject: str, body: str) -> None:
        message = EmailMessage()
        message["From"] = self.address(user)
        message["To"] = to
        message["Subject"] = subject
        message.set_content(body)
        with smtplib.SMTP(self.stack.host, self.stack.port("SMTP_PORT"), timeout=10) as smtp:
            smtp.send_message(message)
