"""The deploy tests use the test mail servers and PostgreSQL as a real server would."""

from tests.transport.conftest import mail_stack  # noqa: F401  (fixture)
