"""Fixtures for the mail transport tests: the real mail servers that scripts/start-mail-stack
runs (described by the env file named in $GM_TEST_MAIL_ENV), and a mailbox folder of each
test's own (so that test runs sharing one stack keep apart)."""

from __future__ import annotations

import asyncio
import os
import socket
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from .helpers import MailStack, Recorder, read_env, run


def _listening(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=2):
            return True
    except OSError:
        return False


@pytest.fixture(scope="session")
def mail_stack() -> MailStack:
    hint = ("start it with scripts/start-mail-stack (as root; scripts/test does) and export "
            "GM_TEST_MAIL_ENV=<the env file it prints>, or deselect these tests with -m 'not mailserver'")
    name = os.environ.get("GM_TEST_MAIL_ENV")
    if not name:
        pytest.fail(f"GM_TEST_MAIL_ENV is not set, so the test mail servers cannot be found: {hint}", pytrace=False)
    path = Path(name)
    if not path.is_file():
        pytest.fail(f"GM_TEST_MAIL_ENV={name}: no such file: {hint}", pytrace=False)
    stack = MailStack(read_env(path))
    for port in ("IMAP_PORT", "IMAPS_PORT", "LMTP_PORT", "SMTP_PORT", "SUBMISSION_PORT", "SMTPS_PORT"):
        if port not in stack.env:
            pytest.fail(f"{path} names no {port}: {hint}", pytrace=False)
        if not _listening(stack.host, stack.port(port)):
            pytest.fail(f"the test mail servers are not up ({port} {stack.host}:{stack.port(port)} refuses "
                        f"connections; {path}): {hint}", pytrace=False)
    return stack


@pytest.fixture
def folder(mail_stack: MailStack) -> Iterator[str]:
    """A mailbox folder of this test's own (in every user's mailbox), deleted afterwards."""
    name = f"t{uuid.uuid4().hex[:12]}"
    yield name

    async def delete() -> None:
        for user in ("gm", "dave"):
            async with mail_stack.imap(user) as imap:
                assert imap.client is not None
                await asyncio.wait_for(imap.client.protocol.simple_command("DELETE", name), 10)

    run(delete())


@pytest.fixture
def recorder() -> Recorder:
    return Recorder()
